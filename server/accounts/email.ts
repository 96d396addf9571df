/**
 * Account mail: the address on an account, its verification, password reset by a mailed link, and a change of
 * address confirmed at both addresses. Registered by the accounts plugin (routes.ts) under /api/auth, which lends it
 * the log-in's budget of password guesses. Every mail is an outbox row written in the transaction of the change
 * that causes it (notify/outbox.ts); the delivery worker sends it.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChangeEmailRequestSchema,
  ConfirmEmailRequestSchema,
  ConfirmPasswordResetRequestSchema,
  EmailConfirmedSchema,
  EmailStatusSchema,
  PasswordResetAcceptedSchema,
  PasswordResetDoneSchema,
  PasswordResetRequestSchema,
  emailKeyOf,
  type EmailConfirmed,
  type EmailStatus,
} from '../../shared/api/account-mail.ts';
import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { conflict, forbidden, HttpError, invalid } from '../errors.ts';
import { errorResponses } from '../schemas.ts';
import { requireUser } from '../auth/authenticate.ts';
import { announceSessionsChanged } from '../auth/session-cache.ts';
import { enqueue } from '../notify/outbox.ts';
import { TOKEN_LIFETIME_MS, checkToken, issueToken, markUsed, revokeTokens, tokenInvalid } from './account-tokens.ts';
import {
  accountLinks,
  changeEmailNewMail,
  changeEmailOldMail,
  emailChangedMail,
  resetPasswordMail,
  verifyEmailMail,
  type AccountMail,
} from './account-mail.ts';
import { passwordWeakness } from './password-policy.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { plural } from '../../shared/text/plural.ts';

const tags = ['accounts'];

type MailUser = { id: string; username: string };

export const emailTaken = () => conflict('email_taken', 'another account uses this email address; give another');

async function mail(tx: Db, user: MailUser, to: string, dedupeKey: string, payload: AccountMail): Promise<void> {
  await enqueue(tx, [{ channel: 'mail', dedupeKey, userId: user.id, target: to, payload }]);
}

/** Mails a verification link for `email` (the account's address, unverified). In the caller's transaction. */
export async function sendVerification(tx: Db, publicUrl: string, user: MailUser, email: string, now = new Date()): Promise<void> {
  const { token, row } = await issueToken(tx, { userId: user.id, purpose: 'verify_email', email, now });
  const link = accountLinks.verify(publicUrl, token);
  await mail(tx, user, email, `account:${row.id}`, verifyEmailMail({ username: user.username, link, validForMs: TOKEN_LIFETIME_MS.verify_email }));
}

/** An address that mail can be sent to and whose owner proved they read it. */
const verifiedAndDeliverable = (user: { emailVerifiedAt: Date | null; emailUndeliverableAt: Date | null }) =>
  user.emailVerifiedAt !== null && user.emailUndeliverableAt === null;

async function lockUser(tx: Db, userId: string) {
  await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
  return tx.user.findUniqueOrThrow({ where: { id: userId } });
}

/** The account's address, and the change of address under way (both links of one request share their creation time). */
async function emailStatus(db: Db, userId: string, now = new Date()): Promise<EmailStatus> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  const newLink = await db.accountToken.findFirst({ where: { userId, purpose: 'change_email_new' }, orderBy: { createdAt: 'desc' } });
  const oldLink = newLink && (await db.accountToken.findFirst({ where: { userId, purpose: 'change_email_old', createdAt: newLink.createdAt } }));
  const lapsed = (link: { usedAt: Date | null; expiresAt: Date } | null) => link !== null && link.usedAt === null && link.expiresAt <= now;
  const done = newLink?.usedAt && (oldLink === null || oldLink?.usedAt);
  const pending = newLink && !done && !lapsed(newLink) && !lapsed(oldLink ?? null);
  return {
    email: user.email,
    verifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
    undeliverableAt: user.emailUndeliverableAt?.toISOString() ?? null,
    undeliverableReason: user.emailUndeliverableReason,
    pendingChange: pending
      ? {
          newEmail: newLink.newEmail ?? newLink.email,
          oldConfirmed: oldLink === null || oldLink.usedAt !== null,
          newConfirmed: newLink.usedAt !== null,
          expiresAt: newLink.expiresAt.toISOString(),
        }
      : null,
  };
}

/**
 * Counts attempts per key in a sliding window, in this instance's memory (as the other rate limits are). Keys are
 * what was typed, whether or not an account has it, so its answers say nothing about which exist.
 */
class AttemptCounter {
  private readonly attempts = new Map<string, number[]>();
  constructor(
    private readonly limit: { max: number; windowMs: number },
    private readonly capacity = 10_000,
  ) {}

  /** Counts one attempt; the seconds to wait when it is one too many, else null. */
  hit(key: string, now = Date.now()): number | null {
    const recent = (this.attempts.get(key) ?? []).filter((at) => now - at < this.limit.windowMs);
    if (recent.length >= this.limit.max) return Math.ceil((recent[0] + this.limit.windowMs - now) / 1000);
    recent.push(now);
    this.attempts.delete(key);
    this.attempts.set(key, recent);
    // Oldest keys first out: the map stays bounded whatever is typed.
    if (this.attempts.size > this.capacity) this.attempts.delete(this.attempts.keys().next().value!);
    return null;
  }
}

/** 429 with Retry-After, as the other rate limits answer. */
function tooMany(reply: FastifyReply, retryAfterSeconds: number, what: string): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  reply.header('retry-after', String(seconds));
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(429, 'rate_limited', `${what}; try again in ${plural(minutes, 'minute')}`);
}

/** Whom a password reset is asked for: what was typed. */
type ResetBy = { email: string } | { username: string };

export type EmailRoutesOptions = {
  /** The log-in's budget of password guesses (routes.ts): the current password asked here draws on it too. */
  passwordGuesses: ReturnType<FastifyInstance['rateLimit']>;
};

const emailRoutes: FastifyPluginAsyncZod<EmailRoutesOptions> = async (app, { passwordGuesses }) => {
  const { scryptCost, authRateLimit, accountMail } = app.settings;
  // Read when a mail is written, not here: a test harness learns its own address (the port) only once listening.
  const publicUrl = () => app.settings.publicUrl;
  const rateLimit = { max: authRateLimit.max, timeWindow: authRateLimit.windowMs };
  const resetsPerAddress = new AttemptCounter(accountMail.resetsPerAddress);

  /** The verification mails a user may ask for in the window are counted from the links already made. */
  async function checkVerificationBudget(tx: Db, reply: FastifyReply, userId: string, now: Date): Promise<void> {
    const { max, windowMs } = accountMail.verificationsPerUser;
    const recent = await tx.accountToken.findMany({
      where: { userId, purpose: 'verify_email', createdAt: { gt: new Date(now.getTime() - windowMs) } },
      orderBy: { createdAt: 'asc' },
      select: { createdAt: true },
    });
    if (recent.length >= max) {
      throw tooMany(
        reply,
        (recent[0].createdAt.getTime() + windowMs - now.getTime()) / 1000,
        `${max} verification mails were sent in the last ${Math.round(windowMs / 60_000)} minutes`,
      );
    }
  }

  app.get(
    '/email',
    {
      // Your own account: no game data, so no view makes the body (server/views/route-views.ts).
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Your email address: whether it is verified or undeliverable, and a change under way',
        response: { 200: EmailStatusSchema, ...errorResponses },
      },
    },
    async (request) => emailStatus(app.prisma, requireUser(request).id),
  );

  app.put(
    '/email',
    {
      // Your own account: no game data, so no view makes the body (server/views/route-views.ts).
      config: { view: 'none' },
      // In the log-in's budget: the current password could otherwise be guessed here.
      onRequest: passwordGuesses,
      schema: {
        tags,
        summary: 'Give or change your email address (from a browser session, with your password)',
        description:
          'Without a verified address, the address is set at once, unverified, and a verification link is mailed to it. ' +
          'With one, a link goes to the new address and another to the present one: the address changes once both are ' +
          'followed, and the old address is told; giving the present address again calls off a change under way. Giving an ' +
          'address clears its undeliverable mark. 409 `email_taken` when ' +
          'another account has it (addresses are unique whatever their case); 403 `wrong_password`; 429 past ' +
          'the verification mails allowed an hour. Attempts count towards the log-in limit of the client address.',
        body: ChangeEmailRequestSchema,
        response: { 202: EmailStatusSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // Whoever holds the address can reset the password: a leaked bot token must not be able to move it.
      if (request.auth!.via !== 'cookie')
        throw forbidden('forbidden', 'the email address can be changed only when logged in with the password, not with an API token');
      const { email, currentPassword } = request.body;
      const key = emailKeyOf(email);
      const { passwordHash } = await app.prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
      if (!(await verifyPassword(currentPassword, passwordHash))) throw forbidden('wrong_password', 'the current password is wrong');
      const now = new Date();
      await app.prisma
        .$transaction(async (tx) => {
          const current = await lockUser(tx, user.id);
          if (current.emailKey === key && verifiedAndDeliverable(current)) {
            // The present address again calls off a change under way; with none, there is nothing to do.
            if ((await revokeTokens(tx, user.id, ['change_email_old', 'change_email_new'])) > 0) return;
            throw invalid('body.email', 'is your address already');
          }
          const holder = await tx.user.findFirst({ where: { emailKey: key, id: { not: user.id } }, select: { id: true } });
          if (holder) throw emailTaken();
          // Whatever was under way for an address this replaces is void.
          await revokeTokens(tx, user.id, ['change_email_old', 'change_email_new']);
          if (!current.email || !verifiedAndDeliverable(current)) {
            // Nothing proven to replace (no address, an unverified one, or one that bounces): set it, then verify it.
            if (current.emailKey !== key) await revokeTokens(tx, user.id, ['verify_email', 'reset_password']);
            await checkVerificationBudget(tx, reply, user.id, now);
            await tx.user.update({
              where: { id: user.id },
              data: { email, emailKey: key, emailVerifiedAt: null, emailUndeliverableAt: null, emailUndeliverableReason: null },
            });
            await sendVerification(tx, publicUrl(), current, email, now);
            return;
          }
          // Both links are made at the same moment: that is how a link finds its pair.
          const oldLink = await issueToken(tx, { userId: user.id, purpose: 'change_email_old', email: current.email, newEmail: email, now });
          const newLink = await issueToken(tx, { userId: user.id, purpose: 'change_email_new', email, newEmail: email, now });
          const validForMs = TOKEN_LIFETIME_MS.change_email_new;
          await mail(
            tx,
            current,
            current.email,
            `account:${oldLink.row.id}`,
            changeEmailOldMail({ username: current.username, link: accountLinks.verify(publicUrl(), oldLink.token), validForMs, newEmail: email }),
          );
          await mail(
            tx,
            current,
            email,
            `account:${newLink.row.id}`,
            changeEmailNewMail({ username: current.username, link: accountLinks.verify(publicUrl(), newLink.token), validForMs, oldEmail: current.email }),
          );
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw emailTaken();
          throw error;
        });
      return reply.code(202).send(await emailStatus(app.prisma, user.id));
    },
  );

  app.post(
    '/email/verification',
    {
      // Your own account: no game data, so no view makes the body (server/views/route-views.ts).
      config: { view: 'none', rateLimit },
      schema: {
        tags,
        summary: 'Mail the verification link again to your unverified address',
        description:
          'Earlier links keep working until they expire. 409 `email_missing` without an address, `email_already_verified` when it is ' +
          'verified; 429 `rate_limited` past the verification mails allowed an hour (5 by default).',
        response: { 202: EmailStatusSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const now = new Date();
      await app.prisma.$transaction(async (tx) => {
        const current = await lockUser(tx, user.id);
        if (!current.email) throw conflict('email_missing', 'your account has no email address; give one first');
        if (current.emailVerifiedAt && !current.emailUndeliverableAt) throw conflict('email_already_verified', 'your email address is verified already');
        if (current.emailUndeliverableAt)
          throw conflict('conflict', 'mail to your address could not be delivered; give your address again (or another) to try once more');
        await checkVerificationBudget(tx, reply, user.id, now);
        await sendVerification(tx, publicUrl(), current, current.email, now);
      });
      return reply.code(202).send(await emailStatus(app.prisma, user.id));
    },
  );

  app.post(
    '/email/verify',
    {
      // Answers only with what the link did to an address its reader holds: no game data (server/views/route-views.ts).
      config: { view: 'none', rateLimit },
      schema: {
        tags,
        summary: 'Follow a link from a verification or change-of-address mail',
        description:
          'No log-in needed: the token is the proof. A verification link marks the address verified. A change of address ' +
          'needs both of its links (the one to the new address, and the one to the old when it was verified): the first ' +
          'answers `change-pending`, the second makes the change (`changed`) and the old address is told. 400 `token_invalid` ' +
          '(unknown, or replaced by a newer request), 410 `token_used`, 410 `token_expired`; 409 `email_taken` when another ' +
          'account took the new address meanwhile.',
        body: ConfirmEmailRequestSchema,
        response: { 200: EmailConfirmedSchema, ...errorResponses },
      },
    },
    async (request): Promise<EmailConfirmed> => {
      const now = new Date();
      return app.prisma
        .$transaction(async (tx): Promise<EmailConfirmed> => {
          const link = await checkToken(tx, request.body.token, ['verify_email', 'change_email_old', 'change_email_new'], now);
          const user = await lockUser(tx, link.userId);
          if (link.purpose === 'verify_email') {
            // A link to an address the account has since left proves nothing about the present one.
            if (user.emailKey !== emailKeyOf(link.email) || !user.email) throw tokenInvalid();
            await markUsed(tx, link.id, now);
            if (!user.emailVerifiedAt || user.emailUndeliverableAt)
              await tx.user.update({ where: { id: user.id }, data: { emailVerifiedAt: now, emailUndeliverableAt: null, emailUndeliverableReason: null } });
            return { outcome: 'verified', email: user.email, waitingFor: null };
          }
          const newEmail = link.newEmail ?? link.email;
          const otherPurpose = link.purpose === 'change_email_old' ? 'change_email_new' : 'change_email_old';
          const other = await tx.accountToken.findFirst({
            where: { userId: user.id, purpose: otherPurpose, createdAt: link.createdAt, newEmail: link.newEmail },
          });
          // The pair is gone: a newer request replaced it.
          if (!other) throw tokenInvalid();
          await markUsed(tx, link.id, now);
          if (!other.usedAt) return { outcome: 'change-pending', email: newEmail, waitingFor: other.purpose === 'change_email_old' ? 'old' : 'new' };
          const oldEmail = link.purpose === 'change_email_old' ? link.email : other.email;
          // The address was changed another way since: this change was asked of an address the account no longer has.
          if (user.emailKey !== emailKeyOf(oldEmail)) throw tokenInvalid();
          if (await tx.user.findFirst({ where: { emailKey: emailKeyOf(newEmail), id: { not: user.id } }, select: { id: true } })) throw emailTaken();
          await tx.user.update({
            where: { id: user.id },
            data: { email: newEmail, emailKey: emailKeyOf(newEmail), emailVerifiedAt: now, emailUndeliverableAt: null, emailUndeliverableReason: null },
          });
          // Links mailed to the old address (verification, reset) no longer speak for the account.
          await revokeTokens(tx, user.id, ['verify_email', 'reset_password']);
          await mail(tx, user, oldEmail, `account:${link.id}:changed`, emailChangedMail({ username: user.username, newEmail, publicUrl: publicUrl() }));
          return { outcome: 'changed', email: newEmail, waitingFor: null };
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw emailTaken();
          throw error;
        });
    },
  );

  /** Resets asked and not yet written: the answer goes before the work, so its timing says nothing; shutdown waits for them. */
  const resetsUnderWay = new Set<Promise<void>>();
  app.addHook('preClose', async () => {
    await Promise.allSettled([...resetsUnderWay]);
  });

  /** Mails a reset link if an account has this address or username and a verified address that takes mail. */
  async function mailResetLink(by: ResetBy): Promise<void> {
    const now = new Date();
    await app.prisma.$transaction(async (tx) => {
      const found = await tx.user.findFirst({
        where: 'email' in by ? { emailKey: emailKeyOf(by.email) } : { usernameKey: by.username.toLowerCase() },
        select: { id: true },
      });
      if (!found) return;
      const user = await lockUser(tx, found.id);
      if (!user.email || !verifiedAndDeliverable(user)) return;
      // One link works at a time: the newest.
      await revokeTokens(tx, user.id, ['reset_password']);
      const { token, row } = await issueToken(tx, { userId: user.id, purpose: 'reset_password', email: user.email, now });
      const link = accountLinks.resetPassword(publicUrl(), token);
      await mail(tx, user, user.email, `account:${row.id}`, resetPasswordMail({ username: user.username, link, validForMs: TOKEN_LIFETIME_MS.reset_password }));
    });
  }

  app.post(
    '/password-reset',
    {
      // Says nothing about any account: no view makes the body (server/views/route-views.ts).
      config: { view: 'none', rateLimit },
      schema: {
        tags,
        summary: 'Forgot your password: mail a reset link to the account’s verified address',
        description:
          'Give your email address or your username. The answer is the same 202 whether or not an account has it, and comes ' +
          'before anything is looked up. A link (single use, valid for an hour) is mailed only to a verified address that ' +
          'takes mail; asking again replaces the previous link. 429 `rate_limited` past the requests allowed per client ' +
          'address, and per address or username typed (5 an hour by default).',
        body: PasswordResetRequestSchema,
        response: { 202: PasswordResetAcceptedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email, username } = request.body;
      const by: ResetBy = email !== undefined ? { email } : { username: username! };
      const retryAfter = resetsPerAddress.hit('email' in by ? `email:${emailKeyOf(by.email)}` : `user:${by.username.toLowerCase()}`);
      if (retryAfter !== null) throw tooMany(reply, retryAfter, 'too many password resets were asked for this address or username');
      const work = mailResetLink(by)
        .catch((error: unknown) => request.log.error({ err: error }, 'password reset: the link could not be written'))
        .finally(() => resetsUnderWay.delete(work));
      resetsUnderWay.add(work);
      return reply.code(202).send({
        message: 'If an account has this address or username and a verified email address, a link to choose a new password is on its way there.',
        expiresInMinutes: TOKEN_LIFETIME_MS.reset_password / 60_000,
      });
    },
  );

  app.post(
    '/password-reset/confirm',
    {
      // Names only the account whose link it is, to its reader: no game data (server/views/route-views.ts).
      config: { view: 'none', rateLimit },
      schema: {
        tags,
        summary: 'Choose a new password with the link from a reset mail',
        description:
          'The new password must be as hard to guess as at sign-up (400 `validation_failed` says why not). Once set, the ' +
          'link and every other reset link of the account stop working, and every browser session of the account ends ' +
          '(API tokens are kept); log in with the new password. 400 `token_invalid`, 410 `token_used`, 410 `token_expired`.',
        body: ConfirmPasswordResetRequestSchema,
        response: { 200: PasswordResetDoneSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { token, newPassword } = request.body;
      // The link first: a used or expired one is said before any password is rated.
      const link = await app.prisma.$transaction((tx) => checkToken(tx, token, ['reset_password']));
      const { username } = await app.prisma.user.findUniqueOrThrow({ where: { id: link.userId }, select: { username: true } });
      if (newPassword.toLowerCase() === username.toLowerCase()) throw invalid('body.newPassword', 'must not be the username');
      const weakness = await passwordWeakness(newPassword, username);
      if (weakness) throw invalid('body.newPassword', `${weakness}`);
      const passwordHash = await hashPassword(newPassword, scryptCost);
      const ended = await app.prisma.$transaction(async (tx) => {
        const now = new Date();
        // Again, locked: of two uses at once, one wins.
        const used = await checkToken(tx, token, ['reset_password'], now);
        const user = await lockUser(tx, used.userId);
        // Mailed to an address the account has since left: it no longer speaks for the account.
        if (user.emailKey !== emailKeyOf(used.email)) throw tokenInvalid();
        await markUsed(tx, used.id, now);
        await revokeTokens(tx, user.id, ['reset_password']);
        await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
        await announceSessionsChanged(tx, `user ${user.id}`);
        return tx.session.deleteMany({ where: { userId: user.id, kind: 'cookie' } });
      });
      // The other instances are told when it commits; this one must not answer from its cache meanwhile.
      app.sessions.forgetUser(link.userId);
      return { username, sessionsEnded: ended.count };
    },
  );
};

export default emailRoutes;
