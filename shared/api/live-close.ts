/**
 * Close codes of the websocket at /api/live beyond RFC 6455's own (4000–4999
 * belong to the application). A module of its own, free of zod, so that the
 * web client's first load can read it without the schemas.
 */
export const LIVE_CLOSE = {
  /** The session the socket was opened with has ended (log-out, expiry, a revoked API token): log in again. */
  sessionEnded: 4401,
} as const;
