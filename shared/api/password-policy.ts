/**
 * What a new password must be, in plain values without zod, so that the sign-up page can say it beside the field
 * without loading the schemas into the first scripts. The server also refuses a password that is easy to guess
 * (server/accounts/password-policy.ts: a zxcvbn score of 3 of 4, not built from the username), which no schema can
 * check: the estimator's dictionaries stay on the server.
 */

/** A new password's length. Long passphrases are welcome; the upper bound only stops absurd request bodies. */
export const PASSWORD_LENGTH = { min: 8, max: 256 } as const;

/** The policy in one line, as the sign-up and account pages say it beside the field. */
export const PASSWORD_POLICY = `At least ${PASSWORD_LENGTH.min} characters and hard to guess; a few uncommon words work best`;
