/**
 * Deadline reminders. Every instance runs this loop (like play/scheduler.ts): each tick finds the open phases of
 * active, unpaused games whose deadline is near enough for someone's lead time (default 24 h and 2 h before,
 * shared/api/notifications.ts), and writes a reminder to each player whose power still owes orders there (the
 * engine's `powersToOrder`) and is not ready — by mail and push as they chose, and to the game's webhooks.
 *
 * Once: a reminder's dedupe key names the phase, the deadline, the lead time and the user, so two ticks or two
 * instances write it once (the outbox keeps the first); a deadline that moves is a new deadline, and is reminded of
 * again. Of a user's lead times only the nearest one passed is sent (a server that was down through the 24 h mark
 * sends the 2 h one, not both), and none whose mark came before the phase opened (a 12-hour phase gets no "24 hours
 * left" the moment it opens).
 *
 * A phase is looked at when one of the lead times in use (the defaults and every user's own) has passed its mark
 * since this instance last looked at it: between marks nobody's due reminder changes. Each round otherwise read
 * every phase within a day of its deadline again, with its game, seats, orders and preferences, only for the
 * outbox to find each message written already: about six queries a phase a minute, for every game on the server.
 * So a reminder goes to whoever owes orders when its mark passes (or when an instance that started later first
 * looks); a player who stops being ready after that hears at the next mark.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookPayload } from '../../shared/api/notifications.ts';
import { DEFAULT_NOTIFICATIONS } from '../../shared/api/notifications.ts';
import { powersToOrder } from '../../shared/index.ts';
import type { Db, PrismaClient } from '../db/database.ts';
import { phaseOf } from '../db/tables/phases.ts';
import type { OutboxDraft } from '../db/tables/outbox.ts';
import { positionOf } from '../play/phases.ts';
import { playableVariant } from '../play/variants.ts';
import { PollingLoop } from '../play/polling-loop.ts';
import { gameUrl, renderMail, renderPush, roleIn, timeFor, timeLeft, type MailRecipient } from './mail-render.ts';
import { mailable } from './game-events.ts';
import { enqueue } from './outbox.ts';
import { preferencesOf } from './preferences.ts';
import { pushDrafts } from './push.ts';
import type { NotifyEnv } from './unsubscribe.ts';
import { webhookDrafts } from './webhook-drafts.ts';

const HOUR_MS = 3600_000;

export type ReminderOptions = { enabled: boolean; intervalMs: number /** Phases looked at per tick. */; batch?: number };

/** The lead time (hours) whose reminder is due now: the nearest mark passed, after the phase opened; null if none. */
export function dueLead(leads: readonly number[], deadline: Date, opened: Date, now: Date): number | null {
  let due: number | null = null;
  for (const lead of leads) {
    const mark = deadline.getTime() - lead * HOUR_MS;
    if (mark > now.getTime() || mark < opened.getTime()) continue;
    if (due === null || lead < due) due = lead;
  }
  return due;
}

type DuePhase = { id: string; gameId: string; deadlineAt: Date; openedAt: Date };

/** Writes the reminders due at `now` for one phase, in the caller's transaction. Returns the messages written. */
export async function remindPhase(tx: Db, env: NotifyEnv, phaseId: string, now: Date): Promise<number> {
  const phase = phaseOf(
    await tx.phase.findUnique({
      where: { id: phaseId },
      select: { id: true, gameId: true, name: true, status: true, deadlineAt: true, createdAt: true, stateBefore: true, loanActions: true },
    }),
  );
  if (phase?.status !== 'open' || !phase.deadlineAt || phase.deadlineAt.getTime() <= now.getTime()) return 0;
  const deadline = phase.deadlineAt;
  const game = await tx.game.findUniqueOrThrow({
    where: { id: phase.gameId },
    select: {
      id: true,
      name: true,
      variantId: true,
      rules: true,
      status: true,
      pausedAt: true,
      players: {
        select: {
          userId: true,
          power: true,
          status: true,
          user: { select: { id: true, username: true, email: true, emailVerifiedAt: true, emailUndeliverableAt: true, timeZone: true } },
        },
      },
    },
  });
  if (game.status !== 'active' || game.pausedAt !== null) return 0;
  const variant = playableVariant(game.variantId, game.rules);
  if (!variant) return 0;
  const mustOrder = new Set(powersToOrder(variant, positionOf(variant, phase)));
  const latest = await tx.$queryRaw<Array<{ power: string; ready: boolean }>>`
    SELECT DISTINCT ON (power) power, ready FROM order_submissions WHERE phase_id = ${phase.id}::uuid ORDER BY power, seq DESC`;
  const submitted = new Map(latest.map((row) => [row.power, row.ready]));
  // Powers that still owe the phase something: they must order and are not ready.
  const owing = game.players.filter(
    (seat) => seat.power && seat.user && seat.status !== 'eliminated' && mustOrder.has(seat.power) && submitted.get(seat.power) !== true,
  );

  const drafts: OutboxDraft[] = [];
  const choices = await preferencesOf(
    tx,
    owing.map((seat) => seat.user!.id),
    game.id,
  );
  const link = gameUrl(env, game.id);
  for (const seat of owing) {
    const user = seat.user!;
    const power = seat.power!;
    const choice = choices.get(user.id);
    if (!choice) continue;
    const lead = dueLead(choice.reminderLeadHours, deadline, phase.createdAt, now);
    if (lead === null) continue;
    const recipient: MailRecipient = { userId: user.id, username: user.username, power, gameMaster: false, timeZone: user.timeZone };
    const saved = submitted.has(power);
    const key = `deadline-reminder:${phase.id}:${deadline.getTime()}:${lead}h:user:${user.id}`;
    const mail = {
      kind: 'deadline-reminder' as const,
      subject: `${game.name}: ${timeLeft(now, deadline)} left for ${power}'s orders`,
      blocks: [
        { paragraph: `The deadline of ${phase.name} in “${game.name}” is ${timeFor(recipient, deadline)}, in ${timeLeft(now, deadline)}.` },
        {
          paragraph: saved
            ? `${power}'s orders are saved but not marked ready: they count as they are at the deadline. Mark them ready when you are done.`
            : `${power} has not sent orders yet: without them its units hold (or disband, or stay unbuilt).`,
        },
        { link: { label: 'Give your orders', url: link } },
      ],
      because: `${roleIn(recipient, game)} and ${power} owes orders (${lead} h reminder)`,
    };
    if (choice.mail['deadline-reminder'] && mailable(user)) {
      drafts.push({
        channel: 'mail',
        dedupeKey: `${key}:mail`,
        userId: user.id,
        gameId: game.id,
        target: user.email!,
        payload: renderMail(env, recipient, game, mail),
      });
    }
    if (choice.push['deadline-reminder']) drafts.push(...(await pushDrafts(tx, [user.id], key, renderPush(game, mail), { gameId: game.id })));
  }

  // The game's webhooks hear of the site's default marks, naming the powers still awaited (who is ready is public).
  const hookLead = dueLead(DEFAULT_NOTIFICATIONS.reminderLeadHours, deadline, phase.createdAt, now);
  if (hookLead !== null) {
    const awaited = [...mustOrder].filter((power) => submitted.get(power) !== true).sort();
    const line = `${phase.name} is due in ${timeLeft(now, deadline)} (${deadline.toISOString()}); waiting for ${awaited.length > 0 ? awaited.join(', ') : 'nobody'}.`;
    const payload: WebhookPayload = {
      content: `**${game.name}**: ${line} ${link}`.slice(0, 2000),
      text: `*${game.name}*: ${line} ${link}`.slice(0, 4000),
      event: { type: 'deadline-reminder', gameId: game.id, at: now.toISOString(), phase: phase.name, deadline: deadline.toISOString(), awaited },
    };
    drafts.push(...(await webhookDrafts(tx, game.id, `deadline-reminder:${phase.id}:${deadline.getTime()}:${hookLead}h`, payload)));
  }
  return enqueue(tx, drafts);
}

/** The reminder loop of one instance. */
export class ReminderLoop {
  private readonly loop: PollingLoop;
  /** Per phase and deadline (`id@ms`), the lead time whose mark was the latest passed when this instance last looked. */
  private looked = new Map<string, number>();
  /** Since start: phases looked at (their reminders written). */
  readonly stats = { looked: 0 };

  constructor(
    private readonly prisma: PrismaClient,
    private readonly env: NotifyEnv,
    private readonly log: FastifyBaseLogger,
    readonly options: ReminderOptions,
  ) {
    // Each round writes everything due; the next is a full interval later.
    this.loop = new PollingLoop(async () => (await this.remindDue(), false), options.intervalMs, log, 'deadline reminders tick failed');
  }

  start(): void {
    if (this.options.enabled) this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Writes every reminder due at `now` (tests pass a chosen clock); returns how many messages were written. Each
   * phase in its own short transaction, so one that fails does not hold back the others.
   */
  async remindDue(now: Date = new Date()): Promise<number> {
    // Every lead time in use (the defaults and users' own); only as far ahead as the longest.
    const own = await this.prisma.$queryRaw<Array<{ lead: number }>>`
      SELECT DISTINCT lead::int AS lead
      FROM notification_settings, jsonb_array_elements_text(COALESCE(settings->'reminderLeadHours', '[]'::jsonb)) AS lead`;
    const leads = [...new Set([...DEFAULT_NOTIFICATIONS.reminderLeadHours, ...own.map((row) => row.lead)])];
    const horizon = new Date(now.getTime() + Math.max(...leads) * HOUR_MS);
    const batch = this.options.batch ?? 500;
    const looked = new Map<string, number>();
    let written = 0;
    let after: DuePhase | null = null;
    for (;;) {
      const page: DuePhase[] = await this.prisma.$queryRaw<DuePhase[]>`
        SELECT p.id::text AS "id", p.game_id::text AS "gameId", p.deadline_at AS "deadlineAt", p.created_at AS "openedAt"
        FROM phases p JOIN games g ON g.id = p.game_id
        WHERE p.status = 'open' AND p.deadline_at > ${now} AND p.deadline_at <= ${horizon}
          AND g.status = 'active' AND g.paused_at IS NULL
          AND (${after?.deadlineAt ?? null}::timestamptz IS NULL OR (p.deadline_at, p.id) > (${after?.deadlineAt ?? null}::timestamptz, ${after?.id ?? null}::uuid))
        ORDER BY p.deadline_at, p.id
        LIMIT ${batch}`;
      for (const phase of page) {
        const lead = dueLead(leads, phase.deadlineAt, phase.openedAt, now);
        if (lead === null) continue;
        const key = `${phase.id}@${phase.deadlineAt.getTime()}`;
        const before = this.looked.get(key);
        // Looked at since the latest mark passed (a smaller lead is a later mark).
        if (before !== undefined && before <= lead) {
          looked.set(key, before);
          continue;
        }
        try {
          written += await this.prisma.$transaction((tx) => remindPhase(tx, this.env, phase.id, now));
          looked.set(key, lead);
          this.stats.looked += 1;
        } catch (error) {
          // Not marked: the next round tries again.
          this.log.error({ err: error, phaseId: phase.id }, 'writing deadline reminders failed');
        }
      }
      if (page.length < batch) break;
      after = page[page.length - 1];
    }
    // Phases out of reach now (closed, past their deadline, moved) are forgotten.
    this.looked = looked;
    return written;
  }
}
