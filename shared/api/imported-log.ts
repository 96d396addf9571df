/**
 * How an imported game's log keeps what came from the export, apart from this
 * server's own record. A module free of zod, for the server and the client.
 *
 * - The import's own entry (action `import`, by the importer) keeps the names of
 *   the exported game's game master and players under `details.exported`
 *   (`{ gameMaster, players: { power: name } }`).
 * - Each entry copied from the export's log has `details.imported: true`, no
 *   actor on this server, and under `details.exported` who acted in the exported
 *   game and the names it gave (`{ actor, users }`).
 *
 * Those names are of the other server's users, not this one's. Like
 * `details.users`, `details.exported` is left out for viewers the game hides
 * names from (an anonymous game, until it ends).
 */
export const EXPORTED_NAMES_KEY = 'exported';
export const IMPORTED_ENTRY_KEY = 'imported';

/** What an entry copied from an export says of its origin. */
export type ExportedOrigin = { actor: string | null; users: Record<string, unknown> | null };
