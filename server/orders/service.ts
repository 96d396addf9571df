/**
 * Orders: a power submits (or replaces) its orders for the open phase; the
 * engine's checkOrders judges each one. A submission is all or nothing: when
 * any order is refused nothing is stored and the 422 answer gives the verdict
 * on every order, so a player never finds a unit holding because of a typo
 * they were not told about. Every accepted submission is kept; the latest
 * counts. Readiness is the latest submission's flag.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { checkOrders, formatOrder, powersToOrder, type GameState, type Order } from '../../shared/index.ts';
import type { CheckedOrder, OrderSubmission, OrdersInputSchema, SubmitOrdersRequestSchema } from '../../shared/api/play.ts';
import type { Transaction } from '../db/database.ts';
import { conflict, forbidden, notFound, unprocessable } from '../errors.ts';
import { logGmAction } from '../gm/log.ts';
import {
  requireActive,
  requireGameMaster,
  requirePower,
  seatOf,
  viewableGame,
  withLockedGame,
  type GameContext,
  type Viewer,
} from '../play/context.ts';
import { latestSubmissions, openPhaseNamed, phaseRef, playerStatusOnWire, positionOf, type PhaseRow, type SubmissionRow } from '../play/phases.ts';
import { processIfAllReady } from '../play/process.ts';
import type { Auth } from '../types.ts';

type User = Auth['user'];
export type SubmitBody = z.output<typeof SubmitOrdersRequestSchema>;

/** Text: one order per line, blank lines ignored. Structured: as given. */
function ordersOf(input: z.output<typeof OrdersInputSchema>): { list: (Order | string)[]; text: string } {
  if (typeof input === 'string') {
    const list = input.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
    return { list, text: list.join('\n') };
  }
  return { list: input, text: input.map((order) => formatOrder(order)).join('\n') };
}

export function submissionView(phaseIndex: number, row: SubmissionRow): OrderSubmission {
  return {
    id: row.id,
    phaseIndex,
    power: row.power,
    text: row.text,
    orders: row.orders as OrderSubmission['orders'],
    ready: row.ready,
    byGameMaster: row.byGameMaster,
    submittedAt: row.createdAt.toISOString(),
  };
}

function mustOrder(context: GameContext, phase: PhaseRow, power: string): boolean {
  return powersToOrder(context.variant, positionOf(context.variant, phase)).includes(power);
}

/** After a change of readiness or seats: process at once if everyone is ready. */
async function afterReadinessChange(app: FastifyInstance, tx: Transaction, gameId: string): Promise<boolean> {
  return processIfAllReady(tx, app.play, gameId, new Date());
}

/**
 * The engine's verdict on a submission for `power` in `phase` (whose position
 * is `position`): what to store, or the HttpError to answer (409 nothing to
 * order, 422 refused orders with the verdict on each). Writes nothing.
 */
export function judgeSubmission(context: GameContext, phase: Pick<PhaseRow, 'name'>, position: GameState, power: string, body: SubmitBody) {
  if (!powersToOrder(context.variant, position).includes(power)) {
    throw conflict('nothing_to_order', `${power} has no orders to give in ${phase.name}`);
  }
  const { list, text } = ordersOf(body.orders);
  const checked = checkOrders(context.variant, position, power, list);
  if (!checked.ok) throw unprocessable('orders_rejected', checked.error, { orders: [] });
  const verdicts: CheckedOrder[] = checked.value.map((verdict) =>
    verdict.accepted
      ? { accepted: true, input: verdict.input, text: verdict.text, order: verdict.order, ...(verdict.unit ? { unit: verdict.unit } : {}) }
      : verdict,
  );
  const refused = verdicts.filter((verdict) => !verdict.accepted);
  if (refused.length > 0) {
    const reasons = verdicts
      // Each reason is a sentence; in this list they are parted by semicolons, so without their full stops.
      .map((verdict, i) => (verdict.accepted ? null : `order ${i + 1} "${verdict.input}": ${verdict.reason.replace(/\.$/, '')}`))
      .filter((line) => line !== null);
    throw unprocessable('orders_rejected', `${refused.length} of ${verdicts.length} orders refused, nothing stored: ${reasons.join('; ')}`, {
      orders: verdicts,
    });
  }
  return { text, verdicts, orders: verdicts.map(({ accepted: _accepted, ...order }) => order) };
}

async function storeSubmission(
  app: FastifyInstance,
  tx: Transaction,
  context: GameContext,
  phase: PhaseRow,
  power: string,
  body: SubmitBody,
  actor: User,
  byGameMaster: boolean,
) {
  const { text, verdicts, orders } = judgeSubmission(context, phase, positionOf(context.variant, phase), power, body);
  const row = await tx.orderSubmission.create({
    data: {
      gameId: context.game.id,
      phaseId: phase.id,
      power,
      submittedById: actor.id,
      byGameMaster,
      text,
      orders,
      ready: body.ready,
    },
  });
  await app.bus.publish(tx, `game:${context.game.id}`, {
    type: 'orders.status',
    gameId: context.game.id,
    phaseIndex: phase.index,
    power,
    submitted: true,
    ready: body.ready,
  });
  return { row, verdicts };
}

/** The player back at the board: missed deadlines are counted in a row, and civil disorder ends. */
export async function playerIsBack(app: FastifyInstance, tx: Transaction, context: GameContext, power: string) {
  const seat = context.game.players.find((player) => player.power === power);
  if (!seat || (seat.missedDeadlines === 0 && seat.status !== 'civil_disorder')) return;
  const status = seat.status === 'civil_disorder' ? 'active' : seat.status;
  await tx.player.update({ where: { id: seat.id }, data: { missedDeadlines: 0, status } });
  await app.bus.publish(tx, `game:${context.game.id}`, {
    type: 'player.status',
    gameId: context.game.id,
    power,
    status: playerStatusOnWire(status),
    missedDeadlines: 0,
    replaced: false,
  });
}

export async function submitOrders(app: FastifyInstance, user: User, gameId: string, phaseIndex: number, body: SubmitBody) {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    requireActive(context);
    const { power } = requirePower(context);
    const phase = await openPhaseNamed(tx, gameId, phaseIndex);
    const { row, verdicts } = await storeSubmission(app, tx, context, phase, power, body, user, false);
    await playerIsBack(app, tx, context, power);
    const phaseProcessed = body.ready && (await afterReadinessChange(app, tx, gameId));
    return { submission: submissionView(phase.index, row), checked: verdicts, phaseProcessed };
  });
}

/** The game master enters orders for a power (it may be in civil disorder); logged. */
export async function enterOrdersAsMaster(app: FastifyInstance, user: User, gameId: string, phaseIndex: number, power: string, body: SubmitBody) {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    requireGameMaster(context);
    // Orders typed for a rival would be orders no rival gave; a player's own go through the player's route.
    if (context.playsAsGameMaster) throw forbidden('game_master_plays', 'a game master who also plays a power enters no orders for powers (submit your own as a player)');
    requireActive(context);
    seatOf(context, power);
    const phase = await openPhaseNamed(tx, gameId, phaseIndex);
    // Whether the log may say these orders replace others (by the player or the game master).
    const replaced = (await latestSubmissions(tx, phase.id)).has(power);
    const { row, verdicts } = await storeSubmission(app, tx, context, phase, power, body, user, true);
    await logGmAction(tx, app.bus, gameId, user.id, 'enter-orders', { power, phase: phase.index, phaseName: phase.name, orders: row.text.split('\n').filter(Boolean).length, ready: body.ready, replaced });
    const phaseProcessed = body.ready && (await afterReadinessChange(app, tx, gameId));
    return { submission: submissionView(phase.index, row), checked: verdicts, phaseProcessed };
  });
}

export async function setReady(app: FastifyInstance, user: User, gameId: string, phaseIndex: number, ready: boolean) {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    requireActive(context);
    const { power } = requirePower(context);
    const phase = await openPhaseNamed(tx, gameId, phaseIndex);
    if (!mustOrder(context, phase, power)) throw conflict('nothing_to_order', `${power} has no orders to give in ${phase.name}`);
    const latest = (await latestSubmissions(tx, phase.id)).get(power);
    if (latest?.ready === ready) return { power, ready, phaseProcessed: false };
    if (latest) {
      await tx.orderSubmission.update({ where: { id: latest.id }, data: { ready } });
    } else if (ready) {
      // Ready without orders: an explicit empty submission (every unit holds), so it is not a missed deadline.
      await tx.orderSubmission.create({ data: { gameId, phaseId: phase.id, power, submittedById: user.id, text: '', orders: [], ready: true } });
    } else {
      return { power, ready, phaseProcessed: false };
    }
    await app.bus.publish(tx, `game:${gameId}`, { type: 'orders.status', gameId, phaseIndex: phase.index, power, submitted: true, ready });
    await playerIsBack(app, tx, context, power);
    const phaseProcessed = ready && (await afterReadinessChange(app, tx, gameId));
    return { power, ready, phaseProcessed };
  });
}

/** Your own submissions in a phase (any phase; others' orders are in the phase once processed). */
export async function myOrders(app: FastifyInstance, viewer: Viewer, gameId: string, phaseIndex: number) {
  const context = await viewableGame(app.prisma, gameId, viewer);
  const { power } = requirePower(context);
  const phase = await app.prisma.phase.findUnique({ where: { gameId_index: { gameId, index: phaseIndex } } });
  if (!phase) throw notFound(`no phase ${phaseIndex} in this game`);
  const rows = await app.prisma.orderSubmission.findMany({ where: { phaseId: phase.id, power }, orderBy: { seq: 'desc' } });
  const history = rows.map((row) => submissionView(phase.index, row));
  return {
    phase: phaseRef(phase),
    power,
    mustOrder: mustOrder(context, phase, power),
    current: history[0] ?? null,
    history,
  };
}
