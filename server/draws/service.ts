/**
 * Draws (DIAS: shared by every surviving power, unanimous among them) and
 * concessions (every other survivor concedes to one power). Survivors are the
 * engine's: powers with a unit or a centre in the current position. When the
 * votes are complete the game ends in the same transaction.
 */
import type { FastifyInstance } from 'fastify';
import { survivors } from '../../shared/index.ts';
import type { CastVoteRequest } from '../../shared/api/draws.ts';
import type { GameOutcome } from '../../shared/api/games.ts';
import type { Db, Transaction } from '../db/database.ts';
import { conflict, invalid } from '../errors.ts';
import { requireActive, requirePower, viewableGame, withLockedGame, type GameContext, type Viewer } from '../play/context.ts';
import { latestPosition, openPhase } from '../play/phases.ts';
import { votesView } from '../views/votes.ts';
import { finishGame } from '../play/process.ts';
import type { Auth } from '../auth/caller.ts';

async function survivorsNow(db: Db, context: GameContext): Promise<string[]> {
  const position = await latestPosition(db, context);
  return position ? survivors(context.variant, position) : [];
}

async function votes(db: Db, context: GameContext) {
  const rows = await db.drawVote.findMany({ where: { gameId: context.game.id }, orderBy: { createdAt: 'asc' } });
  return votesView(await survivorsNow(db, context), rows, context.game.outcome);
}

export async function listVotes(db: Db, viewer: Viewer, gameId: string) {
  return votes(db, await viewableGame(db, gameId, viewer));
}

/** The outcome the votes agree on, if any. */
function agreed(alive: string[], rows: { power: string; kind: string; powers: string[] }[]): GameOutcome | null {
  if (alive.length === 0) return null;
  const drawVoters = new Set(rows.filter((row) => row.kind === 'draw').map((row) => row.power));
  if (alive.every((power) => drawVoters.has(power))) return { kind: 'draw', powers: alive };
  for (const winner of alive) {
    const others = alive.filter((power) => power !== winner);
    if (others.length === 0) continue;
    const conceding = new Set(rows.filter((row) => row.kind === 'concede' && row.powers[0] === winner).map((row) => row.power));
    if (others.every((power) => conceding.has(power))) return { kind: 'concession', powers: [winner] };
  }
  return null;
}

async function checkAgreement(app: FastifyInstance, tx: Transaction, context: GameContext) {
  const alive = await survivorsNow(tx, context);
  const rows = await tx.drawVote.findMany({ where: { gameId: context.game.id } });
  const outcome = agreed(alive, rows);
  if (outcome) await finishGame(tx, app.play, context.game.id, outcome, new Date());
}

export async function castVote(app: FastifyInstance, user: Auth['user'], gameId: string, body: CastVoteRequest) {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    requireActive(context);
    const { power } = requirePower(context);
    const phase = await openPhase(tx, gameId);
    const alive = await survivorsNow(tx, context);
    if (!alive.includes(power)) throw conflict('conflict', `${power} is no longer in the game: only survivors vote`);
    let powers: string[] = [];
    if (body.kind === 'concede') {
      if (body.to === power) throw invalid('body.to', 'concede to another power, not to yourself');
      if (!alive.includes(body.to)) throw invalid('body.to', `"${body.to}" is not a surviving power (${alive.join(', ')})`);
      powers = [body.to];
    }
    await tx.drawVote.upsert({
      where: { gameId_power_kind: { gameId, power, kind: body.kind } },
      create: { gameId, power, kind: body.kind, powers, phaseIndex: phase.index },
      update: { powers, phaseIndex: phase.index },
    });
    await app.bus.publish(tx, `game:${gameId}`, { type: 'votes.changed', gameId, power, kind: body.kind, cast: true });
    await checkAgreement(app, tx, context);
    return votes(tx, await viewableGame(tx, gameId, user));
  });
}

export async function withdrawVote(app: FastifyInstance, user: Auth['user'], gameId: string, kind: 'draw' | 'concede') {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    requireActive(context);
    const { power } = requirePower(context);
    const { count } = await tx.drawVote.deleteMany({ where: { gameId, power, kind } });
    if (count > 0) await app.bus.publish(tx, `game:${gameId}`, { type: 'votes.changed', gameId, power, kind, cast: false });
    return votes(tx, context);
  });
}
