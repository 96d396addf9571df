/**
 * The contested seas of a held campaign phase (process.ts holds the phase and makes their rows): each is fought as a
 * battle (server/battles/ marks it `fighting`, then decides it by the battle's result), auto-resolved by the
 * computer, decided by the game master, or waived to the ordinary rules. When the last of a phase's seas is decided
 * or waived, the phase is adjudicated with the outcomes (process.ts `settleHeldPhase`). Every function here runs in
 * the caller's transaction, which holds the game's row lock (`lockSeaBattle` takes it).
 */
import type { SeaOutcome } from '../../shared/api/campaign.ts';
import type { LiveChannel } from '../../shared/api/live.ts';
import { decisionFrom } from '../../shared/campaign/decision.ts';
import type { SeaForces } from '../../shared/campaign/forces.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import type { Db, Transaction } from '../db/database.ts';
import { gameOf } from '../db/tables/games.ts';
import { seaBattleOf, seaBattleValues, type SeaBattleRow, type SeaSides } from '../db/tables/sea-battles.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { seaChangedEvent } from '../views/sea-battle.ts';
import { settleHeldPhase, type PlayEnv } from './process.ts';
import { seaForcesOf } from './sea-forces.ts';

export type { SeaBattleRow, SeaSides };
export { seaForcesOf };

/** Who decided a sea. */
export type SeaDecider = 'battle' | 'game-master' | 'computer';

/**
 * Locks the game's row (the lock every game-play change takes, context.ts) and reads the contested sea `sea` of
 * phase `phaseIndex`; 404 naming what is missing.
 */
export async function lockSeaBattle(tx: Transaction, gameId: string, phaseIndex: number, sea: string): Promise<SeaBattleRow> {
  await tx.$queryRaw`SELECT id FROM games WHERE id = ${gameId}::uuid FOR UPDATE`;
  const phase = await tx.phase.findUnique({ where: { gameId_index: { gameId, index: phaseIndex } }, select: { id: true, name: true } });
  if (!phase) throw notFound(`no phase ${phaseIndex} in this game`);
  const row = await tx.seaBattle.findUnique({ where: { phaseId_sea: { phaseId: phase.id, sea } } });
  if (!row) {
    const seas = await tx.seaBattle.findMany({ where: { phaseId: phase.id }, select: { sea: true }, orderBy: { createdAt: 'asc' } });
    const listed = seas.length > 0 ? `its contested seas are ${seas.map((s) => s.sea).join(', ')}` : 'it has no contested sea';
    throw notFound(`no contested sea "${sea}" in phase ${phaseIndex} (${phase.name}): ${listed}`);
  }
  return seaBattleOf(row);
}

/** The game's campaign and the phase of a sea, read under the lock. */
async function factsOf(tx: Db, row: SeaBattleRow) {
  const game = gameOf(await tx.game.findUniqueOrThrow({ where: { id: row.gameId }, select: { id: true, campaign: true } }));
  const phase = await tx.phase.findUniqueOrThrow({ where: { id: row.phaseId }, select: { index: true, name: true, status: true } });
  return { game, phase };
}

/** The phase must still wait for its seas, and this one must still be open to a decision. */
function requireOpen(row: SeaBattleRow, phase: { index: number; name: string; status: string }, allowFighting: boolean): void {
  if (phase.status !== 'held') throw conflict('phase_closed', `phase ${phase.index} (${phase.name}) is not waiting for its sea battles`);
  if (row.status === 'decided' || row.status === 'waived') throw conflict('conflict', `${row.contested.name} has been ${row.status} already`);
  if (row.status === 'fighting' && !allowFighting) throw conflict('conflict', `a battle is being fought for ${row.contested.name}: its result decides the sea`);
}

async function stored(tx: Transaction, env: PlayEnv, row: SeaBattleRow, data: Parameters<Transaction['seaBattle']['update']>[0]['data']) {
  const updated = seaBattleOf(await tx.seaBattle.update({ where: { id: row.id }, data }));
  const { game, phase } = await factsOf(tx, updated);
  await env.bus.publish(tx, `game:${row.gameId}` as LiveChannel, seaChangedEvent(row.gameId, phase.index, updated, game));
  return updated;
}

/**
 * The outcome of a sea won by `winner`'s side (a power of the fight), or by nobody (null: a standoff), as the engine
 * decides the sea with it (shared/campaign/decision.ts).
 */
export function outcomeForWinner(forces: SeaForces, winner: string | null): Result<SeaOutcome, string> {
  if (winner === null) return ok({ standoff: true });
  const side = forces.sides.find((s) => s.powers.includes(winner));
  if (!side) return err(`${winner} did not fight in ${forces.seaName} (${forces.sides.flatMap((s) => s.powers).join(', ')} did)`);
  const decided = decisionFrom(forces, side.id);
  return decided.ok ? ok(decided.value.outcome) : decided;
}

/** A battle is being fought for the sea (`battleId`): it is no longer the game master's to decide by hand. */
export async function markFighting(tx: Transaction, env: PlayEnv, row: SeaBattleRow, battleId: string, _now: Date): Promise<void> {
  const { game, phase } = await factsOf(tx, row);
  requireOpen(row, phase, false);
  if (!game.campaign) throw conflict('conflict', 'this game is not a campaign');
  const forces = seaForcesOf(game.campaign, row);
  if (!forces.ok) throw conflict('conflict', forces.error.join('; '));
  await stored(tx, env, row, { status: 'fighting', battleId });
}

/**
 * Decides the sea; then, when every sea of the phase is decided or waived, the phase is adjudicated with the outcomes
 * and processed (or stays held for a sea the decisions made contested).
 */
export async function decideSea(tx: Transaction, env: PlayEnv, row: SeaBattleRow, outcome: SeaOutcome, by: SeaDecider, now: Date): Promise<void> {
  const { phase } = await factsOf(tx, row);
  requireOpen(row, phase, true);
  if ('winner' in outcome && !row.contested.powers.includes(outcome.winner)) {
    throw conflict('conflict', `${outcome.winner} had no fleet in ${row.contested.name} (${row.contested.powers.join(', ')} had)`);
  }
  await stored(tx, env, row, { status: 'decided', ...seaBattleValues({ outcome }), decidedBy: by, decidedAt: now });
  await settleHeldPhase(tx, env, row.gameId, row.phaseId, now);
}

/** Leaves the sea to the ordinary rules; then as `decideSea`. */
export async function waiveSea(tx: Transaction, env: PlayEnv, row: SeaBattleRow, now: Date): Promise<void> {
  const { phase } = await factsOf(tx, row);
  requireOpen(row, phase, false);
  await stored(tx, env, row, { status: 'waived', decidedBy: 'game-master', decidedAt: now });
  await settleHeldPhase(tx, env, row.gameId, row.phaseId, now);
}

/** The two sides where three or more powers met: every power of the fight exactly once. 400 naming each problem. */
export async function setSeaSides(tx: Transaction, env: PlayEnv, row: SeaBattleRow, sides: SeaSides, _now: Date): Promise<void> {
  const { game, phase } = await factsOf(tx, row);
  requireOpen(row, phase, false);
  if (!game.campaign) throw conflict('conflict', 'this game is not a campaign');
  const met = row.contested.powers;
  if (met.length < 3) throw conflict('conflict', `only ${met.join(' and ')} met in ${row.contested.name}: each is a side`);
  const forces = seaForcesOf(game.campaign, { contested: row.contested, sides });
  if (!forces.ok) throw invalid('body.sides', forces.error.join('; '));
  await stored(tx, env, row, { ...seaBattleValues({ sides: sides.map((side) => [...side]) }) });
}

/**
 * Seas still undecided (not being fought) whose deadline has passed, of held phases of active, unpaused games: the
 * expiry loop's work (server/battles/), oldest deadline first.
 */
export async function heldSeasPastDeadline(db: Db, now: Date, limit: number): Promise<Array<SeaBattleRow & { phaseIndex: number }>> {
  const rows = await db.seaBattle.findMany({
    where: {
      status: 'undecided',
      deadlineAt: { lte: now },
      phase: { status: 'held' },
      game: { status: 'active', pausedAt: null },
    },
    include: { phase: { select: { index: true } } },
    orderBy: { deadlineAt: 'asc' },
    take: limit,
  });
  return rows.map(({ phase, ...row }) => ({ ...seaBattleOf(row), phaseIndex: phase.index }));
}
