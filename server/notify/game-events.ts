/**
 * Game events written to the outbox: one function per event, called inside the transaction of the event (so a
 * message exists exactly when the event committed), writing one message per recipient and channel they want:
 *   - mail: to a verified address that has not bounced, when the user's choice for the event in this game is on;
 *   - push: to each subscribed browser (push.ts's pushDrafts), when the push choice is on;
 *   - webhooks: the game master's (webhook-drafts.ts), for the events a webhook may be called on.
 * Dedupe keys name the event and the recipient, so writing an event twice (a retried transaction) sends once.
 *
 * Anonymous games: nothing here names another user. Mail names powers, and the recipient's own name only; press
 * mail lists only the messages the recipient may read (access/policy.ts's `readsMessage`).
 */
import { createHash } from 'node:crypto';
import { getVariant, powerSummary, powersToOrder, type GameState, type OrderResult } from '../../shared/index.ts';
import type { GameOutcome } from '../../shared/api/games.ts';
import type { MailPayload, NotificationEvent, WebhookPayload } from '../../shared/api/notifications.ts';
import { GAME_MASTER_RECIPIENT } from '../../shared/api/press-recipients.ts';
import { PRESS_GAME_MASTER_MEMBER, PRESS_PUBLIC_CONVERSATION } from '../../shared/api/press.ts';
import { pressReach, readsMessage, revealsNames, type GameFacts } from '../access/policy.ts';
import type { Db } from '../db/database.ts';
import { outboxValues, type OutboxDraft } from '../db/tables/outbox.ts';
import { seaBattleOf } from '../db/tables/sea-battles.ts';
import { phaseOf } from '../db/tables/phases.ts';
import { enqueue } from './outbox.ts';
import { preferencesOf } from './preferences.ts';
import { pushDrafts } from './push.ts';
import { webhookDrafts } from './webhook-drafts.ts';
import { gameUrl, renderMail, renderPush, roleIn, timeFor, type Block, type GameMail, type MailGame, type MailRecipient } from './mail-render.ts';
import type { NotifyEnv } from './unsubscribe.ts';
import { plural } from '../../shared/text/plural.ts';

/** Press mail is batched: at most one mail per conversation and recipient per window. */
export const PRESS_WINDOW_MS = 15 * 60_000;
/**
 * A window's mail goes out this long after the window closes: longer than any transaction may last (60 s,
 * server/db/database.ts) plus clock drift between instances, so a message written in the window is always in its mail.
 */
export const PRESS_WINDOW_SETTLE_MS = 2 * 60_000;

type LoadedGame = Omit<GameFacts, 'players'> & {
  id: string;
  name: string;
  variantId: string;
  players: Array<{ id: string; userId: string | null; power: string | null; status: string }>;
};

async function loadGame(tx: Db, gameId: string): Promise<LoadedGame> {
  return tx.game.findUniqueOrThrow({
    where: { id: gameId },
    select: {
      id: true,
      name: true,
      variantId: true,
      private: true,
      anonymous: true,
      status: true,
      gameMasterId: true,
      finalAt: true,
      players: { select: { id: true, userId: true, power: true, status: true } },
    },
  });
}

type UserRow = { id: string; username: string; email: string | null; emailVerifiedAt: Date | null; emailUndeliverableAt: Date | null; timeZone: string | null };

/** One recipient of an event: who, the mail (or push) they get, and the key of this event for them. */
export type Letter = { recipient: MailRecipient; mail: GameMail; key: string };

/** The game's members as recipients: each seated user with their power, and the game master (unless seated). */
async function membersOf(tx: Db, game: LoadedGame): Promise<{ recipients: MailRecipient[]; users: Map<string, UserRow> }> {
  const ids = new Set<string>([game.gameMasterId]);
  for (const seat of game.players) if (seat.userId) ids.add(seat.userId);
  const rows: UserRow[] = await tx.user.findMany({
    where: { id: { in: [...ids] } },
    select: { id: true, username: true, email: true, emailVerifiedAt: true, emailUndeliverableAt: true, timeZone: true },
  });
  const users = new Map(rows.map((row) => [row.id, row]));
  const recipients: MailRecipient[] = [];
  for (const seat of game.players) {
    const user = seat.userId ? users.get(seat.userId) : undefined;
    if (!user || !seat.power) continue;
    recipients.push({ userId: user.id, username: user.username, power: seat.power, gameMaster: user.id === game.gameMasterId, timeZone: user.timeZone });
  }
  const master = users.get(game.gameMasterId);
  if (master && !recipients.some((r) => r.userId === master.id)) {
    recipients.push({ userId: master.id, username: master.username, power: null, gameMaster: true, timeZone: master.timeZone });
  }
  return { recipients, users };
}

/**
 * Writes each letter by mail and push as its recipient chose for `event` in this game. Mail goes only to a verified
 * address that has not bounced; push to the user's subscribed browsers. Returns the drafts' count written.
 */
async function send(
  tx: Db,
  env: NotifyEnv,
  game: MailGame,
  event: NotificationEvent,
  letters: readonly Letter[],
  users: ReadonlyMap<string, UserRow>,
  extra: OutboxDraft[] = [],
  /** The phase whose map the mail attaches (drawn when it is delivered). */
  map?: MailPayload['map'],
): Promise<number> {
  const choices = await preferencesOf(
    tx,
    letters.map((letter) => letter.recipient.userId),
    game.id,
  );
  const drafts: OutboxDraft[] = [...extra];
  for (const letter of letters) {
    const choice = choices.get(letter.recipient.userId);
    const user = users.get(letter.recipient.userId);
    if (!choice || !user) continue;
    if (choice.mail[event] && mailable(user)) {
      const payload = renderMail(env, letter.recipient, game, letter.mail);
      drafts.push({
        channel: 'mail',
        dedupeKey: `${letter.key}:mail`,
        userId: user.id,
        gameId: game.id,
        target: user.email!,
        payload: map ? { ...payload, map } : payload,
      });
    }
    if (choice.push[event]) drafts.push(...(await pushDrafts(tx, [user.id], letter.key, renderPush(game, letter.mail), { gameId: game.id })));
  }
  return enqueue(tx, drafts);
}

/** A verified address that has not bounced: the only kind game mail goes to. */
export const mailable = (user: Pick<UserRow, 'email' | 'emailVerifiedAt' | 'emailUndeliverableAt'>) =>
  user.email !== null && user.emailVerifiedAt !== null && user.emailUndeliverableAt === null;

function webhookBody(game: MailGame, type: WebhookPayload['event']['type'], summary: string, facts: WebhookPayload['event'], link: string): WebhookPayload {
  const line = `**${game.name}**: ${summary} ${link}`;
  return { content: line.slice(0, 2000), text: line.replace(/\*\*/g, '*').slice(0, 4000), event: { ...facts, type } };
}

// ─── phase processed ───

function resultLine(result: OrderResult): string {
  return `${result.order}: ${result.success ? 'succeeded' : 'failed'}${result.reason ? ` (${result.reason})` : ''}`;
}

/**
 * A phase was adjudicated and `nextPhaseId` opened: each player gets their own power's results, centres and units,
 * and the new deadline; the game master a short summary; the game's webhooks the public facts.
 */
export async function notifyPhaseProcessed(tx: Db, env: NotifyEnv, gameId: string, phaseId: string, nextPhaseId: string): Promise<number> {
  const game = await loadGame(tx, gameId);
  const variant = getVariant(game.variantId);
  const processed = phaseOf(
    await tx.phase.findUniqueOrThrow({ where: { id: phaseId }, select: { id: true, index: true, name: true, results: true, stateAfter: true } }),
  );
  const next = await tx.phase.findUniqueOrThrow({ where: { id: nextPhaseId }, select: { id: true, name: true, deadlineAt: true } });
  const results = processed.results ?? [];
  const after: GameState | null = processed.stateAfter;
  const summaries = variant && after ? powerSummary(variant, after) : [];
  const toOrder = new Set(variant && after ? powersToOrder(variant, after) : []);
  const { recipients, users } = await membersOf(tx, game);
  const link = gameUrl(env, game.id);
  const letters: Letter[] = [];
  for (const recipient of recipients) {
    const deadline = next.deadlineAt ? `The deadline of ${next.name} is ${timeFor(recipient, next.deadlineAt)}.` : `${next.name} has no deadline yet.`;
    const blocks: Block[] = [];
    if (recipient.power) {
      const power = recipient.power;
      const seat = game.players.find((p) => p.power === power);
      const own = results.filter((result) => result.power === power);
      if (seat?.status === 'eliminated' && own.length === 0) continue;
      blocks.push({ paragraph: `${processed.name} has been adjudicated in “${game.name}”. Your results as ${power}:` });
      blocks.push(own.length > 0 ? { list: own.map(resultLine) } : { paragraph: 'You had nothing to order.' });
      const summary = summaries.find((s) => s.power === power);
      if (summary) blocks.push({ paragraph: `${power} now has ${summary.supply} supply and ${plural(summary.units, 'unit')}.` });
      if (seat?.status === 'eliminated') blocks.push({ paragraph: `${power} has been eliminated.` });
      else blocks.push({ paragraph: `${deadline} ${toOrder.has(power) ? `${power} has orders to give.` : `${power} has nothing to order in it.`}` });
    } else {
      blocks.push({ paragraph: `${processed.name} has been adjudicated in “${game.name}” (${results.length} orders). ${deadline}` });
    }
    blocks.push({ link: { label: 'Open the game', url: link } });
    letters.push({
      recipient,
      key: `phase-processed:${processed.id}:user:${recipient.userId}`,
      mail: { kind: 'phase-processed', subject: `${game.name}: ${processed.name} adjudicated`, blocks, because: roleIn(recipient, game) },
    });
  }
  const hooks = await webhookDrafts(
    tx,
    game.id,
    `phase-processed:${processed.id}`,
    webhookBody(
      game,
      'phase-processed',
      `${processed.name} has been adjudicated; next: ${next.name}${next.deadlineAt ? `, due ${next.deadlineAt.toISOString()}` : ''}.`,
      {
        type: 'phase-processed',
        gameId: game.id,
        at: new Date().toISOString(),
        phase: processed.name,
        next: next.name,
        deadline: next.deadlineAt?.toISOString() ?? null,
      },
      link,
    ),
  );
  return send(tx, env, game, 'phase-processed', letters, users, hooks, { gameId: game.id, phaseIndex: processed.index });
}

/**
 * A campaign phase's orders are final and its results wait for its contested seas' battles: each member hears which
 * seas (under the game's wish for phase results, as the results will follow).
 */
export async function notifyPhaseHeld(tx: Db, env: NotifyEnv, gameId: string, phaseId: string): Promise<number> {
  const game = await loadGame(tx, gameId);
  const phase = await tx.phase.findUniqueOrThrow({ where: { id: phaseId }, select: { id: true, name: true } });
  const seas = await tx.seaBattle.findMany({ where: { phaseId }, select: { id: true, contested: true }, orderBy: { createdAt: 'asc' } });
  const names = seas.map((row) => seaBattleOf(row).contested.name);
  const { recipients, users } = await membersOf(tx, game);
  const link = gameUrl(env, game.id);
  const letters = recipients.map(
    (recipient): Letter => ({
      recipient,
      key: `phase-held:${phase.id}:user:${recipient.userId}`,
      mail: {
        kind: 'phase-processed',
        subject: `${game.name}: ${phase.name} awaits its sea battles`,
        blocks: [
          {
            paragraph: `The orders of ${phase.name} in “${game.name}” are final. Fleets met at sea in ${names.join(', ')}: the results wait until each sea is fought, decided or waived.`,
          },
          { link: { label: 'Open the game', url: link } },
        ],
        because: roleIn(recipient, game),
      },
    }),
  );
  return send(tx, env, game, 'phase-processed', letters, users);
}

// ─── game started, game ended ───

/** The game has started: each player learns their power and the first deadline; the game master too. */
export async function notifyGameStarted(tx: Db, env: NotifyEnv, gameId: string): Promise<number> {
  const game = await loadGame(tx, gameId);
  const first = await tx.phase.findFirst({ where: { gameId, status: 'open' }, orderBy: { index: 'asc' }, select: { id: true, name: true, deadlineAt: true } });
  const { recipients, users } = await membersOf(tx, game);
  const letters = recipients.map((recipient): Letter => {
    const deadline = first?.deadlineAt ? ` The first deadline, of ${first.name}, is ${timeFor(recipient, first.deadlineAt)}.` : '';
    const opening = recipient.power ? `“${game.name}” has started: you play ${recipient.power}.` : `“${game.name}”, which you run, has started.`;
    return {
      recipient,
      key: `game-started:${game.id}:${first?.id ?? 'none'}:user:${recipient.userId}`,
      mail: {
        kind: 'game-started',
        subject: `${game.name} has started`,
        blocks: [{ paragraph: `${opening}${deadline}` }, { link: { label: 'Open the game', url: gameUrl(env, game.id) } }],
        because: roleIn(recipient, game),
      },
    };
  });
  return send(tx, env, game, 'game-started', letters, users);
}

function outcomeText(outcome: GameOutcome): string {
  const powers = outcome.powers.join(', ');
  if (outcome.kind === 'victory') return `${powers} won.`;
  if (outcome.kind === 'draw') return `It ended in a draw between ${powers}.`;
  return `It was conceded to ${powers}.`;
}

/** The game ended (a victory, a draw, a concession): every member is told how, and the game's webhooks. */
export async function notifyGameEnded(tx: Db, env: NotifyEnv, gameId: string, outcome: GameOutcome, at: Date): Promise<number> {
  const game = await loadGame(tx, gameId);
  const { recipients, users } = await membersOf(tx, game);
  const link = gameUrl(env, game.id);
  const ending = `${game.id}:${at.getTime()}`;
  const letters = recipients.map(
    (recipient): Letter => ({
      recipient,
      key: `game-ended:${ending}:user:${recipient.userId}`,
      mail: {
        kind: 'game-ended',
        subject: `${game.name} has ended`,
        blocks: [{ paragraph: `“${game.name}” has ended. ${outcomeText(outcome)}` }, { link: { label: 'See the game', url: link } }],
        because: roleIn(recipient, game),
      },
    }),
  );
  const hooks = await webhookDrafts(
    tx,
    game.id,
    `game-ended:${at.getTime()}`,
    webhookBody(
      game,
      'game-ended',
      `the game has ended. ${outcomeText(outcome)}`,
      { type: 'game-ended', gameId: game.id, at: at.toISOString(), outcome: outcome.kind, powers: outcome.powers },
      link,
    ),
  );
  return send(tx, env, game, 'game-ended', letters, users, hooks);
}

// ─── press ───

/** A press message as stored. */
export type PressRow = {
  id: string;
  gameId: string;
  senderPower: string | null;
  senderUserId: string | null;
  recipients: string[];
  public: boolean;
  body: string;
  createdAt: Date;
};

/** The conversation a message belongs to, named as the client and the read marks name it. */
export function conversationOf(message: Pick<PressRow, 'public' | 'senderPower' | 'recipients'>): string {
  if (message.public) return PRESS_PUBLIC_CONVERSATION;
  const member = (who: string) => (who === GAME_MASTER_RECIPIENT ? PRESS_GAME_MASTER_MEMBER : who);
  return [...new Set([message.senderPower ?? PRESS_GAME_MASTER_MEMBER, ...message.recipients.map(member)])].sort().join('+');
}

const describeConversation = (conversation: string, me: string | null) => {
  if (conversation === PRESS_PUBLIC_CONVERSATION) return 'public press';
  const others = conversation.split('+').filter((member) => member !== (me ?? PRESS_GAME_MASTER_MEMBER));
  return `your conversation with ${others.join(', ')}`;
};

/** The window a moment falls in: its start, in ms since the epoch. */
export const pressWindowOf = (at: Date) => Math.floor(at.getTime() / PRESS_WINDOW_MS) * PRESS_WINDOW_MS;

/**
 * A message was posted. From the game master to everyone it is an announcement, mailed at once; any other is press,
 * for its readers but the sender: pushed at once, and mailed batched, one mail per conversation and recipient per
 * window of PRESS_WINDOW_MS, sent after the window closes and listing every message of the window the recipient may
 * read. A later message in a window rewrites that window's mail while it waits, so none is left out.
 */
export async function notifyPress(tx: Db, env: NotifyEnv, message: PressRow): Promise<number> {
  const game = await loadGame(tx, message.gameId);
  const { recipients, users } = await membersOf(tx, game);
  const readers = recipients.filter((recipient) => {
    if (recipient.userId === message.senderUserId) return false;
    const viewer = { id: recipient.userId, isAdmin: false };
    return readsMessage(pressReach(game, viewer), message, GAME_MASTER_RECIPIENT);
  });
  // Most readers of most games have neither a verified address nor a subscribed browser: nothing to write, no more reads.
  const reachable =
    readers.filter((r) => mailable(users.get(r.userId)!)).length > 0 ||
    (await tx.pushSubscription.count({ where: { userId: { in: readers.map((r) => r.userId) } } })) > 0;
  if (!reachable) return 0;
  const link = gameUrl(env, game.id);
  if (message.public && message.senderPower === null) {
    const letters = readers.map(
      (recipient): Letter => ({
        recipient,
        key: `gm-announcement:${message.id}:user:${recipient.userId}`,
        mail: {
          kind: 'gm-announcement',
          subject: `${game.name}: the game master writes to everyone`,
          blocks: [
            { paragraph: `The game master of “${game.name}” writes to everyone:` },
            { paragraph: message.body },
            { link: { label: 'Open the game', url: link } },
          ],
          because: roleIn(recipient, game),
        },
      }),
    );
    return send(tx, env, game, 'gm-announcement', letters, users);
  }

  const conversation = conversationOf(message);
  const window = pressWindowOf(message.createdAt);
  const windowEnd = new Date(window + PRESS_WINDOW_MS);
  // Every message of this conversation in the window (a handful), each reader's share picked below.
  const inWindow = (
    await tx.pressMessage.findMany({
      where: { gameId: game.id, public: message.public, createdAt: { gte: new Date(window), lt: windowEnd } },
      select: { id: true, senderPower: true, recipients: true, public: true, body: true, createdAt: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    })
  ).filter((row) => conversationOf(row) === conversation);
  if (!inWindow.some((row) => row.id === message.id)) inWindow.push({ ...message });
  const conversationKey = createHash('sha256').update(conversation).digest('hex').slice(0, 16);
  const choices = await preferencesOf(
    tx,
    readers.map((r) => r.userId),
    game.id,
  );
  let written = 0;
  const pushes: OutboxDraft[] = [];
  for (const recipient of readers) {
    const choice = choices.get(recipient.userId);
    const user = users.get(recipient.userId);
    if (!choice || !user) continue;
    const reach = pressReach(game, { id: recipient.userId, isAdmin: false });
    const listed = inWindow.filter((row) => readsMessage(reach, row, GAME_MASTER_RECIPIENT));
    const where = describeConversation(conversation, recipient.power);
    const mail: GameMail = {
      kind: 'press',
      subject: `${game.name}: new press (${where})`,
      blocks: [
        { paragraph: `New in ${where} in “${game.name}” (${plural(listed.length, 'message')}):` },
        ...listed.map((row): Block => ({ paragraph: `${pressHeading(row, recipient)}, ${timeFor(recipient, row.createdAt)}:\n${row.body}` })),
        { link: { label: 'Answer in the game', url: link } },
      ],
      because: `${roleIn(recipient, game)} and read ${where}`,
    };
    if (choice.push.press) {
      pushes.push(
        ...(await pushDrafts(
          tx,
          [user.id],
          `press:${message.id}:user:${user.id}`,
          {
            ...renderPush(game, mail),
            body: `${pressHeading(message, recipient)}: ${message.body}`.slice(0, 1000),
            tag: `press:${game.id}:${conversationKey}`,
          },
          { gameId: game.id },
        )),
      );
    }
    if (!choice.mail.press || !mailable(user)) continue;
    const draft: OutboxDraft = {
      channel: 'mail',
      dedupeKey: `press:${game.id}:${conversationKey}:${window}:user:${user.id}:mail`,
      userId: user.id,
      gameId: game.id,
      target: user.email!,
      notBefore: new Date(windowEnd.getTime() + PRESS_WINDOW_SETTLE_MS),
      payload: renderMail(env, recipient, game, mail),
    };
    if ((await enqueue(tx, [draft])) === 1) {
      written += 1;
      continue;
    }
    // The window's mail exists: it now lists this message too, while it waits to go.
    const { count } = await tx.outboxMessage.updateMany({
      where: { dedupeKey: draft.dedupeKey, status: 'pending', attempts: 0 },
      data: { payload: outboxValues(draft).payload, target: draft.target },
    });
    // Already on its way (it cannot be, within its window, but never lose a message): a mail of its own, now.
    if (count === 0) written += await enqueue(tx, [{ ...draft, dedupeKey: `press:${message.id}:user:${user.id}:mail`, notBefore: undefined }]);
  }
  return written + (await enqueue(tx, pushes));
}

function pressHeading(row: Pick<PressRow, 'senderPower' | 'recipients' | 'public'>, recipient: MailRecipient): string {
  const from = row.senderPower ?? 'The game master';
  const self = row.senderPower !== null && row.senderPower === recipient.power;
  const to = row.public
    ? 'to everyone'
    : `to ${row.recipients.map((who) => (who === GAME_MASTER_RECIPIENT ? 'the game master' : who === recipient.power ? 'you' : who)).join(', ')}`;
  return `${self ? `You (${from})` : from} ${to}`;
}

// ─── seats ───

/**
 * A seat is offered to a new player (replacement wanted): the game's members are told (not the player leaving it).
 * With `requestedBy`, someone asks to take it: the game master alone is told, by name where the policy shows it.
 */
export async function notifySeatOpened(
  tx: Db,
  env: NotifyEnv,
  gameId: string,
  power: string,
  options: { requestedBy?: { id: string; username: string }; at?: Date } = {},
): Promise<number> {
  const game = await loadGame(tx, gameId);
  const { recipients, users } = await membersOf(tx, game);
  const seat = game.players.find((p) => p.power === power);
  const at = (options.at ?? new Date()).getTime();
  const link = gameUrl(env, game.id);
  const letters: Letter[] = [];
  for (const recipient of recipients) {
    if (options.requestedBy) {
      if (recipient.userId !== game.gameMasterId) continue;
      const who = revealsNames(game, { id: recipient.userId, isAdmin: false }) ? options.requestedBy.username : 'A player';
      letters.push({
        recipient,
        key: `seat-opened:${seat?.id ?? power}:request:${options.requestedBy.id}:${at}:user:${recipient.userId}`,
        mail: {
          kind: 'seat-opened',
          subject: `${game.name}: a player asks to take ${power}`,
          blocks: [
            { paragraph: `${who} asks to take over ${power} in “${game.name}”. Approve or refuse it in the game.` },
            { link: { label: 'Open the game', url: link } },
          ],
          because: roleIn(recipient, game),
        },
      });
      continue;
    }
    if (seat?.userId && recipient.userId === seat.userId) continue;
    letters.push({
      recipient,
      key: `seat-opened:${seat?.id ?? power}:${at}:user:${recipient.userId}`,
      mail: {
        kind: 'seat-opened',
        subject: `${game.name}: ${power} is looking for a new player`,
        blocks: [
          { paragraph: `${power}'s seat in “${game.name}” is open for a new player, listed in the lobby.` },
          { link: { label: 'Open the game', url: link } },
        ],
        because: roleIn(recipient, game),
      },
    });
  }
  return send(tx, env, game, 'seat-opened', letters, users);
}

// ─── the clock: a deadline moved on its own, a vote on the clock ───

const MOVED_BECAUSE = {
  grace: (powers: readonly string[]) => `${powers.join(', ')} had sent no orders by the deadline: the game gives grace once per phase, so the deadline moved`,
  vacation: () => 'a player declared an absence that the deadline fell in: the game honours vacations, so the deadline moved to its end',
} as const;

/**
 * The open phase's deadline moved without the game master (grace for a missed deadline, a declared absence):
 * every member is told the new time, in their own time zone, and why. Names powers only.
 */
export async function notifyDeadlineMoved(
  tx: Db,
  env: NotifyEnv,
  gameId: string,
  moved: { phaseId: string; deadlineAt: Date; reason: keyof typeof MOVED_BECAUSE; powers: readonly string[] },
): Promise<number> {
  const game = await loadGame(tx, gameId);
  const phase = await tx.phase.findUniqueOrThrow({ where: { id: moved.phaseId }, select: { id: true, name: true } });
  const { recipients, users } = await membersOf(tx, game);
  const why = MOVED_BECAUSE[moved.reason](moved.powers);
  const letters = recipients.map(
    (recipient): Letter => ({
      recipient,
      key: `deadline-moved:${phase.id}:${moved.deadlineAt.getTime()}:user:${recipient.userId}`,
      mail: {
        kind: 'deadline-moved',
        subject: `${game.name}: ${phase.name} now due ${timeFor(recipient, moved.deadlineAt)}`,
        blocks: [
          { paragraph: `In “${game.name}”, ${why}: ${phase.name} is now due ${timeFor(recipient, moved.deadlineAt)}.` },
          { link: { label: 'Open the game', url: gameUrl(env, game.id) } },
        ],
        because: roleIn(recipient, game),
      },
    }),
  );
  return send(tx, env, game, 'deadline-moved', letters, users);
}

const VOTE_WORDS = { pause: 'pause the clock', resume: 'resume the clock', extend: 'extend the deadline' } as const;

/**
 * A vote on the clock was proposed (every member is asked to vote but the proposer) or decided (everyone hears how
 * it ended). Names the proposing power only.
 */
export async function notifyClockVote(
  tx: Db,
  env: NotifyEnv,
  gameId: string,
  vote: {
    id: string;
    kind: keyof typeof VOTE_WORDS;
    extendSeconds: number | null;
    proposedByPower: string;
    status: 'open' | 'passed' | 'failed' | 'withdrawn';
  },
): Promise<number> {
  const game = await loadGame(tx, gameId);
  const { recipients, users } = await membersOf(tx, game);
  const what = `${VOTE_WORDS[vote.kind]}${vote.kind === 'extend' && vote.extendSeconds ? ` by ${Math.round(vote.extendSeconds / 3600)} h` : ''}`;
  const told = vote.status === 'open' ? recipients.filter((recipient) => recipient.power !== vote.proposedByPower) : recipients;
  const letters = told.map(
    (recipient): Letter => ({
      recipient,
      key: `vote:${vote.id}:${vote.status}:user:${recipient.userId}`,
      mail: {
        kind: 'vote',
        subject: vote.status === 'open' ? `${game.name}: ${vote.proposedByPower} proposes to ${what}` : `${game.name}: the vote to ${what} ${vote.status}`,
        blocks: [
          {
            paragraph:
              vote.status === 'open'
                ? `${vote.proposedByPower} proposes to ${what} in “${game.name}”. Agree or disagree on the game's page.`
                : `The vote ${vote.proposedByPower} proposed in “${game.name}”, to ${what}, has ${vote.status === 'withdrawn' ? 'been withdrawn' : vote.status}.`,
          },
          { link: { label: 'Open the game', url: gameUrl(env, game.id) } },
        ],
        because: roleIn(recipient, game),
      },
    }),
  );
  return send(tx, env, game, 'vote', letters, users);
}

/**
 * An offered seat was taken: its new player learns which power is now theirs and its deadline; the other members
 * that the power has a player again (named only where the game shows names). Under the "seat-opened" choice.
 */
export async function notifySeatTaken(tx: Db, env: NotifyEnv, gameId: string, power: string, at: Date = new Date()): Promise<number> {
  const game = await loadGame(tx, gameId);
  const seat = game.players.find((p) => p.power === power);
  if (!seat?.userId) return 0;
  const { recipients, users } = await membersOf(tx, game);
  const open = await tx.phase.findFirst({ where: { gameId, status: 'open' }, select: { name: true, deadlineAt: true } });
  const link = gameUrl(env, game.id);
  const letters = recipients.map((recipient): Letter => {
    const mine = recipient.userId === seat.userId;
    const due = open?.deadlineAt ? ` ${open.name} is due ${timeFor(recipient, open.deadlineAt)}.` : '';
    return {
      recipient,
      key: `seat-taken:${seat.id}:${at.getTime()}:user:${recipient.userId}`,
      mail: {
        kind: 'seat-opened',
        subject: mine ? `${game.name}: you now play ${power}` : `${game.name}: ${power} has a new player`,
        blocks: [
          { paragraph: mine ? `You have taken over ${power} in “${game.name}”.${due}` : `${power} in “${game.name}” has a new player.${due}` },
          { link: { label: 'Open the game', url: link } },
        ],
        because: roleIn(recipient, game),
      },
    };
  });
  return send(tx, env, game, 'seat-opened', letters, users);
}
