/**
 * Press as a viewer may read it: which messages (access/policy.ts `pressReach`,
 * as a query), and each message with its sender named only where the game
 * shows names.
 */
import { GAME_MASTER_RECIPIENT, type PressMessage } from '../../shared/api/press.ts';
import type { Prisma } from '../db/database.ts';
import { shownUser, type GameContext } from '../play/context.ts';
import { viewed } from './viewed.ts';

export const pressInclude = {
  senderUser: { select: { id: true, username: true } },
  phase: { select: { name: true } },
} satisfies Prisma.PressMessageInclude;
export type MessageRow = Prisma.PressMessageGetPayload<{ include: typeof pressInclude }>;

/** A message as its reader sees it: the sender's name only where the game shows names. */
export function pressMessageView(
  context: GameContext,
  row: Pick<MessageRow, 'id' | 'senderPower' | 'senderUser' | 'public' | 'recipients' | 'body' | 'createdAt'> & { phase?: { name: string } | null },
): PressMessage {
  const gameMaster = row.senderPower === null;
  return viewed({
    id: row.id,
    phase: row.phase?.name ?? null,
    from: {
      power: row.senderPower,
      gameMaster,
      // The game master is named on the game itself; players only where names are shown.
      user: gameMaster ? (row.senderUser ? { id: row.senderUser.id, username: row.senderUser.username } : null) : shownUser(context, row.senderUser),
    },
    to: row.public ? 'all' : row.recipients,
    body: row.body,
    sentAt: row.createdAt.toISOString(),
  });
}

/** A page of the messages this viewer may read, newest first. */
export function pressListView(context: GameContext, rows: MessageRow[], nextCursor: string | null) {
  return viewed({ messages: rows.map((row) => pressMessageView(context, row)), nextCursor });
}

/** Which messages this viewer may read (access/policy.ts `pressReach`), as a query. */
export function readablePress(context: GameContext): Prisma.PressMessageWhereInput {
  const reach = context.press;
  if (reach.all) return {};
  const mine: Prisma.PressMessageWhereInput[] = [{ public: true }];
  if (reach.power) mine.push({ senderPower: reach.power }, { recipients: { has: reach.power } });
  if (reach.gameMaster) mine.push({ senderPower: null }, { recipients: { has: GAME_MASTER_RECIPIENT } });
  return { OR: mine };
}
