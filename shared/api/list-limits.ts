/**
 * How many games one list request may ask for. A module of its own, free of
 * zod, so that the lobby (which reads lists again when they change) can use it
 * without the schemas.
 */
export const GAMES_PER_PAGE = 20;
export const MOST_GAMES_PER_LIST = 100;
