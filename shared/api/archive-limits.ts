/**
 * The limits of the archive, in one place: what an import may hold
 * (`POST /api/games/import`, checked by ImportGameRequestSchema and before its
 * body is parsed), and how many imports and exports one server process handles
 * at once. A module free of zod, so that the client and the documentation can
 * state them.
 *
 * The body limits keep an import within the server's heap (`npm start` runs
 * Node with `--max-old-space-size=160`): JSON.parse turns each array, object or
 * string of the text into 20 to 40 bytes of heap whatever its size in the text
 * (a body of empty arrays, `[[],[],…]`, costs about 14 times its size), and each
 * different key into more. Counting them while the body is scanned, before it is
 * parsed, bounds that: at most `jsonItems` values and keys, `jsonKeys` different
 * keys, `bodyBytes` of text (tests/server/import-memory.test.ts measures it).
 */
export const IMPORT_LIMITS = {
  /** The request body, in bytes (413 past it). */
  bodyBytes: 4 * 1024 * 1024,
  /** JSON values and object keys in the body, and different keys, counted before it is parsed (413 past them). */
  jsonItems: 300_000,
  jsonKeys: 2000,
  /** Imports read and checked at once by one server process; more wait for their turn (their bodies unread). */
  concurrent: 1,
  /** Imports that may wait for their turn; past that, and after waiting `maxWaitMs`, 503 `server_busy` with Retry-After. */
  maxWaiting: 4,
  maxWaitMs: 30_000,

  phases: 5000,
  discardedPhases: 1000,
  /** Each is a PUT …/orders: its text as that route accepts it (OrdersInputSchema), its orders as structured ones. */
  submissionsPerPhase: 1000,
  submissionTextChars: 20_000,
  ordersPerSubmission: 200,
  /** Any string of a submitted order (as given, canonical). */
  orderTextChars: 500,
  /** A phase's submissions together: characters as JSON, and values and keys. */
  submissionCharsPerPhase: 4 * 1024 * 1024,
  submissionItemsPerPhase: 100_000,
  /**
   * What the engine made of a phase (positions before and after, loan actions, orders, results, events, disbanded
   * units): any string (a result's reason is the longest), any list or record, and all of it as JSON.
   */
  reasonChars: 1000,
  entriesPerPhase: 500,
  phaseChars: 512 * 1024,
  phaseItems: 20_000,
  press: 10_000,
  /** As POST …/press accepts (PRESS_LIMITS). */
  pressBodyChars: 4000,
  pressRecipients: 24,
  loans: 5000,
  votes: 200,
  gmLog: 5000,
  /** A game-master log entry's free-form `details`: as JSON, at most this many characters, levels and values. */
  detailsChars: 256 * 1024,
  detailsDepth: 8,
  detailsItems: 30_000,
  /**
   * A campaign game's battles fought for its seas (each a record its ruleset's engine replays): how many in all, the
   * actions of one, and one as JSON (characters, values and keys).
   */
  battles: 500,
  battleActions: 5000,
  battleChars: 1024 * 1024,
  battleItems: 100_000,
  /** Timestamps may be this far ahead of the importing server's clock. */
  clockSkewMs: 5 * 60_000,
} as const;

/** The import's body limit (IMPORT_LIMITS.bodyBytes). */
export const IMPORT_BODY_LIMIT = IMPORT_LIMITS.bodyBytes;

/**
 * Exports (`GET /api/games/{id}/export`, `…/export/datc`) are written as they are
 * read, a page of rows at a time, so that one takes little memory whatever the
 * game's size; these many stream at once per server process, `maxWaiting` more
 * wait up to `maxWaitMs` for their turn, others get 503 `server_busy` with
 * Retry-After. One whose reader takes nothing for `stallMs` is cut off.
 */
export const EXPORT_LIMITS = {
  concurrent: 2,
  maxWaiting: 16,
  maxWaitMs: 10_000,
  stallMs: 30_000,
  /** Rows read at a time. */
  phasesPerPage: 5,
  submissionsPerPage: 20,
  logEntriesPerPage: 5,
  discardedPerPage: 1,
  /** Press, loans. */
  rowsPerPage: 200,
} as const;
