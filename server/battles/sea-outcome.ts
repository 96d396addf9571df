/**
 * A campaign game's battle decides its contested sea (server/play/sea-battles.ts): when the battle linked to a sea
 * ends, the sea is decided in the same transaction by the battle's winner (shared/campaign/decision.ts), and the
 * phase is adjudicated when it was its last sea; a linked battle called off puts the sea back to undecided, for the
 * game master to fight again, decide or waive (or the deadline to auto-resolve).
 *
 * The lock order is the battle's row, then the game's (lockSeaBattle): the battle's changes already hold the former.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LiveChannel } from '../../shared/api/live.ts';
import { decisionFrom } from '../../shared/campaign/decision.ts';
import { fleetsLost } from '../../shared/campaign/losses.ts';
import type { Transaction } from '../db/database.ts';
import { gameOf } from '../db/tables/games.ts';
import { seaBattleOf } from '../db/tables/sea-battles.ts';
import { HttpError } from '../errors.ts';
import type { PlayEnv } from '../play/process.ts';
import { decideSea, lockSeaBattle, type SeaBattleRow, seaForcesOf } from '../play/sea-battles.ts';
import { seaChangedEvent } from '../views/sea-battle.ts';
import type { LoadedBattle } from '../views/battle.ts';

type SeaEnv = { play: PlayEnv; log: FastifyBaseLogger };

/** The sea the battle is fought for, locked (with its game), if it is still being fought by this battle. */
async function foughtSea(tx: Transaction, battleId: string): Promise<SeaBattleRow | null> {
  const linked = await tx.seaBattle.findUnique({ where: { battleId }, select: { gameId: true, sea: true, phase: { select: { index: true } } } });
  if (!linked) return null;
  const row = await lockSeaBattle(tx, linked.gameId, linked.phase.index, linked.sea);
  return row.status === 'fighting' && row.battleId === battleId ? row : null;
}

/**
 * Puts a sea whose battle was called off (or abandoned, or could not be fought out) back to undecided: the battle
 * stays in the archive, no longer linked, and the sides' agreements to auto-resolve are cleared, to be given again
 * for the sea as it now stands (an agreement left complete would wait for nobody).
 */
export async function reopenSea(tx: Transaction, env: { play: PlayEnv }, row: SeaBattleRow): Promise<void> {
  const reopened = { status: 'undecided' as const, battleId: null, autoResolveAgreed: [] };
  const updated = seaBattleOf(await tx.seaBattle.update({ where: { id: row.id }, data: reopened }));
  const game = gameOf(await tx.game.findUniqueOrThrow({ where: { id: row.gameId }, select: { id: true, campaign: true } }));
  const phase = await tx.phase.findUniqueOrThrow({ where: { id: row.phaseId }, select: { index: true } });
  await env.play.bus.publish(tx, `game:${row.gameId}` as LiveChannel, seaChangedEvent(row.gameId, phase.index, updated, game));
}

/**
 * After a change to a battle: if it ended and decides a sea, the sea is decided ('computer' when the computer fought
 * every side: an auto-resolved sea) with the fleets it sank to the last ship, and the phase goes on; if it was called off, its sea is undecided again.
 * A sea the game master can no longer decide that way (the phase is no longer held) is left as it is, and logged:
 * the battle's own change is never refused for it.
 */
export async function seaAfterBattle(env: SeaEnv, tx: Transaction, battle: LoadedBattle, now: Date): Promise<void> {
  if (battle.status !== 'finished' && battle.status !== 'cancelled') return;
  const row = await foughtSea(tx, battle.id);
  if (!row) return;
  if (battle.status === 'cancelled') return reopenSea(tx, env, row);
  const game = gameOf(await tx.game.findUniqueOrThrow({ where: { id: row.gameId }, select: { id: true, campaign: true } }));
  const forces = game.campaign ? seaForcesOf(game.campaign, row) : null;
  // The fleets that lost every ship go down with them (shared/campaign/losses.ts).
  const lost = forces?.ok ? fleetsLost(battle.ruleset, forces.value, battle.state) : null;
  if (lost && !lost.ok) env.log.error({ battleId: battle.id, sea: row.sea, problem: lost.error }, "a finished battle's losses could not be read");
  const decided = forces?.ok ? decisionFrom(forces.value, battle.outcome?.winner ?? null, lost?.ok ? lost.value : []) : null;
  if (!decided?.ok) {
    // The sea's sides no longer read (never expected): the game master decides it by hand.
    const problem = decided ? decided.error : forces && !forces.ok ? forces.error : 'the game is not a campaign';
    env.log.error({ battleId: battle.id, sea: row.sea, problem }, 'a finished battle could not decide its sea');
    return reopenSea(tx, env, row);
  }
  const computerOnly = battle.seats.every((seat) => seat.role !== 'side' || seat.player === 'computer');
  try {
    await decideSea(tx, env.play, row, decided.value.outcome, computerOnly ? 'computer' : 'battle', now);
  } catch (error) {
    // A refusal of the rules of the phase (checked before anything is written); a database failure goes on up.
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
    env.log.warn({ battleId: battle.id, sea: row.sea, reason: error.message }, 'a finished battle did not decide its sea');
  }
}
