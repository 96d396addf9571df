/**
 * Processing a phase: the one place where a phase is adjudicated (or, in a
 * campaign game, held for its sea battles and adjudicated once they are decided). It runs
 * inside the caller's transaction, which must hold the game's lock
 * (context.ts): the scheduler at a deadline, a player's ready flag (early
 * processing), or the game master's "process now". Everything — results,
 * state after, missed deadlines, civil disorder, eliminations, loans, the
 * next phase or the end of the game, and the live events — commits together
 * or not at all, so a crash leaves the phase open and due, to be processed
 * again from scratch.
 */
import {
  adjudicate,
  contestedSeas,
  ENGINE_VERSION,
  phaseName,
  powersToOrder,
  survivors,
  type ContestedSea,
  type DecidedProvince,
  type GameState,
} from '../../shared/index.ts';
import type { GameOutcome, PhaseRef } from '../../shared/api/games.ts';
import type { LiveChannel } from '../../shared/api/live.ts';
import type { Transaction } from '../db/database.ts';
import { phaseOf, phaseValues, type Attendance, type PhaseRow, type StoredOrder } from '../db/tables/phases.ts';
import type { SubmissionRow } from '../db/tables/submissions.ts';
import { seaBattleOf, seaBattleValues, type SeaBattleRow } from '../db/tables/sea-battles.ts';
import { gameOf, gameValues } from '../db/tables/games.ts';
import { deadlineSeconds } from './first-phase.ts';
import { newPhaseDeadline } from './deadlines.ts';
import type { LiveBus, Publication } from '../bus/live-bus.ts';
import { syncLoans } from './loan-sync.ts';
import { gameContextInclude, makeContext, type GameContext } from './context.ts';
import { latestSubmissions, ordersToAdjudicate, positionOf } from './phases.ts';
import { phaseRef, playerStatusEvent } from '../views/phase.ts';
import { loanChangedEvent } from '../views/loan.ts';
import { seaChangedEvent } from '../views/sea-battle.ts';
import { notifyGameEnded, notifyPhaseHeld, notifyPhaseProcessed, notifySeatOpened } from '../notify/game-events.ts';
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

/** What processing did: adjudicated the phase (and opened the next, or ended the game), or held it for its contested seas. */
export type Processing = { processed: PhaseRef; next: PhaseRef | null } | { held: PhaseRef; seas: string[] };

/**
 * Adjudicates the phase and opens the next one (or ends the game). In a campaign game, a movement phase where fleets
 * of two or more powers met at sea is held instead: its orders final, its contested seas to be fought, decided or
 * waived (sea-battles.ts), after which `settleHeldPhase` adjudicates it with their outcomes. The game row must be
 * locked by the caller. Returns null, doing nothing, when the phase is no longer open (someone else processed it first).
 */
export async function processPhase(tx: Transaction, env: PlayEnv, gameId: string, phaseId: string, now: Date): Promise<Processing | null> {
  const phase = phaseOf(await tx.phase.findUnique({ where: { id: phaseId } }));
  if (!phase || phase.gameId !== gameId || phase.status !== 'open') return null;
  const context = await lockedContext(tx, gameId);
  const state = positionOf(context.variant, phase);
  const latest = await latestSubmissions(tx, phase.id);
  const orders = ordersToAdjudicate(latest);
  if (context.game.campaign && state.phase.type === 'movement') {
    const seas = contestedSeasOf(context, state, orders, []);
    if (seas.length > 0) return holdPhase(tx, env, context, phase, orders, seas, now);
  }
  return recordPhase(tx, env, context, phase, { state, latest, orders, decided: [], closedAt: now }, now);
}

/**
 * A held phase whose every contested sea is decided or waived is adjudicated with the decisions, and processed as any
 * other phase (`recordPhase`): unless the decisions made fleets meet in a sea nobody fought for yet (a fleet that lost
 * its battle stayed where another came), which is added to the phase's seas, the phase staying held. Returns null
 * when the phase is not held; `held` while seas wait. The game row must be locked by the caller.
 */
export async function settleHeldPhase(tx: Transaction, env: PlayEnv, gameId: string, phaseId: string, now: Date): Promise<Processing | null> {
  const phase = phaseOf(await tx.phase.findUnique({ where: { id: phaseId } }));
  if (!phase || phase.gameId !== gameId || phase.status !== 'held') return null;
  const rows = (await tx.seaBattle.findMany({ where: { phaseId }, orderBy: [{ decidedAt: 'asc' }, { createdAt: 'asc' }] })).map((row) => seaBattleOf(row));
  const waiting = rows.filter((row) => row.status === 'undecided' || row.status === 'fighting');
  if (waiting.length > 0) return { held: phaseRef(phase), seas: waiting.map((row) => row.sea) };
  const context = await lockedContext(tx, gameId);
  const state = positionOf(context.variant, phase);
  // The orders were made final when the phase was held.
  const orders = phase.orders ?? [];
  const decided = acceptedDecisions(context, state, orders, rows);
  const met = contestedSeasOf(context, state, orders, decided);
  const fresh = met.filter((sea) => !rows.some((row) => row.sea === sea.province));
  if (fresh.length > 0) {
    const added = await addSeaBattles(tx, context, phase, fresh, now);
    await env.bus.publishAll(
      tx,
      added.map((row) => ({ channel: `game:${gameId}` as LiveChannel, event: seaChangedEvent(gameId, phase.index, row, context.game) })),
    );
    return { held: phaseRef(phase), seas: fresh.map((sea) => sea.province) };
  }
  const latest = await latestSubmissions(tx, phase.id);
  // Deadlines were kept or missed when the orders became final, not when the battles ended.
  return recordPhase(tx, env, context, phase, { state, latest, orders, decided, closedAt: phase.heldAt ?? now }, now);
}

/** The game with its seats, fresh under the lock: seats may have changed earlier in this transaction. */
async function lockedContext(tx: Transaction, gameId: string): Promise<GameContext> {
  return makeContext(gameOf(await tx.game.findUniqueOrThrow({ where: { id: gameId }, include: gameContextInclude })), null);
}

/** The engine's contested seas of the phase with these decisions; a refusal here is a bug or corrupt data. */
function contestedSeasOf(context: GameContext, state: GameState, orders: readonly StoredOrder[], decided: readonly DecidedProvince[]): ContestedSea[] {
  const seas = contestedSeas(context.variant, state, orders, { decided });
  if (!seas.ok) throw new Error(`the engine cannot list the contested seas of game ${context.game.id}: ${seas.error.join('; ')}`);
  return seas.value;
}

/**
 * The decided seas the engine accepts, taken in the order they were decided: a sea's battle can lose its object when
 * a decision taken after it lets a fleet leave before its attacker came (then nobody met there, and that battle's
 * outcome is left out). Waived seas follow the ordinary rules. `rows`: the phase's seas, in the order they were decided.
 */
export function acceptedDecisions(
  context: Pick<GameContext, 'variant'>,
  state: GameState,
  orders: readonly StoredOrder[],
  rows: readonly SeaBattleRow[],
): DecidedProvince[] {
  const accepted: DecidedProvince[] = [];
  for (const row of rows) {
    if (row.status !== 'decided' || !row.outcome) continue;
    const tried = [...accepted, { province: row.sea, outcome: row.outcome }];
    if (!contestedSeas(context.variant, state, orders, { decided: tried }).ok) continue;
    // Its lost fleets must still be of its battle with the decisions taken before it; if not, the sea is decided
    // without them (as the phase now reads, they fought elsewhere or not at all).
    const { destroyed, ...outcome } = row.outcome;
    if (destroyed?.length && !adjudicate(context.variant, state, orders, { decided: tried }).ok) accepted.push({ province: row.sea, outcome });
    else accepted.push(tried[tried.length - 1]);
  }
  return accepted;
}

/** One sea_battles row a sea, each with the game's time for its battles. */
async function addSeaBattles(tx: Transaction, context: GameContext, phase: { id: string }, seas: readonly ContestedSea[], now: Date) {
  const hours = context.game.campaign?.battleHours ?? 0;
  const deadlineAt = new Date(now.getTime() + hours * 3_600_000);
  const rows: SeaBattleRow[] = [];
  for (const sea of seas) {
    const contested = { province: sea.province, name: sea.name, powers: sea.powers, units: sea.units, supports: sea.supports };
    rows.push(
      seaBattleOf(
        await tx.seaBattle.create({ data: { gameId: context.game.id, phaseId: phase.id, sea: sea.province, ...seaBattleValues({ contested }), deadlineAt } }),
      ),
    );
  }
  return rows;
}

/** Holds a campaign phase for its contested seas: the orders final and stored, a row for each sea, `phase.held`. */
async function holdPhase(
  tx: Transaction,
  env: PlayEnv,
  context: GameContext,
  phase: PhaseRow,
  orders: StoredOrder[],
  seas: readonly ContestedSea[],
  now: Date,
): Promise<Processing> {
  const gameId = context.game.id;
  await tx.phase.update({ where: { id: phase.id }, data: { status: 'held', heldAt: now, ...phaseValues({ orders }) } });
  // A phase rolled back and processed again fights its seas again, with the orders it has now.
  await tx.seaBattle.deleteMany({ where: { phaseId: phase.id } });
  await addSeaBattles(tx, context, phase, seas, now);
  const held = phaseRef(phase);
  await env.bus.publish(tx, `game:${gameId}`, { type: 'phase.held', gameId, phase: held, seas: seas.map((sea) => sea.province) });
  if (env.notify) await notifyPhaseHeld(tx, env.notify, gameId, phase.id);
  return { held, seas: seas.map((sea) => sea.province) };
}

type Adjudication = {
  state: GameState;
  latest: Map<string, SubmissionRow>;
  orders: StoredOrder[];
  decided: DecidedProvince[];
  /** When the orders became final: a deadline passed by then was missed. */
  closedAt: Date;
};

/** Adjudicates (with the decided seas, if any), records the results and opens the next phase or ends the game. */
async function recordPhase(tx: Transaction, env: PlayEnv, context: GameContext, phase: PhaseRow, what: Adjudication, now: Date): Promise<Processing> {
  const { game, variant } = context;
  const { state, latest, orders, decided, closedAt } = what;
  const channel = `game:${game.id}` as LiveChannel;
  const outcome = adjudicate(variant, state, orders, decided.length > 0 ? { decided } : undefined);
  // The stored position and orders were all accepted by the engine: a refusal here is a bug or corrupt data.
  if (!outcome.ok) throw new Error(`the engine cannot adjudicate phase ${phase.index} of game ${game.id}: ${outcome.error.join('; ')}`);
  const { results, events, disbanded, next } = outcome.value;
  // Processed before its deadline (everyone ready, or the game master's "process now"): nobody missed it.
  const deadlinePassed = phase.deadlineAt !== null && phase.deadlineAt.getTime() <= closedAt.getTime();
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
