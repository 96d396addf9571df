/**
 * Who plays which power when a game starts.
 * - random: a uniform shuffle of the powers.
 * - preferences: random serial dictatorship — players in a random order each
 *   take the first still-free power of their preference list; players whose
 *   list is exhausted get a random free power. Fair in expectation, and no one
 *   gains by lying about their preferences.
 */
import { mulberry32 } from '../../shared/random.ts';

export type Seat = { playerId: string; preferences: readonly string[] };

/** Fisher–Yates with the given uniform [0, 1) source. */
export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [result[i], result[j]] = [result[j], result[i]];
  }
  return result;
}

/** The seeded generator for reproducible assignments in tests and replays. */
export const seededRandom = mulberry32;

export function assignPowers(seats: readonly Seat[], powers: readonly string[], mode: 'random' | 'preferences', random: () => number): Map<string, string> {
  if (seats.length !== powers.length) {
    throw new Error(`cannot assign ${powers.length} powers to ${seats.length} players`);
  }
  const assignment = new Map<string, string>();
  if (mode === 'random') {
    shuffle(powers, random).forEach((power, i) => assignment.set(seats[i].playerId, power));
    return assignment;
  }
  const free = new Set(powers);
  const unplaced: Seat[] = [];
  for (const seat of shuffle(seats, random)) {
    const choice = seat.preferences.find((power) => free.has(power));
    if (choice === undefined) {
      unplaced.push(seat);
    } else {
      free.delete(choice);
      assignment.set(seat.playerId, choice);
    }
  }
  shuffle([...free], random).forEach((power, i) => assignment.set(unplaced[i].playerId, power));
  return assignment;
}
