/** The `games` table's JSON column: how a finished game ended (null until it has). */
import { GameOutcomeSchema, type GameOutcome } from '../../../shared/api/games.ts';
import { nullable, parser, storedRows, storedValues, type Parsed } from './stored.ts';

const columns = { outcome: nullable(parser(GameOutcomeSchema)) };

/**
 * A game row (of any selection with its id), its outcome parsed. Small: parsed each time a game is read, where it
 * enters memory (play/context.ts, views/game.ts, the order batches' own read in play/stored-game.ts).
 */
export const gameOf = storedRows('games', columns);
export const gameValues = storedValues<{ outcome: GameOutcome | null }>();

/** A game row `R` as `gameOf` gives it. */
export type StoredGame<R> = Parsed<R, typeof columns>;
