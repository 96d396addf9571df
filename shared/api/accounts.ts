import { z } from 'zod';
import { IdSchema, TimestampSchema, UserRefSchema } from './common.ts';
import { PASSWORD_LENGTH } from './password-policy.ts';
import { EmailSchema } from './account-mail.ts';

export const UsernameSchema = z
  .string()
  .trim()
  .min(3, 'must be at least 3 characters')
  .max(24, 'must be at most 24 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, _ and -');

export const PasswordSchema = z
  .string()
  .min(PASSWORD_LENGTH.min, `must be at least ${PASSWORD_LENGTH.min} characters`)
  .max(PASSWORD_LENGTH.max, `must be at most ${PASSWORD_LENGTH.max} characters`);

export const RegisterRequestSchema = z
  // The email address is optional: given, it is mailed a verification link (shared/api/account-mail.ts).
  .object({ username: UsernameSchema, password: PasswordSchema, email: EmailSchema.optional() })
  .refine((body) => body.password.toLowerCase() !== body.username.toLowerCase(), {
    path: ['password'],
    message: 'must not be the username',
  })
  .meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.input<typeof RegisterRequestSchema>;

export const LoginRequestSchema = z
  .object({
    username: z.string().trim().min(1, 'is required').max(24, 'must be at most 24 characters'),
    password: z.string().min(1, 'is required').max(256, 'must be at most 256 characters'),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.input<typeof LoginRequestSchema>;

/** A new password for the logged-in user, who proves it is them with the current one. */
export const ChangePasswordRequestSchema = z
  .object({
    currentPassword: z.string().min(1, 'is required').max(256, 'must be at most 256 characters'),
    newPassword: PasswordSchema,
  })
  .refine((body) => body.newPassword !== body.currentPassword, {
    path: ['newPassword'],
    message: 'must differ from the current password',
  })
  .meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequestSchema>;

/** The password is changed; the user's other browser sessions have ended (API tokens are kept). */
export const PasswordChangedSchema = z.object({ otherSessionsEnded: z.number().int().nonnegative() }).meta({ id: 'PasswordChanged' });
export type PasswordChanged = z.infer<typeof PasswordChangedSchema>;

export const CurrentUserSchema = UserRefSchema.extend({
  createdAt: TimestampSchema,
  /** A site administrator: game master of every game (set by the server's operator, never through the API). */
  isAdmin: z.boolean(),
  /** The time zone chosen for showing times (PUT /api/auth/preferences); null: the browser's own. */
  timeZone: z.string().nullable(),
}).meta({ id: 'CurrentUser' });

/**
 * Returned by register, log-in and who-am-I. `csrfToken` must be sent back as the
 * `X-CSRF-Token` header on every cookie-authenticated POST/PUT/PATCH/DELETE; it is
 * null when the request was authenticated with an API token (no CSRF risk).
 */
export const SessionInfoSchema = z
  .object({
    user: CurrentUserSchema,
    authenticatedBy: z.enum(['cookie', 'api_token']),
    csrfToken: z.string().nullable(),
  })
  .meta({ id: 'SessionInfo' });
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/** Who-am-I for a visitor: the request carried no session (nor API token), or its cookie's session has ended. */
export const VisitorSessionSchema = z.object({ user: z.null(), authenticatedBy: z.null(), csrfToken: z.null() }).meta({ id: 'VisitorSession' });

/**
 * `GET /api/auth/me`: the session, or a visitor's answer (`user: null`). Not being logged in is an answer, not an
 * error; an API token that is invalid or revoked is still refused (401), as on every route.
 */
export const WhoAmISchema = z.union([SessionInfoSchema, VisitorSessionSchema]).meta({ id: 'WhoAmI' });
export type WhoAmI = z.infer<typeof WhoAmISchema>;

export const CreateApiTokenRequestSchema = z
  .object({ name: z.string().trim().min(1, 'is required').max(64, 'must be at most 64 characters') })
  .meta({ id: 'CreateApiTokenRequest' });

export const ApiTokenSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    createdAt: TimestampSchema,
    /** Equal to createdAt until the token's first use; after that, to within 5 minutes. */
    lastUsedAt: TimestampSchema.describe("Equal to createdAt until the token's first use (never used); after that, the last use to within 5 minutes"),
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** The secret is shown once, at creation: send it as `Authorization: Bearer <token>`. */
export const CreatedApiTokenSchema = ApiTokenSchema.extend({ token: z.string() }).meta({ id: 'CreatedApiToken' });
export const ApiTokenListSchema = z.object({ tokens: z.array(ApiTokenSchema) }).meta({ id: 'ApiTokenList' });
export const TokenIdParamsSchema = z.object({ tokenId: IdSchema });
