/**
 * The account mails, rendered when they are written to the outbox: plain text and a simple HTML copy, each saying
 * why it was sent and what to do if the reader did not ask for it. Links open the web client's pages
 * (/account/verify, /account/reset-password), which post the token to the API.
 */
import type { MailPayload } from '../../shared/api/notifications.ts';

type AccountMailKind = 'verify-email' | 'reset-password' | 'change-email-old' | 'change-email-new';
export type AccountMail = MailPayload & { kind: AccountMailKind };

const SITE = 'Diadochi';

/** The pages the links open, on the site's public address. */
export const accountLinks = {
  verify: (publicUrl: string, token: string) => `${publicUrl}/account/verify?token=${encodeURIComponent(token)}`,
  resetPassword: (publicUrl: string, token: string) => `${publicUrl}/account/reset-password?token=${encodeURIComponent(token)}`,
  forgotPassword: (publicUrl: string) => `${publicUrl}/account/forgot-password`,
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function hours(ms: number): string {
  const h = Math.round(ms / 3600_000);
  return h === 1 ? 'an hour' : `${h} hours`;
}

/**
 * One mail from its parts: paragraphs of text, the link (when there is one) with the words of its button, and the
 * reason it was sent, last, as a footer.
 */
function compose(
  kind: AccountMailKind,
  subject: string,
  parts: { greeting: string; body: string[]; link?: { url: string; label: string }; after?: string[]; why: string },
): AccountMail {
  const text = [
    parts.greeting,
    '',
    ...parts.body.flatMap((p) => [p, '']),
    ...(parts.link ? [`${parts.link.label}:`, parts.link.url, ''] : []),
    ...(parts.after ?? []).flatMap((p) => [p, '']),
    '-- ',
    parts.why,
  ].join('\n');
  const paragraph = (p: string) => `<p>${escapeHtml(p)}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family: Georgia, serif; color: #2a1d0c; max-width: 560px">',
    paragraph(parts.greeting),
    ...parts.body.map(paragraph),
    ...(parts.link
      ? [
          `<p><a href="${escapeHtml(parts.link.url)}" style="display: inline-block; padding: 10px 16px; background: #b5651d; color: #fff; text-decoration: none; border-radius: 4px">${escapeHtml(parts.link.label)}</a></p>`,
          `<p style="font-size: 0.9em">Or open this address: <a href="${escapeHtml(parts.link.url)}">${escapeHtml(parts.link.url)}</a></p>`,
        ]
      : []),
    ...(parts.after ?? []).map(paragraph),
    `<hr><p style="font-size: 0.85em; color: #6b5a40">${escapeHtml(parts.why)}</p>`,
    '</body></html>',
  ].join('\n');
  return { kind, subject, text, html };
}

export function verifyEmailMail({ username, link, validForMs }: { username: string; link: string; validForMs: number }): AccountMail {
  return compose('verify-email', `${SITE}: confirm your email address`, {
    greeting: `Hello ${username},`,
    body: [
      `Please confirm that this is your address, so that ${SITE} can mail you your games' deadlines and results, and a link to reset your password should you forget it.`,
    ],
    link: { url: link, label: 'Confirm this address' },
    after: [`The link works once, for ${hours(validForMs)}.`],
    why: `You get this mail because this address was given for the ${SITE} account "${username}". If that was not you, ignore it: nothing will be sent to this address unless the link is followed.`,
  });
}

export function resetPasswordMail({ username, link, validForMs }: { username: string; link: string; validForMs: number }): AccountMail {
  return compose('reset-password', `${SITE}: reset your password`, {
    greeting: `Hello ${username},`,
    body: [`Someone asked to reset the password of your ${SITE} account "${username}". Choose a new one here:`],
    link: { url: link, label: 'Choose a new password' },
    after: [
      `The link works once, for ${hours(validForMs)}. Setting a new password logs out every browser where your account is logged in.`,
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ],
    why: `You get this mail because a password reset was asked for the ${SITE} account that this address belongs to.`,
  });
}

export function changeEmailNewMail({
  username,
  link,
  validForMs,
  oldEmail,
}: {
  username: string;
  link: string;
  validForMs: number;
  oldEmail: string | null;
}): AccountMail {
  return compose('change-email-new', `${SITE}: confirm your new email address`, {
    greeting: `Hello ${username},`,
    body: [
      `You asked to use this address for your ${SITE} account "${username}".`,
      oldEmail
        ? `We have also sent a link to your present address (${oldEmail}): the change is made once both links are followed.`
        : 'The change is made once you follow this link.',
    ],
    link: { url: link, label: 'Confirm the new address' },
    after: [`The link works once, for ${hours(validForMs)}.`],
    why: `You get this mail because this address was given as the new address of the ${SITE} account "${username}". If that was not you, ignore it.`,
  });
}

export function changeEmailOldMail({
  username,
  link,
  validForMs,
  newEmail,
}: {
  username: string;
  link: string;
  validForMs: number;
  newEmail: string;
}): AccountMail {
  return compose('change-email-old', `${SITE}: confirm the change of your email address`, {
    greeting: `Hello ${username},`,
    body: [
      `Someone logged in to your ${SITE} account "${username}" with its password asked to change its email address to ${newEmail}.`,
      'If it was you, confirm it here (and follow the link sent to the new address too):',
    ],
    link: { url: link, label: 'Confirm the change' },
    after: [
      `The link works once, for ${hours(validForMs)}.`,
      'If it was not you, do not follow the link: the address stays as it is. Someone knows your password, so change it on your account page.',
    ],
    why: `You get this mail because it is the address of the ${SITE} account "${username}" and a change of it was asked for.`,
  });
}

/** Told to the old address once a change is made: the account no longer mails it. */
export function emailChangedMail({ username, newEmail, publicUrl }: { username: string; newEmail: string; publicUrl: string }): AccountMail {
  return compose('change-email-old', `${SITE}: your email address was changed`, {
    greeting: `Hello ${username},`,
    body: [
      `The email address of your ${SITE} account "${username}" is now ${newEmail}, as confirmed from both addresses. Nothing more will be sent here.`,
      `If you did not do this, reset your password at ${accountLinks.forgotPassword(publicUrl)} and set your address again from your account page.`,
    ],
    why: `You get this mail because this was the address of the ${SITE} account "${username}" until now.`,
  });
}
