import { describe, expect, test } from 'vitest';
import { assignPowers, seededRandom, shuffle } from '../../server/games/power-assignment.ts';

const powers = ['Austria', 'England', 'France', 'Germany', 'Italy', 'Russia', 'Turkey'];
const seats = (preferences: string[][]) => preferences.map((list, i) => ({ playerId: `p${i}`, preferences: list }));

describe('seeded shuffle', () => {
  test('the same seed gives the same order, and every item once', () => {
    const first = shuffle(powers, seededRandom(7));
    expect(shuffle(powers, seededRandom(7))).toEqual(first);
    expect([...first].sort()).toEqual(powers);
    const orders = new Set([1, 2, 3, 4, 5].map((seed) => shuffle(powers, seededRandom(seed)).join()));
    expect(orders.size).toBeGreaterThan(1);
  });

  test('is roughly uniform', () => {
    const random = seededRandom(1);
    const firstPlace = new Map<string, number>();
    for (let i = 0; i < 7000; i++) {
      const first = shuffle(powers, random)[0];
      firstPlace.set(first, (firstPlace.get(first) ?? 0) + 1);
    }
    for (const power of powers) expect(firstPlace.get(power)).toBeGreaterThan(850);
  });
});

describe('assigning powers', () => {
  test('random: a permutation, reproducible with a seed', () => {
    const players = seats(powers.map(() => []));
    const assignment = assignPowers(players, powers, 'random', seededRandom(3));
    expect([...assignment.values()].sort()).toEqual(powers);
    expect(assignPowers(players, powers, 'random', seededRandom(3))).toEqual(assignment);
  });

  test('preferences: a clash goes to one of the two, the other gets their next choice', () => {
    const players = seats([['France', 'England'], ['France', 'Germany'], [], [], [], [], []]);
    const winners = new Set<string | undefined>();
    for (let seed = 0; seed < 20; seed++) {
      const assignment = assignPowers(players, powers, 'preferences', seededRandom(seed));
      expect([...assignment.values()].sort()).toEqual(powers);
      const pair = [assignment.get('p0'), assignment.get('p1')];
      expect([
        ['France', 'Germany'],
        ['England', 'France'],
      ]).toContainEqual(pair);
      winners.add(pair[0] === 'France' ? 'p0' : 'p1');
    }
    expect(winners.size).toBe(2); // the order is random, so either may win
  });

  test('refuses a player count that does not match the powers', () => {
    expect(() => assignPowers(seats([[]]), powers, 'random', seededRandom(1))).toThrow(/7 powers to 1 players/);
  });
});
