/**
 * The game master's audit log: every game-master action is written here, in
 * the transaction that does it, and announced live. Players (and everyone,
 * once the game ends) read it (views/gm-action.ts). User names go under
 * `details.users`, which is left out for viewers the game hides names from.
 */
import type { GmActionKind } from '../../shared/api/gm-actions.ts';
import type { Prisma, Transaction } from '../db/database.ts';
import { gmActionOf, gmActionValues, type GmActionRow } from '../db/tables/gm-log.ts';
import type { LiveBus } from '../bus/live-bus.ts';

export type { GmActionRow };
/** What an action did, as its log entry keeps it (a JSON object; user names under `users`). */
export type GmLogDetails = Prisma.InputJsonObject;

export async function logGmAction(
  tx: Transaction,
  bus: LiveBus,
  gameId: string,
  actorUserId: string | null,
  action: GmActionKind,
  details: GmLogDetails,
  id?: string,
): Promise<GmActionRow> {
  const row = gmActionOf(
    await tx.gameMasterAction.create({
      data: { id, gameId, actorUserId, action, ...gmActionValues({ details }) },
      include: { actor: { select: { id: true, username: true } } },
    }),
  );
  await bus.publish(tx, `game:${gameId}`, { type: 'gm.action', gameId, actionId: row.id, action });
  return row;
}
