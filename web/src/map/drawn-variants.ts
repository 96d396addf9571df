/**
 * The variants whose map this client can draw: the board (GameView, Sandbox)
 * imports their `maps/<variant>/map.svg`. A game in another variant the engine
 * ships is still played through the API (scripts, bots); the client shows its
 * details page and says why there is no board, and does not offer the variant
 * for new games.
 */
const DRAWN: ReadonlySet<string> = new Set(['diadochi-v']);

export const canDraw = (variant: string): boolean => DRAWN.has(variant);
