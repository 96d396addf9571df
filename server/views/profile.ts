/**
 * A player's public page as a viewer may see it: only what the viewer may already know (access/policy.ts). A game
 * only where the viewer may see the game, as the lists show it (views/game.ts); a seat in it only where the game's
 * own page would name its player to the viewer (an anonymous game's, once its result is final; before that to the
 * player, and a game master or administrator who does not play in it). Totals are counted over the games shown.
 */
import type { GameOutcome } from '../../shared/api/games.ts';
import type { GameResult, ProfileGame, UserProfile } from '../../shared/api/profiles.ts';
import type { Auth } from '../auth/caller.ts';
import { mayView, revealsNames, shownUser } from '../access/policy.ts';
import { gameSummaryView, type LoadedGame } from './game.ts';
import { playerStatusOnWire } from './phase.ts';
import { viewed } from './viewed.ts';

type Viewer = Auth['user'] | null;
type Seat = LoadedGame['players'][number];
/** The user's part in a game as the viewer may know it: the seat they hold, or the one they held last (handed on since); none, running it. */
export type Part = { game: LoadedGame; seat: Seat | undefined; replaced: boolean };

/** What the viewer may know of `user`'s part in `game`; null: not even that the game exists, or that they are in it. */
export function partIn(game: LoadedGame, user: { id: string; username: string }, viewer: Viewer): Part | null {
  if (!mayView(game, viewer)) return null;
  const held = game.players.find((player) => player.userId === user.id);
  const handedOn = held ? undefined : game.players.find((player) => player.formerUserIds.includes(user.id));
  const seat = held ?? handedOn;
  // A seat is told only where the game's page would name its player to this viewer.
  if (seat && !shownUser(revealsNames(game, viewer), viewer, user)) return game.gameMasterId === user.id ? { game, seat: undefined, replaced: false } : null;
  return { game, seat, replaced: !!handedOn };
}

/** A victory or a concession wins for the powers it names; a draw is shared by those it names; the others lost. */
function resultOf(outcome: GameOutcome, power: string): GameResult {
  if (!outcome.powers.includes(power)) return 'lost';
  return outcome.kind === 'draw' ? 'drew' : 'won';
}

function profileGameView({ game, seat, replaced }: Part, viewer: Viewer): ProfileGame {
  return {
    game: gameSummaryView(game, viewer),
    role: seat ? 'player' : 'game-master',
    power: seat?.power ?? null,
    playerStatus: seat && !replaced ? playerStatusOnWire(seat.status) : null,
    replaced,
    result: seat?.power && !replaced && game.status === 'finished' && game.outcome ? resultOf(game.outcome, seat.power) : null,
  };
}

/** The page: the user, their parts the viewer may know of (newest first), totals over those, and the deadlines they kept there. */
export function userProfileView(
  user: { id: string; username: string; createdAt: Date },
  parts: Part[],
  reliability: UserProfile['reliability'],
  viewer: Viewer,
): UserProfile {
  const games = parts.map((part) => profileGameView(part, viewer));
  const played = games.filter((entry) => entry.role === 'player');
  return viewed({
    user: { id: user.id, username: user.username },
    memberSince: user.createdAt.toISOString(),
    games,
    totals: {
      playing: played.filter((entry) => entry.game.status === 'active' && !entry.replaced).length,
      finished: played.filter((entry) => entry.game.status === 'finished' && !entry.replaced).length,
      won: played.filter((entry) => entry.result === 'won').length,
      drawn: played.filter((entry) => entry.result === 'drew').length,
      lost: played.filter((entry) => entry.result === 'lost').length,
      eliminated: played.filter((entry) => entry.playerStatus === 'eliminated').length,
      replaced: played.filter((entry) => entry.replaced).length,
    },
    reliability,
  });
}
