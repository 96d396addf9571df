/**
 * Game mail as it is written to the outbox: plain text and HTML of each event, rendered for one recipient. Every mail
 * says why it was sent and where to change that, and carries the one-click unsubscribe headers of RFC 8058
 * (`List-Unsubscribe` with an https link, `List-Unsubscribe-Post: List-Unsubscribe=One-Click`) for its own event and
 * scope. What a mail may say is decided by the caller (game-events.ts, reminders.ts): powers' names, never other
 * players' in an anonymous game.
 */
import { MAIL_LIMITS, type MailPayload, type NotificationEvent, type PushPayload } from '../../shared/api/notifications.ts';
import { unsubscribeUrl, type NotifyEnv } from './unsubscribe.ts';
import { plural } from '../../shared/text/plural.ts';

/** Who a mail is for, in one game: their power (or none), whether they run it, and the zone they read times in. */
export type MailRecipient = {
  userId: string;
  username: string;
  power: string | null;
  gameMaster: boolean;
  timeZone: string | null;
};

export type MailGame = { id: string; name: string };

/** A piece of a mail's body. */
export type Block = { paragraph: string } | { list: string[] } | { link: { label: string; url: string } };

export type GameMail = {
  kind: NotificationEvent;
  subject: string;
  blocks: Block[];
  /** The reason, after "You get this because ". */
  because: string;
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const clip = (text: string, most: number) => (text.length <= most ? text : `${text.slice(0, most - 1)}…`);

export const gameUrl = (env: NotifyEnv, gameId: string) => `${env.publicUrl}/games/${gameId}`;

/** A time as the recipient reads it: their time zone (UTC when they chose none or it is unknown here), and ISO beside it. */
export function timeFor(recipient: Pick<MailRecipient, 'timeZone'>, at: Date): string {
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  };
  let shown: string;
  try {
    shown = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: recipient.timeZone ?? 'UTC' }).format(at);
  } catch {
    shown = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(at);
  }
  return shown;
}

/** How long until `at`, in words ("23 hours", "2 hours 5 minutes"). */
export function timeLeft(now: Date, at: Date): string {
  const minutes = Math.max(0, Math.round((at.getTime() - now.getTime()) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const part = (n: number, unit: string) => (n === 0 ? [] : [plural(n, unit)]);
  const words = [...part(days, 'day'), ...part(hours, 'hour'), ...(days === 0 ? part(rest, 'minute') : [])];
  return words.length === 0 ? 'less than a minute' : words.join(' ');
}

/** The recipient's part in the game, as the "why" line says it. */
export function roleIn(recipient: MailRecipient, game: MailGame): string {
  if (recipient.power) return `you play ${recipient.power} in “${game.name}”`;
  if (recipient.gameMaster) return `you run “${game.name}” as its game master`;
  return `you follow “${game.name}”`;
}

/** The finished mail: subject, text, HTML, and the unsubscribe headers for this event in this game. */
export function renderMail(env: NotifyEnv, recipient: MailRecipient, game: MailGame, mail: GameMail): MailPayload {
  const unsubscribe = unsubscribeUrl(env, { userId: recipient.userId, scope: game.id, event: mail.kind });
  const settings = gameUrl(env, game.id);
  const account = `${env.publicUrl}/account`;
  const footer = `You get this because ${mail.because}. Change this for this game at ${settings} (or for every game at ${account}); stop these mails for this game at once: ${unsubscribe}`;

  const textBlocks = mail.blocks.map((block) => {
    if ('paragraph' in block) return block.paragraph;
    if ('list' in block) return block.list.map((item) => `  - ${item}`).join('\n');
    return `${block.link.label}: ${block.link.url}`;
  });
  const text = clip(`${[`Hello ${recipient.username},`, ...textBlocks].join('\n\n')}\n\n-- \n${footer}\n`, MAIL_LIMITS.text);

  const htmlBlocks = mail.blocks.map((block) => {
    if ('paragraph' in block) return `<p>${escapeHtml(block.paragraph)}</p>`;
    if ('list' in block) return `<ul>${block.list.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`;
    return `<p><a href="${escapeHtml(block.link.url)}">${escapeHtml(block.link.label)}</a></p>`;
  });
  const html = clip(
    [
      '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.4">',
      `<p>Hello ${escapeHtml(recipient.username)},</p>`,
      ...htmlBlocks,
      '<hr>',
      `<p style="font-size: small; color: #555">You get this because ${escapeHtml(mail.because)}. ` +
        `Change this <a href="${escapeHtml(settings)}">for this game</a> or <a href="${escapeHtml(account)}">for every game</a>; ` +
        `<a href="${escapeHtml(unsubscribe)}">stop these mails for this game</a>.</p>`,
      '</body></html>',
    ].join('\n'),
    MAIL_LIMITS.html,
  );

  return {
    kind: mail.kind,
    subject: clip(mail.subject, MAIL_LIMITS.subject),
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** The same event as a push notification: short, the first paragraph as its body, one per game and event (its tag). */
export function renderPush(game: MailGame, mail: GameMail): PushPayload {
  const first = mail.blocks.find((block): block is { paragraph: string } => 'paragraph' in block);
  return {
    kind: mail.kind,
    title: clip(mail.subject, 120),
    body: clip(first?.paragraph ?? '', 1000),
    url: `/games/${game.id}`,
    tag: `${mail.kind}:${game.id}`,
  };
}
