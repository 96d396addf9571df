/** The `games` table's JSON columns: how a finished game ended (null until it has), and its campaign (null for an ordinary game). */
import { GameOutcomeSchema, type CorrespondenceSettings, type GameOutcome } from '../../../shared/api/games.ts';
import { CampaignSchema, type Campaign } from '../../../shared/api/campaign.ts';
import { nullable, parser, storedRows, storedValues, type Parsed } from './stored.ts';

const columns = { outcome: nullable(parser(GameOutcomeSchema)), campaign: nullable(parser(CampaignSchema)) };

/**
 * A game row (of any selection with its id), its outcome parsed. Small: parsed each time a game is read, where it
 * enters memory (play/context.ts, views/game.ts, the order batches' own read in play/stored-game.ts).
 */
export const gameOf = storedRows('games', columns);
export const gameValues = storedValues<{ outcome: GameOutcome | null; campaign: Campaign | null }>();

/** A game row `R` as `gameOf` gives it. */
export type StoredGame<R> = Parsed<R, typeof columns>;

/** A game's correspondence settings (shared/api/games.ts) as its columns hold them. */
export function correspondenceColumns(settings: CorrespondenceSettings) {
  return {
    graceSeconds: settings.grace.seconds,
    gracePerPlayer: settings.grace.perPlayer,
    deadlineClock: settings.deadlineClock?.time ?? null,
    deadlineTimeZone: settings.deadlineClock?.timeZone ?? null,
    deadlineDaysOff: settings.deadlineClock?.daysOff ?? [],
    honourVacations: settings.honourVacations,
    voteRule: settings.voteRule,
    seatApproval: settings.seatApproval,
    minDeadlinesKept: settings.minDeadlinesKept,
    minFinishedGames: settings.minFinishedGames,
  };
}

type CorrespondenceColumns = ReturnType<typeof correspondenceColumns>;

/** The settings back from a game row's columns (a clock needs both its time and its zone). */
export function correspondenceOf(game: CorrespondenceColumns): CorrespondenceSettings {
  return {
    grace: { seconds: game.graceSeconds, perPlayer: game.gracePerPlayer },
    deadlineClock:
      game.deadlineClock !== null && game.deadlineTimeZone !== null
        ? { time: game.deadlineClock, timeZone: game.deadlineTimeZone, daysOff: game.deadlineDaysOff }
        : null,
    honourVacations: game.honourVacations,
    voteRule: game.voteRule,
    seatApproval: game.seatApproval,
    minDeadlinesKept: game.minDeadlinesKept,
    minFinishedGames: game.minFinishedGames,
  };
}
