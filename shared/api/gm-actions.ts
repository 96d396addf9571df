/**
 * Every action the game master's log records: the server's tools, orders
 * entered for a power, and the import that created a game. (Entries imported
 * from another server's log keep whatever names it used.) The server logs
 * only these; the web client has a sentence for each. Free of zod, so that
 * the client's first load can read it without the schemas.
 */
export const GM_ACTIONS = ['process-now', 'change-deadline', 'pause', 'resume', 'replace-player', 'civil-disorder', 'enter-orders', 'rollback', 'end-game', 'import'] as const;
export type GmActionKind = (typeof GM_ACTIONS)[number];
