/**
 * A power's own submissions: every one it made in a phase, the latest first (the one that counts). Storing them is
 * the game-play core's (play/submissions.ts); others' orders are in the phase once it is processed.
 */
import type { FastifyInstance } from 'fastify';
import { powersToOrder } from '../../shared/index.ts';
import { notFound } from '../errors.ts';
import { requireActingPower, viewableGame, type Viewer } from '../play/context.ts';
import { positionOf } from '../play/phases.ts';
import { phaseOf } from '../db/tables/phases.ts';
import { submissionOf } from '../db/tables/submissions.ts';
import { phaseRef } from '../views/phase.ts';
import { myOrdersView } from '../views/submission.ts';

/** Your own submissions in a phase (any phase; others' orders are in the phase once processed). */
export async function myOrders(app: FastifyInstance, viewer: Viewer, gameId: string, phaseIndex: number) {
  const context = await viewableGame(app.prisma, gameId, viewer);
  const { power } = requireActingPower(context);
  const phase = phaseOf(await app.prisma.phase.findUnique({ where: { gameId_index: { gameId, index: phaseIndex } } }));
  if (!phase) throw notFound(`no phase ${phaseIndex} in this game`);
  const rows = (await app.prisma.orderSubmission.findMany({ where: { phaseId: phase.id, power }, orderBy: { seq: 'desc' } })).map((row) => submissionOf(row));
  return myOrdersView(phaseRef(phase), power, powersToOrder(context.variant, positionOf(context.variant, phase)).includes(power), rows);
}
