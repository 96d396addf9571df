import { describe, expect, it } from 'vitest';
import type { Action } from '../../shared/naval/classis/actions.ts';
import { fillCup } from '../../shared/naval/classis/cup.ts';
import { classis } from '../../shared/naval/classis/index.ts';
import { type State, inCommand, shipById } from '../../shared/naval/classis/state.ts';
import { fixedDice, streamDice } from '../../shared/naval/dice.ts';
import { type Facing, type Hex, fromColumnRow, neighbour, turn } from '../../shared/naval/hex.ts';
import type { LogLine } from '../../shared/naval/ruleset.ts';

interface Spec {
  id: string;
  type?: string;
  hex: Hex;
  facing: Facing;
  crew?: string;
}
interface Options {
  ratings?: [number, number];
  fillers?: boolean;
  land?: Hex[];
  reefs?: Hex[];
  turnLimit?: number;
}

const fillers = (side: string) =>
  [0, 2, 4].map((c) => ({
    id: `${side}f${c}`,
    name: `${side}f${c}`,
    type: 'quinquereme',
    crew: 'average',
    hex: fromColumnRow(c + (side === 'b' ? 10 : 0), 11),
    facing: 0,
  }));

function setupOf(a: Spec[], b: Spec[], o: Options = {}) {
  const ships = (list: Spec[]) => list.map((x) => ({ name: x.id, type: 'trireme', crew: 'average', ...x }));
  const extra = (side: string) => (o.fillers === false ? [] : fillers(side));
  return classis.setupSchema.parse({
    title: 'test',
    sea: { columns: 16, rows: 12, land: o.land ?? [], reefs: o.reefs ?? [] },
    turnLimit: o.turnLimit ?? 30,
    sides: [
      {
        id: 'a',
        name: 'Athens',
        squadrons: [{ id: 'sa', name: 'SA', commander: { name: 'Ca', rating: o.ratings?.[0] ?? 3 }, flagship: a[0].id, ships: [...ships(a), ...extra('a')] }],
      },
      {
        id: 'b',
        name: 'Sparta',
        squadrons: [{ id: 'sb', name: 'SB', commander: { name: 'Cb', rating: o.ratings?.[1] ?? 3 }, flagship: b[0].id, ships: [...ships(b), ...extra('b')] }],
      },
    ],
  });
}

function battle(a: Spec[], b: Spec[], o: Options = {}): State {
  const { state } = classis.start(setupOf(a, b, o), streamDice('a-seed-for-the-tests', 'play'));
  return { ...state, activation: { squadron: 'sa', points: 6, used: {} }, cup: [{ kind: 'end-of-turn' }], contacts: [], grapples: [] };
}

function act(state: State, side: string, action: Action, values: number[]): { state: State; log: LogLine[] } {
  const dice = fixedDice(values);
  const r = classis.apply(state, side, action, dice);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  expect(dice.next, 'every die given is used').toBe(values.length);
  return r;
}

const C = fromColumnRow(8, 5);
const far = fromColumnRow(8, 9);

describe('the chit cup and initiative (1.7, 2)', () => {
  it('holds as many chits per squadron as its commander rating, and one End of Turn', () => {
    const setup = setupOf([{ id: 'x', hex: C, facing: 0 }], [{ id: 't', hex: far, facing: 0 }], { ratings: [4, 2] });
    // First draw: chit 5 of 7 (SB's first), then its initiative 3.
    const dice = fixedDice([5, 3]);
    const { state, log } = classis.start(setup, dice);
    expect(log.find((l) => l.text.startsWith('Turn 1'))!.text).toBe('Turn 1 begins: 7 chits in the cup (4 SA, 2 SB, 1 End of Turn)');
    const draw = log.find((l) => l.text.startsWith('Chit'))!;
    expect(draw.text).toBe('Chit 5 of 7 is SB (Sparta, Cb)');
    expect(draw.rolls).toEqual([{ index: 0, sides: 7, value: 5, label: 'chit draw' }]);
    expect(state.activation).toEqual({ squadron: 'sb', points: 3, used: {} });
    expect(state.cup).toHaveLength(6);
    expect(classis.turn(state)).toMatchObject({ kind: 'side', side: 'b' });
  });

  it('draws the next chit when the points are spent or the side ends, and starts a new turn on End of Turn', () => {
    const s = battle([{ id: 'x', hex: C, facing: 0 }], [{ id: 't', hex: far, facing: 0 }]);
    s.activation!.points = 1;
    s.cup = [{ kind: 'squadron', squadron: 'sb' }, { kind: 'end-of-turn' }];
    // The move spends the last point; chit 1 of 2 (SB) is drawn, it rolls 4.
    const moved = act(s, 'a', { kind: 'move', ship: 'x', path: [neighbour(C, 0)], facing: 0 }, [1, 4]);
    expect(moved.state.activation).toEqual({ squadron: 'sb', points: 4, used: {} });
    expect(moved.log.map((l) => l.text)).toContain('SA has used its initiative');
    // SB ends at once: the last chit, End of Turn, needs no die; turn 2's cup is full again, and its first draw made.
    const ended = act(moved.state, 'b', { kind: 'end' }, [2, 6]);
    expect(ended.log.map((l) => l.text).slice(0, 3)).toEqual([
      'SB ends its activation with 4 actions unused',
      'The last chit is End of Turn: turn 1 ends',
      'Turn 2 begins: 7 chits in the cup (3 SA, 3 SB, 1 End of Turn)',
    ]);
    expect(ended.state.turn).toBe(2);
    expect(ended.state.activation).toMatchObject({ squadron: 'sa', points: 6 });
  });

  it('lets a ship make each action once per activation, and several different ones', () => {
    const s = battle([{ id: 'x', hex: neighbour(C, 3, 2), facing: 0 }], [{ id: 't', hex: C, facing: 1 }]);
    // Row into contact, then ram: two actions of one ship.
    const engage = act(s, 'a', { kind: 'move', ship: 'x', path: [neighbour(C, 3), C], facing: 0 }, []);
    expect(engage.state.contacts).toEqual([{ attacker: 'x', target: 't', ram: null }]);
    expect(classis.check(engage.state, 'a', { kind: 'move', ship: 'x', path: [], facing: 1 })).toMatchObject({ code: 'already_done' });
    const rammed = act(engage.state, 'a', { kind: 'ram', ship: 'x', target: 't' }, [6, 1]);
    expect(rammed.state.activation!.points).toBe(4);
    expect(rammed.state.activation!.used).toEqual({ x: ['move', 'ram'] });
  });

  it('adds a morale check chit for a side from the turn after it first loses a ship', () => {
    const s = battle([{ id: 'x', hex: neighbour(C, 3), facing: 0 }], [{ id: 't', hex: C, facing: 0 }]);
    s.contacts.push({ attacker: 'x', target: 't', ram: null });
    const sunk = act(s, 'a', { kind: 'ram', ship: 'x', target: 't' }, [6, 1]);
    expect(shipById(sunk.state, 't')!.sunk).toBe(true);
    expect(sunk.state.moraleChits).toEqual(['b']);
    expect(sunk.state.cup).toEqual([{ kind: 'end-of-turn' }]);
    expect(fillCup(sunk.state)).toContainEqual({ kind: 'morale', side: 'b' });
    expect(fillCup(sunk.state).filter((c) => c.kind === 'morale')).toHaveLength(1);
  });
});

describe('command (1.5)', () => {
  const three = (dx: number): Spec[] => [
    { id: 'flag', hex: C, facing: 0 },
    { id: 'near', hex: neighbour(C, 3, 3), facing: 0 },
    { id: 'away', hex: neighbour(C, 3, dx), facing: 0 },
  ];

  it('keeps ships within the commander radius of the flagship in command, others out', () => {
    const s = battle(three(4), [{ id: 't', hex: fromColumnRow(14, 0), facing: 3 }]);
    expect(inCommand(s, shipById(s, 'near')!)).toBe(true);
    expect(inCommand(s, shipById(s, 'away')!)).toBe(false);
    const cmd = (ship: string): Action => ({ kind: 'command-move', moves: [{ ship, path: [], facing: 1 }] });
    expect(classis.check(s, 'a', cmd('near'))).toBeNull();
    expect(classis.check(s, 'a', cmd('away'))).toMatchObject({ code: 'out_of_command' });
    expect(classis.check(s, 'a', { kind: 'move', ship: 'away', path: [], facing: 1 })).toBeNull();
    const legal = classis.legalActions(s, 'a');
    expect(legal.some((a) => a.kind === 'command-move' && a.moves[0].ship === 'away')).toBe(false);
    expect(legal.some((a) => a.kind === 'move' && a.ship === 'away')).toBe(true);
  });

  it('puts the whole squadron out of command while its flagship is engaged, and for good once it is lost', () => {
    const s = battle(three(2), [{ id: 't', hex: neighbour(C, 0), facing: 3 }]);
    s.contacts.push({ attacker: 't', target: 'flag', ram: null });
    expect(inCommand(s, shipById(s, 'near')!)).toBe(false);
    s.contacts = [];
    expect(inCommand(s, shipById(s, 'near')!)).toBe(true);
    shipById(s, 'flag')!.sunk = true;
    expect(inCommand(s, shipById(s, 'near')!)).toBe(false);
  });

  it('moves several ships in command for one point, each move checked after the ones before it', () => {
    const s = battle(three(2), [{ id: 't', hex: fromColumnRow(14, 0), facing: 3 }]);
    const ahead = (h: Hex) => [neighbour(h, 0)];
    const both: Action = {
      kind: 'command-move',
      moves: [
        { ship: 'flag', path: ahead(C), facing: 0 },
        { ship: 'away', path: ahead(neighbour(C, 3, 2)), facing: 0 },
      ],
    };
    const r = act(s, 'a', both, []);
    expect(r.state.activation!.points).toBe(5);
    expect(shipById(r.state, 'away')!.hex).toEqual(neighbour(C, 3));
    // Into a hex the ship before it has just taken: refused; into the hex it has just left: accepted.
    const clash: Action = {
      kind: 'command-move',
      moves: [
        { ship: 'away', path: [neighbour(C, 3)], facing: 0 },
        { ship: 'near', path: [neighbour(C, 3, 2), neighbour(C, 3)], facing: 0 },
      ],
    };
    expect(classis.check(s, 'a', clash)).toMatchObject({ code: 'path_blocked' });
    const follow: Action = {
      kind: 'command-move',
      moves: [
        { ship: 'away', path: [neighbour(C, 3)], facing: 0 },
        { ship: 'near', path: [neighbour(C, 3, 2)], facing: 0 },
      ],
    };
    expect(classis.check(s, 'a', follow)).toBeNull();
    expect(classis.check(s, 'a', { kind: 'command-move', moves: [follow.moves[0], follow.moves[0]] })).toMatchObject({ code: 'duplicate_ship' });
  });
});

describe('movement (3.2.1, 3.2.2)', () => {
  it('rows up to its speed, turning up to its turning capability with each speed point', () => {
    const s = battle(
      [
        { id: 'x', hex: C, facing: 0 },
        { id: 'q', type: 'quinquereme', hex: fromColumnRow(3, 5), facing: 0 },
      ],
      [{ id: 't', hex: fromColumnRow(15, 9), facing: 0 }],
    );
    const line = (h: Hex, f: Facing, n: number) => Array.from({ length: n }, (_, i) => neighbour(h, f, i + 1));
    expect(classis.check(s, 'a', { kind: 'move', ship: 'x', path: line(C, 0, 3), facing: 0 })).toBeNull();
    expect(classis.check(s, 'a', { kind: 'move', ship: 'x', path: line(C, 0, 4), facing: 0 })).toMatchObject({ code: 'too_far' });
    // A quinquereme (speed 2, turning 2): turning about (3 hexsides) takes both points.
    const q = fromColumnRow(3, 5);
    expect(classis.check(s, 'a', { kind: 'move', ship: 'q', path: [], facing: 3 })).toBeNull();
    expect(classis.check(s, 'a', { kind: 'move', ship: 'q', path: [neighbour(q, 3)], facing: 3 })).toBeNull();
    expect(classis.check(s, 'a', { kind: 'move', ship: 'q', path: [neighbour(q, 3), neighbour(q, 3, 2)], facing: 3 })).toMatchObject({ code: 'too_far' });
    expect(classis.check(s, 'a', { kind: 'move', ship: 'q', path: [neighbour(q, 2), neighbour(neighbour(q, 2), 4)], facing: 4 })).toBeNull();
    // Crippled: speed 1.
    shipById(s, 'x')!.crippled = true;
    expect(classis.check(s, 'a', { kind: 'move', ship: 'x', path: line(C, 0, 2), facing: 0 })).toMatchObject({ code: 'too_far' });
    expect(classis.check(s, 'a', { kind: 'move', ship: 'x', path: line(C, 0, 1), facing: 1 })).toMatchObject({ code: 'too_far' });
  });

  it('lists every destination once, each reachable, and no move that ends where it began', () => {
    const s = battle([{ id: 'x', hex: C, facing: 0 }], [{ id: 't', hex: fromColumnRow(15, 9), facing: 0 }]);
    const moves = classis.legalActions(s, 'a').filter((a): a is Action & { kind: 'move' } => a.kind === 'move' && a.ship === 'x');
    const ends = moves.map((m) => `${JSON.stringify(m.path.at(-1) ?? C)}:${m.facing}`);
    expect(new Set(ends).size).toBe(ends.length);
    expect(ends).not.toContain(`${JSON.stringify(C)}:0`);
    for (const m of moves) expect(classis.check(s, 'a', m)).toBeNull();
    // A trireme turns in place to any of the five other facings with one point.
    expect(moves.filter((m) => m.path.length === 0)).toHaveLength(5);
  });

  it('never enters land, a reef, a friendly ship or the edge of the board; an enemy only to engage it, bow on, ending the move', () => {
    const s = battle(
      [
        { id: 'x', hex: C, facing: 0 },
        { id: 'y', hex: neighbour(C, 1), facing: 0 },
        { id: 'edge', hex: fromColumnRow(0, 0), facing: 0 },
      ],
      [{ id: 't', hex: neighbour(C, 5), facing: 0 }],
      { land: [neighbour(C, 0)], reefs: [neighbour(C, 3)] },
    );
    const tryPath = (ship: string, path: Hex[], facing: Facing) => classis.check(s, 'a', { kind: 'move', ship, path, facing });
    expect(tryPath('x', [neighbour(C, 0)], 0)).toMatchObject({ code: 'path_blocked' });
    expect(tryPath('x', [neighbour(C, 3)], 3)).toMatchObject({ code: 'path_blocked' });
    expect(tryPath('x', [neighbour(C, 1)], 1)).toMatchObject({ code: 'path_blocked' });
    expect(tryPath('edge', [neighbour(fromColumnRow(0, 0), 0)], 0)).toMatchObject({ code: 'path_blocked' });
    expect(tryPath('x', [neighbour(C, 5), neighbour(C, 5, 2)], 5)).toMatchObject({ code: 'path_blocked' });
    expect(tryPath('x', [neighbour(C, 5)], 4)).toMatchObject({ code: 'bad_facing' });
    const r = act(s, 'a', { kind: 'move', ship: 'x', path: [neighbour(C, 5)], facing: 5 }, []);
    expect(shipById(r.state, 'x')).toMatchObject({ hex: C, facing: 5 });
    expect(r.state.contacts).toEqual([{ attacker: 'x', target: 't', ram: null }]);
    expect(r.log[0].text).toBe('Trireme x turns in 0906 and engages Trireme t, bow on its quarter beam');
    expect(classis.legalActions(s, 'a')).toContainEqual({ kind: 'move', ship: 'x', path: [neighbour(C, 5)], facing: 5 });
  });

  it('backs water one hex straight astern, keeping its facing, if that hex is open', () => {
    const s = battle(
      [
        { id: 'x', hex: C, facing: 1 },
        { id: 'y', hex: fromColumnRow(2, 2), facing: 0 },
      ],
      [{ id: 't', hex: fromColumnRow(14, 0), facing: 0 }],
      {
        reefs: [neighbour(fromColumnRow(2, 2), 3)],
      },
    );
    const r = act(s, 'a', { kind: 'backwater', ship: 'x' }, []);
    expect(shipById(r.state, 'x')).toMatchObject({ hex: neighbour(C, turn(1, 3)), facing: 1 });
    expect(classis.check(s, 'a', { kind: 'backwater', ship: 'y' })).toMatchObject({ code: 'blocked_astern' });
  });
});

describe('morale checks (3.2.10)', () => {
  /** Side b has lost a filler; its morale chit is the only one left, and the turn limit ends the battle after it. */
  function moraleState(ratingB: number, lostA = 0): State {
    const s = battle([{ id: 'x', hex: C, facing: 0 }], [{ id: 't', hex: far, facing: 0 }], { ratings: [3, ratingB], turnLimit: 1 });
    shipById(s, 'bf0')!.sunk = true;
    if (lostA) shipById(s, 'af0')!.sunk = true;
    s.moraleChits = ['b'];
    s.cup = [{ kind: 'morale', side: 'b' }];
    return s;
  }
  const end: Action = { kind: 'end' };
  const moraleLine = (log: LogLine[]) => log.find((l) => l.text.startsWith('Morale check'))!;

  it('is ignored when the side has not lost more ships than the enemy', () => {
    const r = act(moraleState(3, 1), 'a', end, []);
    expect(moraleLine(r.log)).toMatchObject({ text: "Morale check for Sparta: 1 ship lost against the enemy's 1: no check needed", rolls: [] });
  });

  it('holds when a d6 (−1 below average, +1 above average admiral) is more than the ships lost', () => {
    expect(moraleLine(act(moraleState(3), 'a', end, [2]).log).text).toBe('Morale check for Sparta: die 2 = 2 against 1 ship lost: the fleet holds');
    const fail = act(moraleState(3), 'a', end, [1]);
    expect(moraleLine(fail.log).table).toEqual({ name: 'Morale check', row: 'not more than the ships lost: fails' });
    expect(fail.state.outcome).toMatchObject({ winner: 'a' });
    expect(act(moraleState(2), 'a', end, [2]).state.outcome!.reason).toContain('die 2 − 1 admiral = 1');
    const brave = act(moraleState(4), 'a', end, [1]);
    expect(moraleLine(brave.log).text).toContain('die 1 + 1 admiral = 2 against 1 ship lost: the fleet holds');
  });

  it('fails without a die when the fleet admiral is lost', () => {
    const s = moraleState(4);
    shipById(s, 'bf0')!.sunk = false;
    shipById(s, 't')!.sunk = true; // the admiral's flagship
    const r = act(s, 'a', end, []);
    expect(r.state.outcome).toMatchObject({ winner: 'a', reason: 'Sparta fails its morale check (the fleet admiral is lost) and concedes' });
  });
});

describe('victory (4) and the turn limit', () => {
  it('ends the battle when a side has lost a third of its ships', () => {
    const s = battle([{ id: 'x', hex: neighbour(C, 3), facing: 0 }], [{ id: 't', hex: C, facing: 0 }]);
    shipById(s, 'bf0')!.sunk = true;
    s.contacts.push({ attacker: 'x', target: 't', ram: null });
    const r = act(s, 'a', { kind: 'ram', ship: 'x', target: 't' }, [6, 1]);
    expect(r.state.outcome).toEqual({
      winner: 'a',
      reason: 'Sparta has lost 2 of 4 ships and 13 of 27 ramming factors: a third or more, and loses the battle',
    });
    expect(classis.turn(r.state)).toEqual({ kind: 'over' });
    expect(classis.legalActions(r.state, 'a')).toEqual([]);
  });

  it('or a third of its original ramming factors, whatever the count of ships', () => {
    const s = battle(
      [
        { id: 'x', hex: neighbour(C, 3), facing: 0 },
        { id: 'x2', hex: far, facing: 0 },
      ],
      [
        { id: 't', type: 'seven', hex: C, facing: 0 },
        { id: 'l1', type: 'lembos', hex: fromColumnRow(13, 0), facing: 0 },
        { id: 'l2', type: 'lembos', hex: fromColumnRow(14, 0), facing: 0 },
        { id: 'l3', type: 'lembos', hex: fromColumnRow(15, 0), facing: 0 },
      ],
      { fillers: false },
    );
    s.contacts.push({ attacker: 'x', target: 't', ram: null });
    // x: 6 + 3 stern + 6 = 15 against the Seven's 9 + 1 = 10.
    const r = act(s, 'a', { kind: 'ram', ship: 'x', target: 't' }, [6, 1]);
    expect(r.state.outcome!.winner).toBe('a');
    expect(r.state.outcome!.reason).toContain('1 of 4 ships and 9 of 12 ramming factors');
  });

  it('is a draw when both sides reach a third at once', () => {
    const s = battle(
      [
        { id: 'x', hex: neighbour(C, 0), facing: 3 },
        { id: 'x2', hex: far, facing: 0 },
      ],
      [
        { id: 't', hex: C, facing: 0 },
        { id: 't2', hex: fromColumnRow(14, 0), facing: 0 },
      ],
      {
        fillers: false,
      },
    );
    for (const id of ['x', 't']) shipById(s, id)!.crippled = true;
    s.contacts.push({ attacker: 'x', target: 't', ram: null });
    const r = act(s, 'a', { kind: 'ram', ship: 'x', target: 't' }, [3, 3, 1, 1]);
    expect(r.state.outcome!.winner).toBeNull();
    expect(r.state.outcome!.reason).toMatch(/^both fleets lose a third at once/);
  });

  it('gives the battle at the turn limit to the side with fewer losses, or calls it a draw', () => {
    const s = battle([{ id: 'x', hex: C, facing: 0 }], [{ id: 't', hex: far, facing: 0 }], { turnLimit: 1 });
    const draw = act(s, 'a', { kind: 'end' }, []);
    expect(draw.state.outcome).toEqual({ winner: null, reason: 'the turn limit (1) is reached: Athens lost 0 ships (0 ram), Sparta 0 (0 ram); a draw' });
    shipById(s, 'bf0')!.sunk = true;
    expect(act(s, 'a', { kind: 'end' }, []).state.outcome!.winner).toBe('a');
  });
});

describe('what the players see', () => {
  it('marks each counter: crew, flagship and commander, crippled, grappled, captured, out of command', () => {
    const s = battle(
      [
        { id: 'x', hex: neighbour(C, 3), facing: 0, crew: 'expert' },
        { id: 'y', hex: fromColumnRow(1, 1), facing: 0, crew: 'green' },
      ],
      [{ id: 't', hex: C, facing: 0 }],
    );
    s.contacts.push({ attacker: 'x', target: 't', ram: null });
    s.grapples.push({ a: 'x', b: 't' });
    shipById(s, 't')!.crippled = true;
    const marks = (id: string) => classis.board(s).counters.find((c) => c.id === id)!.marks;
    expect(marks('x')).toEqual(['expert', 'admiral', 'commander 3', 'grappled', 'in contact', 'out of command']);
    expect(marks('y')).toEqual(['green', 'out of command']);
    expect(marks('t')).toEqual(['green', 'admiral', 'commander 3', 'crippled', 'grappled', 'in contact', 'out of command']);
    expect(classis.board(s).wrecks).toEqual([]);
  });

  it('hides nothing: redact gives the state unchanged', () => {
    const s = battle([{ id: 'x', hex: C, facing: 0 }], [{ id: 't', hex: far, facing: 0 }]);
    expect(classis.redact(s, 'b')).toBe(s);
    expect(classis.redact(s, null)).toBe(s);
  });

  it('names actions in words', () => {
    const s = battle([{ id: 'x', hex: neighbour(C, 3), facing: 0 }], [{ id: 't', hex: C, facing: 0 }]);
    expect(classis.describe(s, { kind: 'ram', ship: 'x', target: 't' })).toBe('Trireme x rams Trireme t (stern)');
    expect(classis.describe(s, { kind: 'move', ship: 'x', path: [], facing: 1 })).toBe('Trireme x turns to face north-east');
    expect(classis.describe(s, { kind: 'end' })).toBe('End the activation');
  });
});
