/**
 * The game master's audit log: every game-master action is written here, in
 * the transaction that does it, and announced live. Players (and everyone,
 * once the game ends) read it. User names go under `details.users`, which is
 * left out for viewers the game hides names from.
 */
import type { GmAction } from '../../shared/api/gm.ts';
import type { GmActionKind } from '../../shared/api/gm-actions.ts';
import { EXPORTED_NAMES_KEY } from '../../shared/api/imported-log.ts';
import type { Prisma, Transaction } from '../db/database.ts';
import type { LiveBus } from '../live/bus.ts';
import type { GameContext } from '../play/context.ts';

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

export function gmActionView(context: GameContext, row: GmActionRow): GmAction {
  const details = { ...(row.details as Record<string, unknown>) };
  if (!context.revealNames) {
    delete details.users;
    // An imported game's names from the export (and where earlier imports kept the exported game's actor).
    delete details[EXPORTED_NAMES_KEY];
    delete details.importedActor;
  }
  return { id: row.id, action: row.action, actor: row.actor, details, at: row.createdAt.toISOString() };
}
