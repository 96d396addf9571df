/**
 * The secrets in account mail links: single use, expiring, tied to one user, one purpose and the address they were
 * mailed to. The link carries 32 random bytes (base64url); the table keeps only their SHA-256, so a database leak
 * gives no working link.
 */
import { randomBytes } from 'node:crypto';
import type { AccountToken } from '../db/generated/client.ts';
import type { AccountTokenPurpose } from '../db/generated/enums.ts';
import type { Db } from '../db/database.ts';
import { hashToken } from '../auth/sessions.ts';
import { HttpError } from '../errors.ts';

export type { AccountTokenPurpose };

/** How long each kind of link works. A reset is short: whoever reads the mail later than that asks again. */
export const TOKEN_LIFETIME_MS: Record<AccountTokenPurpose, number> = {
  verify_email: 48 * 3600_000,
  reset_password: 3600_000,
  change_email_old: 24 * 3600_000,
  change_email_new: 24 * 3600_000,
};

/** Makes a token and stores its hash; returns the secret for the link, which nothing keeps. */
export async function issueToken(
  tx: Db,
  {
    userId,
    purpose,
    email,
    newEmail = null,
    now = new Date(),
  }: { userId: string; purpose: AccountTokenPurpose; email: string; newEmail?: string | null; now?: Date },
): Promise<{ token: string; row: AccountToken }> {
  const token = randomBytes(32).toString('base64url');
  const row = await tx.accountToken.create({
    data: { userId, purpose, email, newEmail, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]), createdAt: now },
  });
  return { token, row };
}

/** A link that never was, or was replaced by a newer one (those are deleted): nothing to say about it but that. */
export const tokenInvalid = () =>
  new HttpError(400, 'token_invalid', 'this link is not valid: it may be mistyped, or a newer mail replaced it; ask for a new one');

/**
 * The token of a link, checked: it exists, is meant for one of `purposes`, unused and unexpired (400 `token_invalid`,
 * 410 `token_used`, 410 `token_expired`). Locked for the rest of the transaction, so two clicks on one link cannot both
 * use it. Does not mark it used (`markUsed`): the caller may still refuse the request (a weak password).
 */
export async function checkToken(tx: Db, token: string, purposes: readonly AccountTokenPurpose[], now = new Date()): Promise<AccountToken> {
  const tokenHash = hashToken(token);
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM account_tokens WHERE token_hash = ${tokenHash} FOR UPDATE`;
  if (locked.length === 0) throw tokenInvalid();
  const row = await tx.accountToken.findUniqueOrThrow({ where: { tokenHash } });
  if (!purposes.includes(row.purpose)) throw tokenInvalid();
  if (row.usedAt) throw new HttpError(410, 'token_used', 'this link has been used already: each link works once; ask for a new one if you need it');
  if (row.expiresAt.getTime() <= now.getTime()) throw new HttpError(410, 'token_expired', 'this link has expired; ask for a new one');
  return row;
}

export async function markUsed(tx: Db, id: string, now = new Date()): Promise<void> {
  await tx.accountToken.update({ where: { id }, data: { usedAt: now } });
}

/** Deletes a user's unused links of these purposes (a newer one replaces them, or what they were for is gone). */
export async function revokeTokens(tx: Db, userId: string, purposes: readonly AccountTokenPurpose[], except?: string): Promise<number> {
  const { count } = await tx.accountToken.deleteMany({
    where: { userId, purpose: { in: [...purposes] }, usedAt: null, ...(except ? { id: { not: except } } : {}) },
  });
  return count;
}
