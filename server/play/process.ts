/**
 * Processing a phase: the one place where a phase is adjudicated. It runs
 * inside the caller's transaction, which must hold the game's lock
 * (context.ts): the scheduler at a deadline, a player's ready flag (early
 * processing), or the game master's "process now". Everything — results,
 * state after, missed deadlines, civil disorder, eliminations, loans, the
 * next phase or the end of the game, and the live events — commits together
 * or not at all, so a crash leaves the phase open and due, to be processed
 * again from scratch.
 */
import { adjudicate, ENGINE_VERSION, phaseName, powersToOrder, survivors, type GameState } from '../../shared/index.ts';
import type { GameOutcome, PhaseRef } from '../../shared/api/games.ts';
import type { LiveChannel } from '../../shared/api/live.ts';
import type { Transaction } from '../db/database.ts';
import { phaseOf, phaseValues, type Attendance } from '../db/tables/phases.ts';
import { gameOf, gameValues } from '../db/tables/games.ts';
import { deadlineSeconds } from './first-phase.ts';
import { newPhaseDeadline } from './deadlines.ts';
import type { LiveBus, Publication } from '../bus/live-bus.ts';
import { syncLoans } from './loan-sync.ts';
import { gameContextInclude, makeContext, type GameContext } from './context.ts';
import { latestSubmissions, ordersToAdjudicate, positionOf } from './phases.ts';
import { phaseRef, playerStatusEvent } from '../views/phase.ts';
import { loanChangedEvent } from '../views/loan.ts';
import { notifyGameEnded, notifyPhaseProcessed, notifySeatOpened } from '../notify/game-events.ts';
import type { NotifyEnv } from '../notify/unsubscribe.ts';

/**
 * What game play needs besides the transaction: where live events go, and how long an ended game's result
 * stays open to a roll-back before it is final (access/policy.ts). `app.play`, made by the play plugin.
 */
export type PlayEnv = {
  bus: LiveBus;
  finalAfterMs: number;
  /** Game mail and push (notify/game-events.ts): set by notify/events-plugin.ts once the app has its settings. */
  notify?: NotifyEnv;
};

/**
 * Adjudicates the phase and opens the next one (or ends the game). The game
 * row must be locked by the caller. Returns null, doing nothing, when the
 * phase is no longer open (someone else processed it first).
 */
export async function processPhase(
  tx: Transaction,
  env: PlayEnv,
  gameId: string,
  phaseId: string,
  now: Date,
): Promise<{ processed: PhaseRef; next: PhaseRef | null } | null> {
  const phase = phaseOf(await tx.phase.findUnique({ where: { id: phaseId } }));
  if (!phase || phase.gameId !== gameId || phase.status !== 'open') return null;
  // Fresh, under the lock: seats may have changed earlier in this transaction.
  const context = makeContext(gameOf(await tx.game.findUniqueOrThrow({ where: { id: gameId }, include: gameContextInclude })), null);
  const { game, variant } = context;
  const channel = `game:${game.id}` as LiveChannel;
  const state = positionOf(variant, phase);
  const latest = await latestSubmissions(tx, phase.id);
  const orders = ordersToAdjudicate(latest);
  const outcome = adjudicate(variant, state, orders);
  // The stored position and orders were all accepted by the engine: a refusal here is a bug or corrupt data.
  if (!outcome.ok) throw new Error(`the engine cannot adjudicate phase ${phase.index} of game ${game.id}: ${outcome.error.join('; ')}`);
  const { results, events, disbanded, next } = outcome.value;
  // Processed before its deadline (everyone ready, or the game master's "process now"): nobody missed it.
  const deadlinePassed = phase.deadlineAt !== null && phase.deadlineAt.getTime() <= now.getTime();
  const mustOrder = new Set(powersToOrder(variant, state));
  const ordered = await whoOrdered(tx, phase.id, latest);

  await tx.phase.update({
    where: { id: phase.id },
    data: {
      status: 'processed',
      processedAt: now,
      ...phaseValues({
        orders,
        results,
        events,
        disbanded,
        stateAfter: next,
        seatsBefore: game.players.map(({ id, userId, missedDeadlines, status }) => ({ id, userId, missedDeadlines, status })),
        attendance: attendanceOf(mustOrder, ordered, deadlinePassed),
      }),
      engineVersion: ENGINE_VERSION,
    },
  });

  // The live events go out together, in one statement at the end.
  const live: Publication[] = [];
  const offered = await updateSeats(tx, live, context, mustOrder, next, ordered, deadlinePassed);
  // The game's members hear by mail and push of each seat now looking for a new player.
  if (env.notify) for (const power of offered) await notifySeatOpened(tx, env.notify, game.id, power);

  for (const change of await syncLoans(tx, game.id, phase.index + 1, next.loans, 'ended at the adjustment (capture or rebellion)')) {
    live.push({ channel, event: loanChangedEvent(game.id, change, null) });
  }

  const processed = phaseRef(phase);
  if (next.winners) {
    live.push({ channel, event: { type: 'phase.processed', gameId: game.id, phase: processed, next: null } });
    await env.bus.publishAll(tx, live);
    await finishGame(tx, env, game.id, { kind: 'victory', powers: next.winners }, now);
    return { processed, next: null };
  }

  const nextPhase = await tx.phase.create({
    data: {
      gameId: game.id,
      index: phase.index + 1,
      name: phaseName(variant, next.phase),
      kind: next.phase.type,
      status: 'open',
      ...phaseValues({ stateBefore: next }),
      deadlineAt: await newPhaseDeadline(tx, game.id, deadlineSeconds(game, next.phase.type), now),
    },
  });
  const nextRef = phaseRef(nextPhase);
  live.push({ channel, event: { type: 'phase.processed', gameId: game.id, phase: processed, next: nextRef } });
  live.push({ channel, event: { type: 'phase.started', gameId: game.id, phase: nextRef } });
  await env.bus.publishAll(tx, live);
  if (env.notify) await notifyPhaseProcessed(tx, env.notify, game.id, phase.id, nextPhase.id);
  return { processed, next: nextRef };
}

/**
 * Deadlines kept in a phase (phases.attendance), counted as missed deadlines are (`updateSeats`): `due`, the
 * powers that had to order, but those the game master alone ordered for (a player may send the master their
 * orders); `missed`, those of them whose players sent none before the deadline passed.
 */
function attendanceOf(mustOrder: ReadonlySet<string>, ordered: WhoOrdered, deadlinePassed: boolean): Attendance {
  const due = [...mustOrder].filter((power) => !ordered.master.has(power)).sort();
  return { due, missed: deadlinePassed ? due.filter((power) => !ordered.players.has(power)) : [] };
}

interface WhoOrdered {
  /** Powers whose player submitted in the phase (whoever's submission counts in the end). */
  players: Set<string>;
  /** Powers ordered only by the game master. */
  master: Set<string>;
}

async function whoOrdered(tx: Transaction, phaseId: string, latest: Map<string, { power: string; byGameMaster: boolean }>): Promise<WhoOrdered> {
  const players = new Set<string>();
  const master = new Set<string>();
  for (const [power, row] of latest) (row.byGameMaster ? master : players).add(power);
  if (master.size > 0) {
    // The game master's orders may have replaced the player's own: the player was still at the board.
    const own = await tx.orderSubmission.findMany({
      where: { phaseId, power: { in: [...master] }, byGameMaster: false },
      select: { power: true },
      distinct: ['power'],
    });
    for (const { power } of own) {
      master.delete(power);
      players.add(power);
    }
  }
  return { players, master };
}

/**
 * Missed deadlines, civil disorder and elimination after a phase. A power that had to order and did not
 * has missed the deadline only if the deadline had passed: a phase processed early misses nobody. Orders
 * the game master entered for an absent player leave the count as it was: the power was not left
 * unordered, but its player did not come back either (civil disorder ends only when the player orders).
 * Returns the powers whose seats it offered to new players.
 */
async function updateSeats(
  tx: Transaction,
  events: Publication[],
  context: GameContext,
  mustOrder: ReadonlySet<string>,
  after: GameState,
  ordered: WhoOrdered,
  deadlinePassed: boolean,
): Promise<string[]> {
  const { game, variant } = context;
  const alive = new Set(survivors(variant, after));
  const offeredPowers: string[] = [];
  for (const seat of game.players) {
    if (!seat.power) continue;
    let { missedDeadlines, status } = seat;
    if (mustOrder.has(seat.power)) {
      if (ordered.players.has(seat.power)) missedDeadlines = 0;
      else if (deadlinePassed && !ordered.master.has(seat.power)) {
        missedDeadlines += 1;
        if (status === 'active' && missedDeadlines >= game.maxMissedDeadlines) status = 'civil_disorder';
      }
    }
    if (!alive.has(seat.power)) status = 'eliminated';
    if (missedDeadlines === seat.missedDeadlines && status === seat.status) continue;
    // A seat falling into civil disorder is offered to new players in the lobby (server/seats/), unless it is already.
    const offered = status === 'civil_disorder' && seat.status !== 'civil_disorder' && !seat.replacementWantedAt;
    await tx.player.update({ where: { id: seat.id }, data: { missedDeadlines, status, ...(offered ? { replacementWantedAt: new Date() } : {}) } });
    events.push({ channel: `game:${game.id}`, event: playerStatusEvent(game.id, { power: seat.power, userId: seat.userId }, status, missedDeadlines) });
    if (offered) {
      const event = { type: 'seat.offer', gameId: game.id, power: seat.power, offered: true } as const;
      events.push({ channel: `game:${game.id}`, event }, ...(game.private ? [] : [{ channel: 'lobby' as const, event }]));
      offeredPowers.push(seat.power);
    }
  }
  return offeredPowers;
}

/**
 * Ends the game: its open phase (if any) stops waiting. Its result is final, and its secrets public,
 * `finalAfterMs` later (until then the game master may re-open it). A public game's end is told to the
 * lobby too, whose lists move it to the finished ones.
 */
export async function finishGame(tx: Transaction, env: PlayEnv, gameId: string, outcome: GameOutcome, now: Date): Promise<void> {
  const finalAt = new Date(now.getTime() + env.finalAfterMs);
  const game = await tx.game.update({
    where: { id: gameId },
    data: { status: 'finished', finishedAt: now, finalAt, ...gameValues({ outcome }), pausedAt: null },
    select: { private: true },
  });
  await tx.phase.updateMany({ where: { gameId, status: 'open' }, data: { deadlineAt: null } });
  const event = { type: 'game.finished', gameId, outcome } as const;
  await env.bus.publishAll(tx, [{ channel: `game:${gameId}`, event }, ...(game.private ? [] : [{ channel: 'lobby' as const, event }])]);
  if (env.notify) await notifyGameEnded(tx, env.notify, gameId, outcome, now);
}

/**
 * Early processing: when every power that must order and has an active player
 * is ready, the phase is processed now. Powers in civil disorder (or without a
 * player) are not waited for — but a phase where only they must order waits
 * for its deadline, so a game nobody plays any more does not spin through years.
 */
export async function processIfAllReady(tx: Transaction, env: PlayEnv, gameId: string, now: Date): Promise<boolean> {
  const game = gameOf(await tx.game.findUniqueOrThrow({ where: { id: gameId }, include: gameContextInclude }));
  if (game.status !== 'active' || game.pausedAt !== null) return false;
  const phase = phaseOf(await tx.phase.findFirst({ where: { gameId, status: 'open' }, select: { id: true, stateBefore: true, loanActions: true } }));
  if (!phase) return false;
  const context = makeContext(game, null);
  const mustOrder = new Set(powersToOrder(context.variant, positionOf(context.variant, phase)));
  const waitedFor = game.players.filter((seat) => seat.power && mustOrder.has(seat.power) && seat.status === 'active' && seat.userId !== null);
  if (waitedFor.length === 0) return false;
  const latest = await latestSubmissions(tx, phase.id);
  if (!waitedFor.every((seat) => latest.get(seat.power!)?.ready)) return false;
  return (await processPhase(tx, env, gameId, phase.id, now)) !== null;
}
