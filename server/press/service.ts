/**
 * Press. A message is public (to all) or private (to the powers named, and the
 * game master when `to` holds GAME_MASTER_RECIPIENT, stored as such among the
 * recipients); who may read it: everyone who may see the game for public ones,
 * the sender's and the recipients' players for private ones (the game master —
 * and administrators, who act as game master — for its own and those addressed
 * to it), and everyone once the game's result is final (access/policy.ts). Live
 * delivery: public messages on the game's channel, private ones on the user
 * channel of each of their readers (administrators read the rest over REST).
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  GAME_MASTER_RECIPIENT,
  PRESS_GAME_MASTER_MEMBER,
  PRESS_PUBLIC_CONVERSATION,
  type MarkPressReadRequest,
  type SendPressRequestSchema,
} from '../../shared/api/press.ts';
import type { Db, Prisma } from '../db/database.ts';
import { forbidden, invalid } from '../errors.ts';
import { decodeCursor, olderThan, pageOf } from '../keyset.ts';
import { requireActive, requireGameMaster, requirePower, viewableGame, withLockedGame, type GameContext, type Viewer } from '../play/context.ts';
import { sittingFor } from '../access/policy.ts';
import type { Auth } from '../auth/caller.ts';
import { pressInclude as include, pressListView, pressMessageView, readablePress } from '../views/press.ts';
import { viewed } from '../views/viewed.ts';
import { notifyPress } from '../notify/game-events.ts';

export async function listPress(db: Db, viewer: Viewer, gameId: string, query: { limit: number; cursor?: string }) {
  const context = await viewableGame(db, gameId, viewer);
  const where: Prisma.PressMessageWhereInput[] = [{ gameId }, readablePress(context)];
  if (query.cursor) where.push(olderThan('createdAt', decodeCursor(query.cursor)));
  const rows = await db.pressMessage.findMany({ where: { AND: where }, include, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: query.limit + 1 });
  const { page, nextCursor } = pageOf(rows, query.limit, (row) => row.createdAt);
  return pressListView(context, page, nextCursor);
}

export async function sendPress(app: FastifyInstance, user: Auth['user'], gameId: string, body: z.output<typeof SendPressRequestSchema>) {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    requireActive(context);
    const powers = context.variant.powers;
    const toGameMaster = body.to !== 'all' && body.to.includes(GAME_MASTER_RECIPIENT);
    // A private line to the game master alone is no diplomacy: allowed whatever the press kind, like the game master's own.
    const toGameMasterOnly = toGameMaster && body.to.length === 1;
    let senderPower: string | null = null;
    if (body.asGameMaster) {
      // The game master may always speak, whatever the press rules.
      requireGameMaster(context);
      if (toGameMaster) throw invalid('body.to', `the game master does not write to itself ("${GAME_MASTER_RECIPIENT}")`);
    } else {
      if (context.isGameMaster && !context.seat?.power) {
        throw forbidden('forbidden', 'you play no power in this game: to post as the game master, send "asGameMaster": true');
      }
      const { power, seat } = requirePower(context);
      senderPower = power;
      if (!toGameMasterOnly) {
        if (context.game.pressKind === 'none') {
          throw forbidden(
            'press_not_allowed',
            `this is a gunboat game: players send no press (but may write to the game master alone: "to": ["${GAME_MASTER_RECIPIENT}"])`,
          );
        }
        if (context.game.pressKind === 'public' && body.to !== 'all') {
          throw forbidden(
            'press_not_allowed',
            `this game allows public press only: send it "to": "all" (or privately to the game master alone: "to": ["${GAME_MASTER_RECIPIENT}"])`,
          );
        }
      }
      if (seat.status === 'eliminated') throw forbidden('press_not_allowed', `${power} has been eliminated and sends no more press`);
    }
    if (body.to !== 'all') {
      const unknown = body.to.filter((power) => power !== GAME_MASTER_RECIPIENT && !powers.includes(power));
      if (unknown.length > 0) {
        throw invalid(
          'body.to',
          `${unknown.map((p) => `"${p}"`).join(', ')} not a power of this game (${powers.join(', ')}; "${GAME_MASTER_RECIPIENT}" for the game master)`,
        );
      }
      if (senderPower && body.to.includes(senderPower)) throw invalid('body.to', 'a power does not write to itself');
    }
    const phase = await tx.phase.findFirst({ where: { gameId, status: 'open' }, select: { id: true } });
    const row = await tx.pressMessage.create({
      data: {
        gameId,
        phaseId: phase?.id ?? null,
        senderPower,
        senderUserId: user.id,
        public: body.to === 'all',
        recipients: body.to === 'all' ? [] : body.to,
        body: body.body,
      },
      include,
    });
    const event = { type: 'press.message' as const, gameId, messageId: row.id, fromPower: senderPower, gameMaster: senderPower === null, to: body.to };
    if (body.to === 'all') {
      await app.bus.publish(tx, `game:${gameId}`, event);
    } else {
      const recipients = new Set<string>(body.to);
      const readers = context.game.players.filter((seat) => seat.power && recipients.has(seat.power) && seat.userId).map((seat) => seat.userId!);
      readers.push(user.id);
      readers.push(...(await sittersFor(tx, context, readers)));
      // The game's game master hears of what is addressed to it, and of what an administrator posts as game master.
      if (toGameMaster || senderPower === null) readers.push(context.game.gameMasterId);
      // On each reader's own channel, not the game's: there, the event's number would tell every watcher that a message passed.
      await app.bus.publishAll(
        tx,
        [...new Set(readers)].map((reader) => ({ channel: `user:${reader}` as const, event })),
      );
    }
    if (app.play.notify) await notifyPress(tx, app.play.notify, row);
    return pressMessageView(context, row);
  });
}

/** Those sitting now for the players among `readers` (access/policy.ts sittingFor): they read that power's press. */
async function sittersFor(db: Db, context: GameContext, readers: string[]): Promise<string[]> {
  const now = new Date();
  const absences = await db.vacation.findMany({
    where: { userId: { in: readers }, sitterId: { not: null }, cancelledAt: null, startsAt: { lte: now }, endsAt: { gt: now } },
    select: { id: true, userId: true, sitterId: true, startsAt: true, endsAt: true },
    orderBy: { createdAt: 'asc' },
  });
  const game = { ...context.game, absences };
  // The seat each sitter plays now must be that reader's (a sitter named by two players of a game sits for one).
  return absences
    .filter((absence) => sittingFor(game, { id: absence.sitterId!, isAdmin: false }, now)?.seat.userId === absence.userId)
    .map((absence) => absence.sitterId!);
}

/**
 * A conversation a read mark may be kept for: the public one, or members of the game (powers, the game master),
 * sorted and each once, the caller among them (by their power, or as game master). So marks stay few per user and
 * game, and a key that no conversation of theirs could have is refused.
 */
function checkConversation(context: GameContext, conversation: string): void {
  if (conversation === PRESS_PUBLIC_CONVERSATION) return;
  const members = conversation.split('+');
  const known = new Set<string>([...context.variant.powers, PRESS_GAME_MASTER_MEMBER]);
  const sorted = [...new Set(members)].sort();
  if (members.some((m) => !known.has(m)) || sorted.join('+') !== conversation) {
    throw invalid(
      'body.conversation',
      `must be "${PRESS_PUBLIC_CONVERSATION}" or members of this game (${[...known].join(', ')}) sorted and joined by "+", each once`,
    );
  }
  const me = context.seat?.power ?? null;
  if (!(me && members.includes(me)) && !(context.isGameMaster && members.includes(PRESS_GAME_MASTER_MEMBER))) {
    throw invalid('body.conversation', 'is not a conversation of yours: it must include your power (or the game master, for the game master)');
  }
}

async function marksOf(db: Db, userId: string, gameId: string) {
  const rows = await db.pressReadMark.findMany({ where: { userId, gameId }, select: { conversation: true, readUntil: true } });
  return viewed({ readUntil: Object.fromEntries(rows.map((row) => [row.conversation, row.readUntil.toISOString()])) });
}

/** The caller's read marks in a game they may see. */
export async function pressReadMarks(db: Db, user: Auth['user'], gameId: string) {
  await viewableGame(db, gameId, user);
  return marksOf(db, user.id, gameId);
}

/**
 * Marks a conversation read up to `until`: the game's players and its game master (spectators have nothing unread).
 * A mark never moves back (two devices may report out of order) nor past now.
 */
export async function markPressRead(db: Db, user: Auth['user'], gameId: string, body: MarkPressReadRequest) {
  const context = await viewableGame(db, gameId, user);
  if (!context.seat?.power && !context.isGameMaster)
    throw forbidden('forbidden', 'you play no power in this game and do not run it: you have no press to mark read');
  checkConversation(context, body.conversation);
  const until = new Date(Math.min(Date.parse(body.until), Date.now()));
  await db.$executeRaw`
    INSERT INTO press_read_marks (user_id, game_id, conversation, read_until)
    VALUES (${user.id}::uuid, ${gameId}::uuid, ${body.conversation}, ${until})
    ON CONFLICT (user_id, game_id, conversation) DO UPDATE SET read_until = GREATEST(press_read_marks.read_until, EXCLUDED.read_until)`;
  return marksOf(db, user.id, gameId);
}
