/**
 * The game master as a recipient in a message's `to`, on the wire, in the
 * database (stored among PressMessage.recipients) and in exports. It cannot be
 * a power: power ids start with a capital letter and hold only letters and
 * hyphens (PowerIdSchema, and the variant schema's PowerId), never "@".
 * A module of its own, free of zod, so that the web client's first load can
 * read it without the schemas.
 */
export const GAME_MASTER_RECIPIENT = '@gm';
