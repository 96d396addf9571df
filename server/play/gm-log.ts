/**
 * The game master's audit log: every game-master action is written here, in
 * the transaction that does it, and announced live. Players (and everyone,
 * once the game ends) read it (views/gm-action.ts). User names go under
 * `details.users`, which is left out for viewers the game hides names from.
 */
import type { GmActionKind } from '../../shared/api/gm-actions.ts';
import type { Prisma, Transaction } from '../db/database.ts';
import type { LiveBus } from '../bus/live-bus.ts';

export type GmActionRow = Prisma.GameMasterActionGetPayload<{ include: { actor: { select: { id: true; username: true } } } }>;

export async function logGmAction(
  tx: Transaction,
  bus: LiveBus,
  gameId: string,
  actorUserId: string | null,
  action: GmActionKind,
  details: Record<string, unknown>,
  id?: string,
): Promise<GmActionRow> {
  const row = await tx.gameMasterAction.create({
    data: { id, gameId, actorUserId, action, details: details as Prisma.InputJsonValue },
    include: { actor: { select: { id: true, username: true } } },
  });
  await bus.publish(tx, `game:${gameId}`, { type: 'gm.action', gameId, actionId: row.id, action });
  return row;
}
