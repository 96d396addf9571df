/**
 * Account mail on the wire: the address on an account, its verification, password reset by a mailed link, and a
 * change of address confirmed at both addresses (server/accounts/email.ts).
 */
import { z } from 'zod';
import { TimestampSchema } from './common.ts';
import { PASSWORD_LENGTH } from './password-policy.ts';

/** RFC 5321's limits: a path of at most 254 characters, a local part of at most 64. */
export const EMAIL_LIMITS = { address: 254, localPart: 64 } as const;

/**
 * A mailbox as people type one: a dot-atom local part, `@`, and a domain of at least two labels whose last is a
 * top-level domain (letters, or an IDN's `xn--` form). Quoted local parts and address literals are refused: nobody
 * signs up with them, and every mail server takes what this allows.
 */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
export const EMAIL_PATTERN = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*@(?:${LABEL}\\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$`);

export const EmailSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(EMAIL_LIMITS.address, `must be at most ${EMAIL_LIMITS.address} characters`)
  .regex(EMAIL_PATTERN, 'must be an email address, like name@example.com')
  .refine((address) => address.indexOf('@') <= EMAIL_LIMITS.localPart, {
    message: `must have at most ${EMAIL_LIMITS.localPart} characters before the @`,
  });

/** How an address is kept unique: one account per address, whatever its case. */
export function emailKeyOf(address: string): string {
  return address.trim().toLowerCase();
}

/** A link's secret: 32 random bytes, base64url (43 characters). */
export const AccountTokenSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(100, 'must be at most 100 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'is not a link token: copy the whole link from the mail');

// ─── your address ───

/** Your address as the account holds it, and a change of address waiting for its links. */
export const EmailStatusSchema = z
  .object({
    /** Null until you give one. */
    email: z.string().nullable(),
    /** When you followed the verification link; null while unverified. Game mail waits for it. */
    verifiedAt: TimestampSchema.nullable(),
    /** Mail to it bounced or was refused for good: nothing more is sent until you give an address again. */
    undeliverableAt: TimestampSchema.nullable(),
    undeliverableReason: z.string().nullable(),
    /** A change of address asked for: made when both links are followed (only the new one's when the old was never verified). */
    pendingChange: z
      .object({
        newEmail: z.string(),
        /** Whether the link sent to each address has been followed. */
        oldConfirmed: z.boolean(),
        newConfirmed: z.boolean(),
        expiresAt: TimestampSchema,
      })
      .nullable(),
  })
  .meta({ id: 'EmailStatus' });
export type EmailStatus = z.infer<typeof EmailStatusSchema>;

/** Give an address or change it; the current password proves it is you. */
export const ChangeEmailRequestSchema = z
  .object({
    email: EmailSchema,
    currentPassword: z.string().min(1, 'is required').max(256, 'must be at most 256 characters'),
  })
  .meta({ id: 'ChangeEmailRequest' });
export type ChangeEmailRequest = z.input<typeof ChangeEmailRequestSchema>;

// ─── the links ───

/** A link from a verification or change-of-address mail. */
export const ConfirmEmailRequestSchema = z.object({ token: AccountTokenSchema }).meta({ id: 'ConfirmEmailRequest' });
export type ConfirmEmailRequest = z.input<typeof ConfirmEmailRequestSchema>;

/**
 * What following a link did: `verified` (the address is verified), `changed` (both links of a change followed: the
 * address is the new one), or `change-pending` (one of the two followed; `waitingFor` names the other).
 */
export const EmailConfirmedSchema = z
  .object({
    outcome: z.enum(['verified', 'changed', 'change-pending']),
    email: z.string(),
    waitingFor: z.enum(['old', 'new']).nullable(),
  })
  .meta({ id: 'EmailConfirmed' });
export type EmailConfirmed = z.infer<typeof EmailConfirmedSchema>;

// ─── password reset ───

/** Either the account's address or its username; the answer is the same whether or not either exists. */
export const PasswordResetRequestSchema = z
  .object({
    email: EmailSchema.optional(),
    // As at log-in: whatever was typed, looked up by its lower-cased form.
    username: z.string().trim().min(1, 'is required').max(24, 'must be at most 24 characters').optional(),
  })
  .refine((body) => (body.email === undefined) !== (body.username === undefined), {
    path: ['email'],
    message: 'give either your email address or your username (one of the two)',
  })
  .meta({ id: 'PasswordResetRequest' });
export type PasswordResetRequest = z.input<typeof PasswordResetRequestSchema>;

/** The same answer whatever exists: a link is mailed if the account has a verified address. */
export const PasswordResetAcceptedSchema = z
  .object({ message: z.string(), expiresInMinutes: z.number().int().positive() })
  .meta({ id: 'PasswordResetAccepted' });
export type PasswordResetAccepted = z.infer<typeof PasswordResetAcceptedSchema>;

/** A new password: the same limits as at sign-up (accounts.ts's PasswordSchema, which imports this file for the address). */
const NewPasswordSchema = z
  .string()
  .min(PASSWORD_LENGTH.min, `must be at least ${PASSWORD_LENGTH.min} characters`)
  .max(PASSWORD_LENGTH.max, `must be at most ${PASSWORD_LENGTH.max} characters`);

export const ConfirmPasswordResetRequestSchema = z
  .object({ token: AccountTokenSchema, newPassword: NewPasswordSchema })
  .meta({ id: 'ConfirmPasswordResetRequest' });
export type ConfirmPasswordResetRequest = z.input<typeof ConfirmPasswordResetRequestSchema>;

/** The password is set; every browser session of the account has ended (API tokens are kept). Log in with it. */
export const PasswordResetDoneSchema = z.object({ username: z.string(), sessionsEnded: z.number().int().nonnegative() }).meta({ id: 'PasswordResetDone' });
export type PasswordResetDone = z.infer<typeof PasswordResetDoneSchema>;
