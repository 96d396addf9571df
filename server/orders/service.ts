/**
 * A power's own submissions: every one it made in a phase, the latest first (the one that counts). Storing them is
 * the game-play core's (play/submissions.ts); others' orders are in the phase once it is processed.
 */
import type { FastifyInstance } from 'fastify';
import { powersToOrder } from '../../shared/index.ts';
import type { OrderSubmission } from '../../shared/api/play.ts';
import { notFound } from '../errors.ts';
import { requirePower, viewableGame, type Viewer } from '../play/context.ts';
import { phaseRef, positionOf, type SubmissionRow } from '../play/phases.ts';

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
    mustOrder: powersToOrder(context.variant, positionOf(context.variant, phase)).includes(power),
    current: history[0] ?? null,
    history,
  };
}
