/** Battles in words: the clock, who holds a seat, whose turn it is, a list's badge. */
import type { BattleSeat, BattleSummary, BattleTurn } from './types.ts';
import { plural } from '../lib/format.ts';

export function clockWords(clock: BattleSummary['clock']): string {
  if (clock.pace === 'live') return `live, ${clock.minutesPerTurn} min a turn`;
  return `by correspondence, ${clock.hoursPerTurn} h a turn`;
}

export const sideNameIn = (sides: readonly { id: string; name: string }[], side: string | null): string =>
  side === null ? '' : (sides.find((s) => s.id === side)?.name ?? side);

export function seatHolder(seat: BattleSeat): string {
  if (seat.player === 'computer') return 'the computer';
  return seat.user ? seat.user.username : seat.hidden ? 'a player, hidden' : 'open';
}

/** Who must act, said to the viewer ("Your turn", "Waiting for Macedon"). */
export function turnWords(turn: BattleTurn, sides: readonly { id: string; name: string }[], mine: string | null): string {
  const name = (id: string) => sideNameIn(sides, id);
  if (turn.kind === 'over') return 'The battle is over';
  if (turn.kind === 'side') return turn.side === mine ? 'Your turn' : `Waiting for ${name(turn.side)}`;
  if (mine && turn.waiting.includes(mine)) {
    const others = turn.waiting.filter((s) => s !== mine);
    return `Plot your turn${others.length ? ` (${others.map(name).join(' and ')} still to plot too)` : ''}`;
  }
  return turn.waiting.length ? `Waiting for ${turn.waiting.map(name).join(' and ')} to plot` : 'The turn is being resolved';
}

/** A battle's state or one's part in it, for its card. */
export function battleBadge(b: BattleSummary): string {
  if (b.status === 'finished') return 'Finished';
  if (b.status === 'cancelled') return 'Abandoned';
  const open = b.seats.filter((s) => s.player === 'human' && s.user === null && !s.hidden).length;
  if (b.joined) return b.status === 'forming' ? 'Seated' : 'Fighting';
  if (b.status === 'forming') return `${plural(open, 'seat')} free`;
  return 'Being fought';
}

export const RULESET_NAMES: Record<string, string> = {
  classis: 'Classis',
  'ship-to-ship': 'Ship to ship',
  'diadochi-naval': 'Diadochi Naval Rules',
  'oi-navarcoi': 'Oi Navarcoi!',
};
