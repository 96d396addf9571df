/**
 * The game master abandons the battle being fought for a contested sea: the battle ends with nobody winning it
 * (finished, its outcome saying it was abandoned, so it stays in the archive and its record verifies), and the sea is
 * undecided again (sea-outcome.ts reopenSea), for the game master to fight again, decide or waive, or the deadline
 * to auto-resolve. Refused to a game master who plays a power fighting there, as every hand on a sea is.
 *
 * The lock order is the battle's row, then the game's, the order every change to a battle takes (sea-outcome.ts): the
 * sea's battle is looked up without a lock, locked, and checked again under the game's lock.
 */
import type { FastifyInstance } from 'fastify';
import type { Outcome } from '../../shared/naval/ruleset.ts';
import type { Auth } from '../auth/caller.ts';
import type { Transaction } from '../db/database.ts';
import { conflict, forbidden } from '../errors.ts';
import { lockedGame, requireGameMaster, type GameContext } from '../play/context.ts';
import { logGmAction } from '../play/gm-log.ts';
import { lockSeaBattle, seaForcesOf, type SeaBattleRow } from '../play/sea-battles.ts';
import { type SeaParams, seaAnswer } from './from-sea.ts';
import { type BattleEnv, publishChange } from './play.ts';
import { reopenSea } from './sea-outcome.ts';
import { asJson, lockBattle } from './stored.ts';

type User = Auth['user'];

/** What the abandoned battle's page and the archive say of its end. */
export const ABANDONED_REASON = 'abandoned by the game master before it ended; the sea is settled again';

/** The battle linked to the sea, read without a lock (null when the sea or its battle is not there). */
async function linkedBattleId(tx: Transaction, params: SeaParams): Promise<string | null> {
  const phase = await tx.phase.findUnique({ where: { gameId_index: { gameId: params.gameId, index: params.index } }, select: { id: true } });
  if (!phase) return null;
  const row = await tx.seaBattle.findUnique({ where: { phaseId_sea: { phaseId: phase.id, sea: params.sea } }, select: { battleId: true } });
  return row?.battleId ?? null;
}

/** A game master who plays a power fighting in the sea may not end its battle: that battle decides the sea. */
export function requireImpartialMaster(context: GameContext, row: SeaBattleRow, what: string): void {
  requireGameMaster(context);
  const own = context.seat?.power;
  if (!own || !context.game.campaign) return;
  const forces = seaForcesOf(context.game.campaign, row);
  const fighting = forces.ok ? forces.value.sides.flatMap((side) => side.powers) : row.contested.powers;
  if (fighting.includes(own)) {
    throw forbidden('game_master_plays', `you play ${own}, which fights in ${row.contested.name}: you may not ${what}; the battle decides the sea`);
  }
}

/** The game master abandons the sea's battle under way; the answer is the sea, undecided again. */
export async function abandonSea(env: BattleEnv, app: FastifyInstance, user: User, params: SeaParams) {
  return app.prisma.$transaction(async (tx) => {
    const linked = await linkedBattleId(tx, params);
    const battle = linked ? await lockBattle(tx, linked) : null;
    const context = await lockedGame(tx, params.gameId, user);
    // Whether the sea exists is for the game master to learn.
    requireGameMaster(context);
    if (!context.game.campaign) throw conflict('conflict', 'this game is not a campaign: its seas are not fought as battles');
    const row = await lockSeaBattle(tx, params.gameId, params.index, params.sea);
    requireImpartialMaster(context, row, 'abandon its battle');
    const phase = await tx.phase.findUniqueOrThrow({ where: { id: row.phaseId }, select: { index: true, name: true, status: true } });
    if (phase.status !== 'held') throw conflict('phase_closed', `phase ${phase.index} (${phase.name}) is not waiting for its sea battles`);
    if (row.status !== 'fighting' || row.battleId === null) {
      const what = row.status === 'undecided' ? 'undecided' : row.status === 'decided' ? 'decided already' : 'waived';
      throw conflict('conflict', `no battle is being fought for ${row.contested.name}: the sea is ${what}`);
    }
    // Another request changed the sea's battle between the look-up and the locks (never in practice): try again.
    if (!battle || battle.id !== row.battleId) throw conflict('conflict', `the battle for ${row.contested.name} changed meanwhile: reload and try again`);
    if (battle.status === 'finished' || battle.status === 'cancelled') {
      throw conflict('conflict', `the battle for ${row.contested.name} is over already (${battle.status}): its result decides the sea`);
    }
    const now = new Date();
    // The sea first, then the battle: the battle's end finds no sea fought by it, so it decides nothing.
    await reopenSea(tx, env, row);
    const outcome: Outcome = { winner: null, reason: ABANDONED_REASON };
    const ended = { status: 'finished' as const, outcome, finishedAt: now, decision: null, deadlineAt: null };
    await tx.battle.update({ where: { id: battle.id }, data: { ...ended, outcome: asJson(outcome) } });
    await logGmAction(tx, env.bus, params.gameId, user.id, 'abandon-sea', {
      phase: params.index,
      sea: row.sea,
      seaName: row.contested.name,
      battleId: battle.id,
      actions: battle.actionCount,
    });
    await publishChange(env, tx, { ...battle, ...ended }, 'finished', now);
    return seaAnswer(tx, row.id, context.game.campaign);
  });
}
