/**
 * The game master's tools, one entry each: what it does, in the transaction
 * holding the game's lock that the runner (gm/service.ts) opens, and what it
 * writes to the log. Whether the players' consent is needed first is the
 * runner's business (a game master who plays: gm/consent.ts); a tool only
 * checks that it makes sense now. In the core because other domains act
 * through the same tools: a passed clock vote pauses or extends as the game
 * master would (clock-votes/), a seat is handed to a new player as the
 * game master's replacement does (seats/).
 */
import type { FastifyInstance } from 'fastify';
import { survivors } from '../../shared/index.ts';
import { MAX_DEADLINE_SECONDS, type EndGameRequest } from '../../shared/api/gm.ts';
import type { GameOutcome } from '../../shared/api/games.ts';
import type { GmActionKind } from '../../shared/api/gm-actions.ts';
import { mayReopen } from '../access/policy.ts';
import type { Transaction } from '../db/database.ts';
import { conflict, invalid, unprocessable } from '../errors.ts';
import { deadlineSeconds } from './first-phase.ts';
import { moveSeaDeadlines, waitingSeas } from './deadlines.ts';
import { seaBattleOf, type SeaBattleRow } from '../db/tables/sea-battles.ts';
import { seaChangedEvent } from '../views/sea-battle.ts';
import { syncLoans } from './loan-sync.ts';
import type { GmLogDetails } from './gm-log.ts';
import { requireActive, seatOf, type GameContext } from './context.ts';
import { latestSubmissions, openPhase, positionOf, type PhaseRow } from './phases.ts';
import { phaseRef, playerStatusEvent } from '../views/phase.ts';
import { submissionRecord } from '../views/submission.ts';
import { finishGame, processIfAllReady, processPhase } from './process.ts';
import { discardedPhaseValues, phaseOf, phaseValues } from '../db/tables/phases.ts';
import { submissionOf } from '../db/tables/submissions.ts';
import { gameValues } from '../db/tables/games.ts';

/** What a tool did: its log entry, and work to do once it is logged (processing a phase everyone may now be ready for). */
export type ToolResult = { action: GmActionKind; details: GmLogDetails; after?: () => Promise<void> };
type Run<R> = (app: FastifyInstance, tx: Transaction, context: GameContext, actionId: string, request: R) => Promise<ToolResult>;

/**
 * `listed`: the change shows in the game lists too (the clock paused or running again, a finished game
 * played on), so a public game tells the lobby as well; a deadline moved concerns only the game's page.
 */
async function publishDeadline(
  app: FastifyInstance,
  tx: Transaction,
  context: GameContext,
  phase: PhaseRow,
  deadlineAt: Date | null,
  paused: boolean,
  listed = false,
) {
  const gameId = context.game.id;
  const event = { type: 'deadline.changed', gameId, phaseIndex: phase.index, deadlineAt: deadlineAt?.toISOString() ?? null, paused } as const;
  await app.bus.publishAll(tx, [{ channel: `game:${gameId}`, event }, ...(listed && !context.game.private ? [{ channel: 'lobby' as const, event }] : [])]);
}

/**
 * A deadline set while the clock is paused is meant as set: on resume it moves
 * only by the time paused after it was set, so the pause counts from now.
 */
async function restartPauseAt(tx: Transaction, context: GameContext, now: Date) {
  if (context.game.pausedAt) await tx.game.update({ where: { id: context.game.id }, data: { pausedAt: now } });
}

const processNow: Run<Record<string, never>> = async (app, tx, context) => {
  const gameId = context.game.id;
  requireActive(context);
  if (context.game.pausedAt) throw conflict('game_paused', 'the game is paused: resume it first');
  const phase = await openPhase(tx, gameId);
  const result = await processPhase(tx, app.play, gameId, phase.id, new Date());
  const details = result && 'held' in result ? { held: result.seas } : { next: result?.next?.name ?? null };
  return { action: 'process-now', details: { phase: phase.index, phaseName: phase.name, ...details } };
};

/** The phase the clock runs for: the open one, or one held for its sea battles (campaign games). */
async function clockPhase(tx: Transaction, gameId: string): Promise<PhaseRow> {
  const held = phaseOf(await tx.phase.findFirst({ where: { gameId, status: 'held' }, orderBy: { index: 'desc' } }));
  return held ?? openPhase(tx, gameId);
}

/** Each sea moved, told to the game's watchers as its own change (its deadline is in the sea's view). */
async function publishSeas(app: FastifyInstance, tx: Transaction, context: GameContext, phase: PhaseRow, rows: readonly SeaBattleRow[]) {
  const gameId = context.game.id;
  await app.bus.publishAll(
    tx,
    rows.map((row) => ({ channel: `game:${gameId}` as const, event: seaChangedEvent(gameId, phase.index, row, context.game) })),
  );
}

/** The deadline checks of a change: it moves the deadline by a second at least, not into the past, at most so far ahead. */
function checkDeadline(before: Date | null, target: Date, now: number, pastHint: string) {
  // A change that does not move the deadline (by a whole second) would only add noise to the log.
  if (before && Math.abs(target.getTime() - before.getTime()) < 1000) {
    throw unprocessable('deadline_out_of_range', `the deadline is ${before.toISOString()} already: the change would not move it`);
  }
  // A second of slack, so "shorten to now" computed by a client is not refused.
  if (target.getTime() < now - 1000) {
    throw unprocessable('deadline_out_of_range', `the new deadline ${target.toISOString()} is in the past; ${pastHint}`);
  }
  if (target.getTime() > now + MAX_DEADLINE_SECONDS * 1000) {
    throw unprocessable('deadline_out_of_range', `a deadline may be at most ${MAX_DEADLINE_SECONDS / 86400} days from now`);
  }
}

/**
 * A phase held for its sea battles: the change moves the time its seas still waiting have before they are
 * auto-resolved (a sea being fought waits for its battle), each by `extendBySeconds`, or all to `deadlineAt`.
 */
async function changeSeaDeadlines(
  app: FastifyInstance,
  tx: Transaction,
  context: GameContext,
  phase: PhaseRow,
  body: { extendBySeconds?: number; deadlineAt?: string },
): Promise<ToolResult> {
  const seas = await waitingSeas(tx, phase.id);
  if (seas.length === 0) {
    throw conflict('phase_closed', `phase ${phase.index} (${phase.name}) awaits its sea battles, but no sea waits for a decision: each is being fought`);
  }
  const now = Date.now();
  const moved: SeaBattleRow[] = [];
  for (const row of seas) {
    const before = row.deadlineAt;
    const target = body.deadlineAt !== undefined ? new Date(body.deadlineAt) : new Date((before?.getTime() ?? now) + body.extendBySeconds! * 1000);
    checkDeadline(before, target, now, 'decide the sea or auto-resolve it to end its wait at once');
    moved.push(seaBattleOf(await tx.seaBattle.update({ where: { id: row.id }, data: { deadlineAt: target } })));
  }
  await restartPauseAt(tx, context, new Date(now));
  await publishSeas(app, tx, context, phase, moved);
  return {
    action: 'change-deadline',
    details: {
      phase: phase.index,
      phaseName: phase.name,
      // The seas' deadlines moved, not the phase's: the orders are final already.
      seas: moved.map((row, i) => ({ sea: row.sea, from: seas[i].deadlineAt?.toISOString() ?? null, to: row.deadlineAt?.toISOString() ?? null })),
      from: seas[0].deadlineAt?.toISOString() ?? null,
      to: moved[0].deadlineAt?.toISOString() ?? null,
    },
  };
}

const changeDeadline: Run<{ extendBySeconds?: number; deadlineAt?: string }> = async (app, tx, context, _actionId, body) => {
  const gameId = context.game.id;
  requireActive(context);
  const phase = await clockPhase(tx, gameId);
  if (phase.status === 'held') return changeSeaDeadlines(app, tx, context, phase, body);
  const now = Date.now();
  const before = phase.deadlineAt;
  const target = body.deadlineAt !== undefined ? new Date(body.deadlineAt) : new Date((before?.getTime() ?? now) + body.extendBySeconds! * 1000);
  checkDeadline(before, target, now, 'use process-now to end the phase at once');
  await tx.phase.update({ where: { id: phase.id }, data: { deadlineAt: target } });
  await restartPauseAt(tx, context, new Date(now));
  await publishDeadline(app, tx, context, phase, target, context.game.pausedAt !== null);
  return {
    action: 'change-deadline',
    details: { phase: phase.index, phaseName: phase.name, from: before?.toISOString() ?? null, to: target.toISOString() },
  };
};

const pause: Run<Record<string, never>> = async (app, tx, context) => {
  const gameId = context.game.id;
  requireActive(context);
  if (context.game.pausedAt) throw conflict('game_paused', 'the game is already paused');
  const phase = await clockPhase(tx, gameId);
  await tx.game.update({ where: { id: gameId }, data: { pausedAt: new Date() } });
  await publishDeadline(app, tx, context, phase, phase.deadlineAt, true, true);
  return { action: 'pause', details: { phase: phase.index, phaseName: phase.name } };
};

const resume: Run<Record<string, never>> = async (app, tx, context) => {
  const gameId = context.game.id;
  requireActive(context);
  const pausedAt = context.game.pausedAt;
  if (!pausedAt) throw conflict('conflict', 'the game is not paused');
  const phase = await clockPhase(tx, gameId);
  const now = new Date();
  const pausedMs = Math.max(0, now.getTime() - pausedAt.getTime());
  // The clock stood still: the deadline moves by the time paused (since the deadline was last set, see restartPauseAt).
  const deadlineAt = phase.deadlineAt ? new Date(phase.deadlineAt.getTime() + pausedMs) : null;
  await tx.game.update({ where: { id: gameId }, data: { pausedAt: null } });
  await tx.phase.update({ where: { id: phase.id }, data: { deadlineAt } });
  await publishDeadline(app, tx, context, phase, deadlineAt, false, true);
  // A phase held for its battles: the seas still waiting lose none of their time either.
  if (phase.status === 'held') await publishSeas(app, tx, context, phase, await moveSeaDeadlines(tx, phase.id, pausedMs));
  return {
    action: 'resume',
    details: { phase: phase.index, phaseName: phase.name, pausedSeconds: Math.round(pausedMs / 1000), deadlineAt: deadlineAt?.toISOString() ?? null },
    // Everyone may have become ready while the clock stood still.
    after: async () => void (await processIfAllReady(tx, app.play, gameId, now)),
  };
};

const replacePlayer: Run<{ power: string; username: string }> = async (app, tx, context, _actionId, body) => {
  const gameId = context.game.id;
  requireActive(context);
  const seat = seatOf(context, body.power);
  const newcomer = await tx.user.findUnique({ where: { usernameKey: body.username.toLowerCase() } });
  if (!newcomer) throw invalid('body.username', `there is no user named "${body.username}"`);
  const existing = context.game.players.find((player) => player.userId === newcomer.id);
  if (existing)
    throw conflict('already_joined', `the user ${newcomer.username} already has a seat in this game${existing.power ? ` (${existing.power})` : ''}`);
  if (seat.status === 'eliminated') throw conflict('conflict', `${body.power} has been eliminated`);
  // The one handing over stays on record as a former holder (their public page keeps the game and its deadlines).
  const former = seat.userId && !seat.formerUserIds.includes(seat.userId) ? { formerUserIds: { push: seat.userId } } : {};
  // The seat is filled: no longer offered to new players in the lobby (server/seats/).
  await tx.player.update({ where: { id: seat.id }, data: { userId: newcomer.id, status: 'active', missedDeadlines: 0, replacementWantedAt: null, ...former } });
  await app.bus.publish(tx, `game:${gameId}`, playerStatusEvent(gameId, { power: body.power, userId: newcomer.id }, 'active', 0, true));
  return {
    action: 'replace-player',
    details: { power: body.power, users: { from: seat.user?.username ?? null, to: newcomer.username } },
  };
};

const civilDisorder: Run<{ power: string }> = async (app, tx, context, _actionId, { power }) => {
  const gameId = context.game.id;
  requireActive(context);
  const seat = seatOf(context, power);
  if (seat.status !== 'active') throw conflict('conflict', `${power} is ${seat.status === 'civil_disorder' ? 'in civil disorder' : seat.status} already`);
  await tx.player.update({ where: { id: seat.id }, data: { status: 'civil_disorder' } });
  await app.bus.publish(tx, `game:${gameId}`, playerStatusEvent(gameId, { power, userId: seat.userId }, 'civil_disorder', seat.missedDeadlines));
  return {
    action: 'civil-disorder',
    details: { power },
    // The phase no longer waits for this power: the others may all be ready.
    after: async () => void (await processIfAllReady(tx, app.play, gameId, new Date())),
  };
};

/**
 * Ends the game as the game master rules: a draw among the surviving powers named (all of them by
 * default) or a concession to one, e.g. agreed away from the server, or a game its players have
 * left. Pending votes are dropped. A rollback to the open phase undoes it.
 */
const endGame: Run<EndGameRequest> = async (app, tx, context, _actionId, body) => {
  const gameId = context.game.id;
  requireActive(context);
  const phase = await openPhase(tx, gameId);
  const alive = survivors(context.variant, positionOf(context.variant, phase));
  const named = new Set(body.powers ?? alive);
  for (const power of named) {
    seatOf(context, power);
    if (!alive.includes(power))
      throw conflict('conflict', `${power} has no unit and no centre left: only surviving powers (${alive.join(', ')}) can share a draw or be conceded to`);
  }
  if (body.outcome === 'draw' && named.size < 2 && alive.length > 1) {
    throw conflict(
      'conflict',
      `a draw is shared by at least two surviving powers (${alive.join(', ')}); to end the game for one power, record a concession to it`,
    );
  }
  // In the variant's order, however the game master listed them.
  const outcome: GameOutcome = { kind: body.outcome, powers: alive.filter((power) => named.has(power)) };
  await tx.drawVote.deleteMany({ where: { gameId } });
  await finishGame(tx, app.play, gameId, outcome, new Date());
  return { action: 'end-game', details: { phase: phase.index, phaseName: phase.name, outcome } };
};

/**
 * Re-opens phase `index`: later phases are discarded (kept in discarded_phases
 * with their submissions), the phase's adjudication is undone (its submissions
 * and loan actions stay, so processing it again re-adjudicates the same orders
 * unless the game master enters others), and the game is on again if it had ended.
 */
const rollback: Run<{ phase: number }> = async (app, tx, context, actionId, { phase: index }) => {
  const gameId = context.game.id;
  if (context.game.status !== 'active' && context.game.status !== 'finished') requireActive(context);
  // Once final, everyone has read its secrets (private press, anonymous names): playing on would be playing open-handed.
  if (context.game.status === 'finished' && !mayReopen(context.game, context.now)) {
    throw conflict('result_final', `the result has been final since ${context.game.finalAt?.toISOString()}: the game can no longer be re-opened`);
  }
  const phases = (await tx.phase.findMany({ where: { gameId, index: { gte: index } }, orderBy: { index: 'asc' } })).map((row) => phaseOf(row));
  const target = phases[0];
  if (!target || target.index !== index) throw invalid('body.phase', `there is no phase ${index} in this game`);
  // The open phase of a game that has ended (by votes or by the game master): the game goes on from it.
  const reopening = target.status === 'open' && context.game.status === 'finished';
  if (target.status === 'open' && !reopening) throw conflict('conflict', `phase ${index} (${target.name}) is open already: nothing to roll back`);
  const discarding = reopening ? [] : phases;

  for (const phase of discarding) {
    const submissions = await tx.orderSubmission.findMany({ where: { phaseId: phase.id }, orderBy: { seq: 'asc' } });
    const { stateBefore, loanActions, orders, results, events, disbanded, stateAfter } = phase;
    await tx.discardedPhase.create({
      data: {
        gameId,
        gmActionId: actionId,
        index: phase.index,
        name: phase.name,
        kind: phase.kind,
        // The same record as the phase's (db/tables/phases.ts), and its submissions as an export keeps them (views/submission.ts).
        ...discardedPhaseValues({
          stateBefore,
          loanActions,
          orders,
          results,
          events,
          disbanded,
          stateAfter,
          submissions: submissions.map((row) => submissionRecord(submissionOf(row))),
        }),
        engineVersion: phase.engineVersion,
        deadlineAt: phase.deadlineAt,
        processedAt: phase.processedAt,
      },
    });
  }
  await tx.phase.deleteMany({ where: { gameId, index: { gt: index } } });
  const now = new Date();
  const deadlineAt = new Date(now.getTime() + deadlineSeconds(context.game, target.kind) * 1000);
  // Processed again from scratch: unset the adjudication (SQL NULL).
  const unset = phaseValues({ orders: null, results: null, events: null, disbanded: null, stateAfter: null, attendance: null });
  const reopened = phaseOf(
    await tx.phase.update({ where: { id: target.id }, data: { status: 'open', processedAt: null, heldAt: null, ...unset, engineVersion: null, deadlineAt } }),
  );
  const position = positionOf(context.variant, reopened);
  const alive = new Set(survivors(context.variant, position));
  // Missed deadlines and civil disorder as they were when the phase was processed, for seats still held by the
  // same player (a seat handed over since keeps its newcomer's); eliminations as the position has them.
  const before = new Map((target.seatsBefore ?? []).map((seat) => [seat.id, seat]));
  for (const seat of context.game.players) {
    if (!seat.power) continue;
    const then = before.get(seat.id);
    const kept = then && then.userId === seat.userId ? then : seat;
    const status = !alive.has(seat.power) ? 'eliminated' : kept.status === 'eliminated' ? (seat.userId ? 'active' : 'civil_disorder') : kept.status;
    const { missedDeadlines } = kept;
    if (status !== seat.status || missedDeadlines !== seat.missedDeadlines)
      await tx.player.update({ where: { id: seat.id }, data: { status, missedDeadlines } });
  }
  await tx.drawVote.deleteMany({ where: { gameId } });
  // Orders saved stay, but a Ready given before the roll-back would process the re-opened phase as soon as the last
  // power ticks it, before the others could change their orders: every power says it again. (The discarded
  // phases' archive keeps the flags as they were.)
  await tx.orderSubmission.updateMany({ where: { phaseId: reopened.id, ready: true }, data: { ready: false } });
  await syncLoans(tx, gameId, index, position.loans, 'rolled back', 'cancelled');
  await tx.game.update({ where: { id: gameId }, data: { status: 'active', finishedAt: null, finalAt: null, ...gameValues({ outcome: null }) } });
  // The re-opened phase's deadline is set now: on resume it moves only by the time paused from now on.
  await restartPauseAt(tx, context, now);
  const ready = await latestSubmissions(tx, reopened.id);
  await app.bus.publish(tx, `game:${gameId}`, { type: 'phase.started', gameId, phase: phaseRef(reopened) });
  await publishDeadline(app, tx, context, reopened, deadlineAt, context.game.pausedAt !== null, context.game.status === 'finished');
  return {
    action: 'rollback',
    details: {
      phase: index,
      phaseName: target.name,
      discarded: discarding.map((phase) => phase.name),
      powersWithOrders: ready.size,
      gameHadEnded: context.game.status === 'finished',
    },
  };
};

/** Asks another user to take over as game master (they become it only by accepting: invitation.ts); replaces any invitation pending. */
const inviteGameMaster: Run<{ username: string }> = async (app, tx, context, _actionId, { username }) => {
  if (context.game.status === 'cancelled') requireActive(context);
  const invitee = await tx.user.findUnique({ where: { usernameKey: username.toLowerCase() }, select: { id: true, username: true } });
  if (!invitee) throw invalid('body.username', `there is no user named "${username}"`);
  if (invitee.id === context.game.gameMasterId) throw conflict('conflict', `${invitee.username} is the game master already`);
  await tx.game.update({ where: { id: context.game.id }, data: { invitedGameMasterId: invitee.id } });
  // Each one concerned hears of it on their own channel: the one asked, and the one whose invitation this replaces.
  const replaced = context.game.invitedGameMasterId;
  if (replaced && replaced !== invitee.id) await app.bus.publish(tx, `user:${replaced}`, { type: 'gm.invitation', gameId: context.game.id, pending: false });
  await app.bus.publish(tx, `user:${invitee.id}`, { type: 'gm.invitation', gameId: context.game.id, pending: true });
  return { action: 'invite-game-master', details: { users: { invited: invitee.username } } };
};

/** Makes an ended game's result final now: its secrets become public, and it can no longer be re-opened. */
const finalize: Run<Record<string, never>> = async (_app, tx, context) => {
  if (context.game.status !== 'finished') throw conflict('game_not_active', 'the game has not ended: only an ended game has a result to make final');
  if (!mayReopen(context.game, context.now)) throw conflict('result_final', 'the result is final already');
  await tx.game.update({ where: { id: context.game.id }, data: { finalAt: context.now } });
  return { action: 'finalize', details: { outcome: context.game.outcome } };
};

/** Every tool, by the name its log entries carry. Which of them a game master who plays needs consent for: CONSENT_TOOLS. */
export const TOOLS = {
  'process-now': processNow,
  'change-deadline': changeDeadline,
  pause,
  resume,
  'replace-player': replacePlayer,
  'civil-disorder': civilDisorder,
  'end-game': endGame,
  rollback,
  'invite-game-master': inviteGameMaster,
  finalize,
} satisfies Record<string, Run<never>>;
export type ToolName = keyof typeof TOOLS;
export type ToolRequest<T extends ToolName> = Parameters<(typeof TOOLS)[T]>[4];
