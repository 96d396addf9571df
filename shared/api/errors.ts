import { z } from 'zod';

/**
 * Every error the API returns, whatever the status (4xx or 5xx), has this body.
 * `code` is stable and meant for programs; `message` is for people.
 */
export const ApiErrorSchema = z
  .object({
    error: z.object({
      code: z.string().describe('Stable machine-readable code, e.g. `validation_failed`, `username_taken`'),
      message: z.string().describe('What went wrong, in words, naming the offending field'),
      /** For `validation_failed`: one entry per problem. */
      issues: z.array(z.object({ path: z.string().describe('e.g. `body.username`'), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'ApiError' });
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** The codes the server uses (more may be added; treat unknown ones by their HTTP status). */
export const API_ERROR_CODES = [
  'validation_failed', // 400: the request does not match its schema
  'bad_request', // 400: e.g. malformed JSON
  'unauthenticated', // 401: log in or send a valid API token
  'invalid_credentials', // 401: wrong username or password
  'wrong_password', // 403: a change of password whose current password is wrong
  'csrf_failed', // 403: cookie-authenticated write without a valid X-CSRF-Token header
  'forbidden', // 403
  'invalid_invite_code', // 403
  'origin_not_allowed', // 403: websocket opened with a cookie from another site
  'not_found', // 404
  'username_taken', // 409
  'email_taken', // 409: another account has this email address
  'email_missing', // 409: the account has no email address to verify
  'email_already_verified', // 409: the address is verified already
  'token_invalid', // 400: a mail link's token that does not exist, or was replaced by a newer one
  'token_used', // 410: a mail link that has been used already (each works once)
  'token_expired', // 410: a mail link past its time
  'already_joined', // 409
  'not_joinable', // 409: the game is not waiting for players
  'game_full', // 409
  'game_not_full', // 409
  'not_a_player', // 409
  'conflict', // 409
  'game_not_active', // 409: the game has not started, or has ended
  'phase_closed', // 409: orders or changes for a phase that is no longer open
  'nothing_to_order', // 409: the power has no orders to give in this phase
  'game_paused', // 409: the game master has paused the clock
  'orders_rejected', // 422: some orders were refused by the rules; nothing was stored (see `orders`)
  'action_refused', // 422: a battle's rules refused the action; nothing changed (`refusal.code` is the ruleset's reason, e.g. `not_your_ship`)
  'loan_refused', // 422: the rules refuse the loan (reason in the message)
  'deadline_out_of_range', // 422
  'import_invalid', // 422: the export does not reproduce (reason in the message)
  'engine_version_mismatch', // 422: a phase recorded under another engine version adjudicates differently here
  'press_not_allowed', // 403: the game's press rules forbid that message
  'not_game_master', // 403: only the game master may do that
  'game_master_plays', // 403: a game master who also plays may not do that (e.g. enter orders for another power)
  'result_final', // 409: the game's result is final; it can no longer be re-opened
  'proposal_closed', // 409: the game master's request was answered, withdrawn, or lapsed as the game moved on
  'clock_vote_open', // 409: the game has an open vote on its clock already (one at a time)
  'clock_vote_closed', // 409: the clock vote has passed, failed or been withdrawn
  'already_voted', // 409: your power has voted on this already
  'not_invited', // 409: there is no invitation to run this game for you
  'too_many_webhooks', // 409: the game has as many webhooks as it may (delete one first)
  'seat_rule_unmet', // 403: the game asks more of whoever joins or takes a seat (deadlines kept, finished games); the message names the rule
  'seat_not_offered', // 409: the seat is not offered to new players (never, or no longer)
  'request_closed', // 409: the request to take a seat was decided or withdrawn already
  'payload_too_large', // 413
  'uri_too_long', // 414: a path parameter is too long
  'unsupported_media_type', // 415
  'upgrade_required', // 426: /api/live is a websocket
  'variant_unavailable', // 422: the variant's map data is not installed
  'rate_limited', // 429
  'internal_error', // 500
  'stored_data_invalid', // 500: a value stored in the database does not match its schema (the message names table, column and row)
  'unviewed_response', // 500, in tests only: a route answered with a body no view made (server/views/route-views.ts)
  'database_unavailable', // 503: retry later
  'shutting_down', // 503
  'server_busy', // 503: too many imports or exports at once; retry after Retry-After
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
