import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../shared/naval/classis/actions.ts';
import { classis, classisScenarios } from '../../shared/naval/classis/index.ts';
import type { Setup } from '../../shared/naval/classis/setup.ts';
import type { State } from '../../shared/naval/classis/state.ts';
import { commitmentOf, streamDice } from '../../shared/naval/dice.ts';
import { type Hex, hexKey, neighbours } from '../../shared/naval/hex.ts';
import { type BattleRecord, verify } from '../../shared/naval/record.ts';
import type { LogLine } from '../../shared/naval/ruleset.ts';

const duel = classis.setupSchema.parse(classisScenarios['training-duel']);

/** A small seeded generator for the players' own choices (never the battle's dice). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}

type Player = (s: State, side: string) => Action;
const randomPlayer =
  (random: () => number): Player =>
  (s, side) => {
    const legal = classis.legalActions(s, side);
    return legal[Math.floor(random() * legal.length)];
  };
const computer =
  (random: () => number): Player =>
  (s, side) =>
    classis.opponent(s, side, random);

/** A log as a record keeps it (the record's schema types its arrays as mutable). */
const asRecorded = (log: readonly LogLine[]): BattleRecord['start'] =>
  log.map((l) => ({ ...l, rolls: [...l.rolls], ...(l.table ? { table: { ...l.table } } : {}) }));

interface Played {
  state: State;
  record: BattleRecord;
  actions: number;
}

function play(setup: Setup, seed: string, players: Record<string, Player>, onState?: (s: State) => void): Played {
  const salt = `battle:${seed}`;
  const dice = streamDice(seed, salt);
  const started = classis.start(setup, dice);
  const record: BattleRecord = {
    format: 'naval-battle/1',
    ruleset: 'classis',
    setup,
    salt,
    commitment: commitmentOf(seed),
    seed,
    start: asRecorded(started.log),
    actions: [],
  };
  let state = started.state;
  onState?.(state);
  for (let i = 0; i < 5_000; i++) {
    const t = classis.turn(state);
    if (t.kind !== 'side') break;
    const action = players[t.side](state, t.side);
    const applied = classis.apply(state, t.side, action, dice);
    if (!applied.ok) throw new Error(`refused ${JSON.stringify(action)}: ${applied.error.message}`);
    record.actions.push({ side: t.side, action, log: asRecorded(applied.log) });
    state = applied.state;
    onState?.(state);
  }
  // Every die of the stream is on a log line, in order.
  const logged = [...record.start, ...record.actions.flatMap((a) => a.log)].flatMap((l) => l.rolls);
  expect(logged.map((r) => r.index)).toEqual(logged.map((_, i) => i));
  expect(dice.next).toBe(logged.length);
  return { state, record, actions: record.actions.length };
}

const noTwoInOneHex = (s: State) => {
  const afloat = s.ships.filter((x) => !x.sunk).map((x) => hexKey(x.hex));
  expect(new Set(afloat).size).toBe(afloat.length);
};

describe('random legal battles', () => {
  it('always end, never put two ships in one hex, and keep a valid state', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (n) => {
        const random = rng(n);
        const setup = { ...duel, turnLimit: 8 };
        let steps = 0;
        const { state } = play(setup, `property-seed-${n}-xxxxxxxx`, { rhodes: randomPlayer(random), cilicia: randomPlayer(random) }, (s) => {
          noTwoInOneHex(s);
          if (steps++ % 25 === 0) expect(classis.stateSchema.safeParse(s).success).toBe(true);
        });
        expect(classis.outcome(state)).not.toBeNull();
        expect(state.turn).toBeLessThanOrEqual(8);
      }),
      { numRuns: 12 },
    );
  });

  it('replay to the same log from the seed and the actions (verify), and a changed die or action is caught', () => {
    const random = rng(7);
    const { record } = play(duel, 'the-verify-seed-0001', { rhodes: computer(random), cilicia: randomPlayer(random) });
    expect(verify(classis, record)).toMatchObject({ ok: true, problems: [] });
    const json = JSON.parse(JSON.stringify(record)) as BattleRecord;
    const withRoll = json.actions.findIndex((a) => a.log.some((l) => l.rolls.length > 0));
    const line = json.actions[withRoll].log.find((l) => l.rolls.length > 0)!;
    line.rolls[0].value = (line.rolls[0].value % line.rolls[0].sides) + 1;
    const tampered = verify(classis, json);
    expect(tampered.ok).toBe(false);
    expect(tampered.problems[0]).toMatch(/logged .* the seed gives/);
    const moved = JSON.parse(JSON.stringify(record)) as BattleRecord;
    const first = moved.actions.findIndex((a) => (a.action as Action).kind !== 'end');
    moved.actions[first].action = { kind: 'end' };
    expect(verify(classis, moved).ok).toBe(false);
  });
});

/**
 * Whether a listed action does the same as `a` (a move by where it ends and how it faces: a route back to the
 * ship's own hex is the turn in place the list has; a command move ship by ship).
 */
function listed(s: State, legal: readonly Action[], a: Action): boolean {
  const end = (path: readonly Hex[], facing: number) => `${path.length ? hexKey(path[path.length - 1]) : '-'}:${facing}`;
  const startOf = (ship: string) => s.ships.find((x) => x.id === ship)!.hex;
  const endOf = (ship: string, path: readonly Hex[], facing: number) =>
    path.length && hexKey(path[path.length - 1]) === hexKey(startOf(ship)) ? `-:${facing}` : end(path, facing);
  const has = (pred: (l: Action) => boolean) => legal.some(pred);
  switch (a.kind) {
    case 'move':
      return has((l) => l.kind === 'move' && l.ship === a.ship && endOf(l.ship, l.path, l.facing) === endOf(a.ship, a.path, a.facing));
    case 'command-move':
      // Each ship's move on its own is listed (later ones were checked after the earlier ones moved).
      return (
        a.moves.length > 1 ||
        has(
          (l) =>
            l.kind === 'command-move' &&
            l.moves[0].ship === a.moves[0].ship &&
            endOf(l.moves[0].ship, l.moves[0].path, l.moves[0].facing) === endOf(a.moves[0].ship, a.moves[0].path, a.moves[0].facing),
        )
      );
    case 'command-backwater':
      return a.ships.length > 1 || has((l) => l.kind === 'command-backwater' && l.ships[0] === a.ships[0]);
    default:
      return has((l) => JSON.stringify(l) === JSON.stringify(a));
  }
}

describe('the legal list', () => {
  it('accepts no action outside it, and every action in it', { timeout: 60_000 }, () => {
    // States along a few seeded battles, and actions made up from their ships and hexes.
    const states: State[] = [];
    for (const n of [1, 2, 3]) {
      const random = rng(n);
      play({ ...duel, turnLimit: 4 }, `legal-seed-${n}-xxxxxxxxxx`, { rhodes: computer(random), cilicia: randomPlayer(random) }, (s) => {
        if (states.length < 400 && random() < 0.5) states.push(s);
      });
    }
    const kinds = [
      'move',
      'command-move',
      'backwater',
      'command-backwater',
      'ram',
      'follow-up-ram',
      'rake',
      'grapple',
      'degrapple',
      'board',
      'repair',
      'end',
    ] as const;
    fc.assert(
      fc.property(
        fc.nat(states.length - 1),
        fc.constantFrom(...kinds),
        fc.nat(20),
        fc.nat(20),
        fc.array(fc.nat(5), { maxLength: 4 }),
        fc.integer({ min: 0, max: 5 }),
        fc.boolean(),
        (si, kind, shipN, targetN, steps, facing, otherSide) => {
          const s = states[si];
          const t = classis.turn(s);
          if (t.kind !== 'side') return;
          const side = otherSide ? s.sides.find((x) => x.id !== t.side)!.id : t.side;
          const ship = s.ships[shipN % s.ships.length];
          const target = s.ships[targetN % s.ships.length];
          let path: Hex[] = [];
          let at = ship.hex;
          for (const step of steps) path = [...path, (at = neighbours(at)[step])];
          const action: Action =
            kind === 'move'
              ? { kind, ship: ship.id, path, facing: facing as 0 }
              : kind === 'command-move'
                ? { kind, moves: [{ ship: ship.id, path, facing: facing as 0 }] }
                : kind === 'command-backwater'
                  ? { kind, ships: [ship.id] }
                  : kind === 'backwater' || kind === 'repair'
                    ? { kind, ship: ship.id }
                    : kind === 'end'
                      ? { kind }
                      : { kind, ship: ship.id, target: target.id };
          const legal = classis.legalActions(s, side);
          const refusal = classis.check(s, side, action);
          if (refusal === null) expect(listed(s, legal, action), JSON.stringify(action)).toBe(true);
          else expect(refusal.message.length).toBeGreaterThan(0);
          expect(classis.apply(s, side, action, streamDice('unused-seed-0000000', 'x')).ok).toBe(refusal === null);
        },
      ),
      { numRuns: 600 },
    );
    for (const s of states.slice(0, 40)) {
      const t = classis.turn(s);
      if (t.kind !== 'side') continue;
      for (const a of classis.legalActions(s, t.side)) expect(classis.check(s, t.side, a), JSON.stringify(a)).toBeNull();
      expect(classis.legalActions(s, s.sides.find((x) => x.id !== t.side)!.id)).toEqual([]);
    }
  });
});

describe('the computer opponent', () => {
  it('beats a player of random legal actions in at least 90% of 200 seeded battles, on either side', { timeout: 60_000 }, () => {
    let wins = 0;
    for (let n = 0; n < 200; n++) {
      const random = rng(1000 + n);
      const ai = n % 2 === 0 ? 'rhodes' : 'cilicia';
      const other = ai === 'rhodes' ? 'cilicia' : 'rhodes';
      const { state } = play(duel, `opponent-seed-${n}-xxxxxxxx`, { [ai]: computer(random), [other]: randomPlayer(random) });
      if (state.outcome?.winner === ai) wins++;
    }
    expect(wins).toBeGreaterThanOrEqual(180);
  });
});
