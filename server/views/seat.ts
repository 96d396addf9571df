/**
 * Seats offered to new players as a viewer may see them: the lobby's list (only games the viewer may see,
 * access/policy.ts), the game's offers with the requests to take them (every request to the game master, one's
 * own to everyone else), and what a request did. Names only where the game reveals them to the viewer: an
 * anonymous game's seat names nobody, and its requesters are named to the game master and to themselves only.
 */
import type { GameSeatOffers, OpenSeat, SeatRequest, SeatRequestOutcome } from '../../shared/api/seats.ts';
import { actsAsGameMaster, revealsNames, shownUser, type GameFacts, type Viewer } from '../access/policy.ts';
import { viewed } from './viewed.ts';

/** A seat's position as the service computed it from the engine (null before the game has a phase). */
export type SeatPosition = OpenSeat['position'];

type OfferedSeat = { power: string | null; replacementWantedAt: Date | null; user: { id: string; username: string } | null };
type ShownGame = GameFacts & {
  id: string;
  name: string;
  variantId: string;
  anonymous: boolean;
  pausedAt: Date | null;
  seatApproval: boolean;
  minDeadlinesKept: number;
  minFinishedGames: number;
};
export type SeatRequestRow = {
  id: string;
  userId: string;
  status: SeatRequest['status'];
  createdAt: Date;
  decidedAt: Date | null;
  user: { id: string; username: string };
};

const rulesOf = (game: ShownGame) => ({ minDeadlinesKept: game.minDeadlinesKept, minFinishedGames: game.minFinishedGames });

/** One offered seat in the lobby's list. */
export function openSeatView(
  game: ShownGame,
  seat: OfferedSeat,
  position: SeatPosition,
  deadlineAt: Date | null,
  yourRequest: SeatRequestRow | null,
  viewer: Viewer,
): OpenSeat {
  return {
    gameId: game.id,
    gameName: game.name,
    variant: game.variantId,
    power: seat.power ?? '',
    offeredAt: (seat.replacementWantedAt ?? new Date(0)).toISOString(),
    private: game.private,
    anonymous: game.anonymous,
    position,
    deadlineAt: deadlineAt?.toISOString() ?? null,
    paused: game.pausedAt !== null,
    approvalNeeded: game.seatApproval,
    rules: rulesOf(game),
    heldBy: shownUser(revealsNames(game, viewer), viewer, seat.user),
    yourRequest: yourRequest && { id: yourRequest.id, status: yourRequest.status, createdAt: yourRequest.createdAt.toISOString() },
  };
}

export function openSeatListView(seats: OpenSeat[], nextCursor: string | null) {
  return viewed({ seats, nextCursor });
}

/** A request as the viewer may see it: its user named to the game master (where names are theirs to see) and to the requester. */
export function seatRequestView(game: ShownGame, power: string, row: SeatRequestRow, viewer: Viewer): SeatRequest {
  const named = row.userId === viewer?.id || (actsAsGameMaster(game, viewer) && revealsNames(game, viewer));
  return {
    id: row.id,
    power,
    user: named ? { id: row.user.id, username: row.user.username } : null,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/** The game's offers and the requests this viewer may see (the service reads only those: all for the game master, else one's own). */
export function gameSeatOffersView(
  game: ShownGame,
  offers: { power: string; offeredAt: Date; position: SeatPosition }[],
  requests: { power: string; row: SeatRequestRow }[],
  viewer: Viewer,
): GameSeatOffers {
  const mayRead = (row: SeatRequestRow) => row.userId === viewer?.id || actsAsGameMaster(game, viewer);
  return viewed({
    gameId: game.id,
    approvalNeeded: game.seatApproval,
    rules: rulesOf(game),
    offers: offers.map((offer) => ({ power: offer.power, offeredAt: offer.offeredAt.toISOString(), position: offer.position })),
    requests: requests.filter(({ row }) => mayRead(row)).map(({ power, row }) => seatRequestView(game, power, row, viewer)),
  });
}

export function seatRequestOutcomeView(game: ShownGame, power: string, row: SeatRequestRow, handedOver: boolean, viewer: Viewer): SeatRequestOutcome {
  return viewed({ request: seatRequestView(game, power, row, viewer), handedOver });
}
