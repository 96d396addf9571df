import { describe, expect, it } from 'vitest';
import type { Action } from '../../shared/naval/classis/actions.ts';
import { classis } from '../../shared/naval/classis/index.ts';
import type { Crew } from '../../shared/naval/classis/rules.ts';
import { type State, boardingOf, crewOf, shipById, speedOf, turningOf } from '../../shared/naval/classis/state.ts';
import { fixedDice, streamDice } from '../../shared/naval/dice.ts';
import { type Facing, type Hex, fromColumnRow, neighbour, turn } from '../../shared/naval/hex.ts';
import type { LogLine } from '../../shared/naval/ruleset.ts';

interface Spec {
  id: string;
  type?: string;
  hex: Hex;
  facing: Facing;
  crew?: Crew;
  ironHands?: boolean;
  towers?: number;
  engines?: number;
}

/** Three quinqueremes a side far off, so that one ship lost does not end the battle. */
const fillers = (side: string, row: number) =>
  [0, 2, 4].map((c) => ({
    id: `${side}f${c}`,
    name: `${side}f${c}`,
    type: 'quinquereme',
    crew: 'average',
    hex: fromColumnRow(c + (side === 'b' ? 10 : 0), row),
    facing: 0,
  }));

/** A battle with the given ships, squadron A (side a) activated with 6 points, nothing in contact. */
function battle(a: Spec[], b: Spec[]): State {
  const ships = (list: Spec[]) => list.map((x) => ({ name: x.id, type: 'trireme', crew: 'average', ...x }));
  const setup = classis.setupSchema.parse({
    title: 'test',
    sea: { columns: 16, rows: 12 },
    sides: [
      {
        id: 'a',
        name: 'A',
        squadrons: [{ id: 'sa', name: 'SA', commander: { name: 'Ca', rating: 3 }, flagship: a[0].id, ships: [...ships(a), ...fillers('a', 11)] }],
      },
      {
        id: 'b',
        name: 'B',
        squadrons: [{ id: 'sb', name: 'SB', commander: { name: 'Cb', rating: 3 }, flagship: b[0].id, ships: [...ships(b), ...fillers('b', 11)] }],
      },
    ],
  });
  const { state } = classis.start(setup, streamDice('a-seed-for-the-tests', 'combat'));
  return { ...state, activation: { squadron: 'sa', points: 6, used: {} }, cup: [{ kind: 'end-of-turn' }], contacts: [], grapples: [] };
}

function act(state: State, side: string, action: Action, values: number[]): { state: State; log: LogLine[] } {
  const dice = fixedDice(values);
  const r = classis.apply(state, side, action, dice);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  expect(dice.next, 'every die given is used').toBe(values.length);
  return r;
}

const CENTRE = fromColumnRow(8, 5);
/** Target T at the centre facing north; attacker X across hexside `side` of T, bow on T. */
function engagedPair(side: Facing, x: Partial<Spec> = {}, t: Partial<Spec> = {}): State {
  const s = battle([{ id: 'x', hex: neighbour(CENTRE, side), facing: turn(side, 3), ...x }], [{ id: 't', hex: CENTRE, facing: 0, ...t }]);
  s.contacts.push({ attacker: 'x', target: 't', ram: null });
  return s;
}

const ram: Action = { kind: 'ram', ship: 'x', target: 't' };
const texts = (log: LogLine[]) => log.map((l) => l.text);

describe('ramming (3.3.1)', () => {
  it('sinks on -4 or less, cripples on -3 and -2, and the winner at +2 or more is unharmed', () => {
    const sunk = act(engagedPair(0), 'a', ram, [5, 1]);
    expect(texts(sunk.log)[0]).toBe('Trireme x rams the bow of Trireme t: 6 ram + die 5 = 11 against 6 ram + die 1 = 7');
    expect(sunk.log[1]).toMatchObject({ text: 'difference −4 for t: sunk', table: { name: 'Ram results', row: '-4 or less: sunk' } });
    expect(sunk.log[2]).toMatchObject({ text: 'difference +4 for x: no effect', table: { row: '+2 or more: none' } });
    expect(shipById(sunk.state, 't')!.sunk).toBe(true);
    expect(shipById(sunk.state, 'x')!.crippled).toBe(false);

    for (const [die, row] of [
      [4, '-3 to -2: crippled'],
      [3, '-3 to -2: crippled'],
    ] as const) {
      const r = act(engagedPair(0), 'a', ram, [die, 1]);
      expect(r.log[1].table!.row).toBe(row);
      expect(shipById(r.state, 't')).toMatchObject({ crippled: true, sunk: false });
      expect(shipById(r.state, 'x')!.crippled).toBe(false);
    }
  });

  it('applies the result to each ship: the rammer can be the one crippled or sunk', () => {
    const r = act(engagedPair(0), 'a', ram, [1, 3]);
    expect(r.log[1].text).toBe('difference +2 for t: no effect');
    expect(r.log[2].text).toBe('difference −2 for x: crippled');
    expect(shipById(r.state, 'x')!.crippled).toBe(true);
    const s = act(engagedPair(0), 'a', ram, [1, 6]);
    expect(shipById(s.state, 'x')!.sunk).toBe(true);
    expect(s.state.contacts).toEqual([]);
  });

  it('on -1 to +1 each ship rolls a die and is crippled on 1, 2 or 3', () => {
    // Difference -1 for t, +1 for x: t rolls 3 (crippled), x rolls 4 (no harm).
    const r = act(engagedPair(0), 'a', ram, [2, 1, 3, 4]);
    expect(r.log[1]).toMatchObject({ text: 'difference −1 for t: a close call, die 3: crippled', table: { row: '-1 to +1: roll a die, crippled on 1 to 3' } });
    expect(r.log[2].text).toBe('difference +1 for x: a close call, die 4: no harm');
    expect(r.log[1].rolls.map((x) => x.value)).toEqual([3]);
    expect(shipById(r.state, 't')!.crippled).toBe(true);
    expect(shipById(r.state, 'x')!.crippled).toBe(false);
    // Difference 0: both roll; 1 cripples, 6 does not.
    const z = act(engagedPair(0), 'a', ram, [4, 4, 6, 1]);
    expect(shipById(z.state, 't')!.crippled).toBe(false);
    expect(shipById(z.state, 'x')!.crippled).toBe(true);
  });

  it('adds 1 for a bow beam, 2 for a quarter beam, 3 for the stern, nothing for the bow', () => {
    const bonus = (side: Facing) => act(engagedPair(side), 'a', ram, [1, 1, 6, 6]).log[0].text;
    expect(act(engagedPair(0), 'a', ram, [1, 1, 6, 6]).log[0].text).toContain('6 ram + die 1 = 7 against');
    expect(bonus(1)).toContain('rams the bow beam of Trireme t: 6 ram + 1 bow beam + die 1 = 8');
    expect(bonus(5)).toContain('6 ram + 1 bow beam + die 1 = 8');
    // Quarter beam: +2 gives -2 for t: crippled without a close-call die.
    const q = act(engagedPair(2), 'a', ram, [1, 1]);
    expect(q.log[0].text).toContain('rams the quarter beam of Trireme t: 6 ram + 2 quarter beam + die 1 = 9');
    expect(shipById(q.state, 't')!.crippled).toBe(true);
    expect(act(engagedPair(4), 'a', ram, [1, 1]).log[0].text).toContain('+ 2 quarter beam');
    const st = act(engagedPair(3), 'a', ram, [1, 1]);
    expect(st.log[0].text).toContain('rams the stern of Trireme t: 6 ram + 3 stern + die 1 = 10');
    expect(st.log[1].text).toBe('difference −3 for t: crippled');
  });

  it('adds a level of crew difference per level to the better crew only', () => {
    const r = act(engagedPair(0, { crew: 'expert' }, { crew: 'green' }), 'a', ram, [1, 1]);
    expect(r.log[0].text).toBe('Trireme x rams the bow of Trireme t: 6 ram + 2 crew + die 1 = 9 against 6 ram + die 1 = 7');
    expect(shipById(r.state, 't')!.crippled).toBe(true);
    const d = act(engagedPair(0, { crew: 'green' }, { crew: 'average' }), 'a', ram, [1, 1, 6, 6]);
    expect(d.log[0].text).toBe('Trireme x rams the bow of Trireme t: 6 ram + die 1 = 7 against 6 ram + 1 crew + die 1 = 8');
  });

  it('takes half the ramming factor (rounded down) off a crippled ship, whose crew is also a level down', () => {
    const s = engagedPair(0, { type: 'quinquereme' });
    shipById(s, 'x')!.crippled = true;
    const r = act(s, 'a', ram, [6, 1]);
    expect(r.log[0].text).toBe('Quinquereme x rams the bow of Trireme t: 7 ram − 3 crippled + die 6 = 10 against 6 ram + 1 crew + die 1 = 8');
  });

  it('sinks a ship crippled a second time', () => {
    const s = engagedPair(3);
    shipById(s, 't')!.crippled = true;
    const r = act(s, 'a', ram, [1, 6]);
    expect(r.log[1].text).toBe('difference −2 for t: crippled');
    expect(r.log[3].text).toBe('Trireme t, already crippled, breaks up and sinks');
    expect(shipById(r.state, 't')!.sunk).toBe(true);
  });

  it('needs contact first, and locks the two ships in the ram until one backs water', () => {
    const free = battle([{ id: 'x', hex: neighbour(CENTRE, 3), facing: 0 }], [{ id: 't', hex: CENTRE, facing: 0 }]);
    expect(classis.check(free, 'a', ram)).toMatchObject({ code: 'not_in_contact' });
    const r = act(engagedPair(3), 'a', ram, [2, 2]);
    expect(r.state.contacts).toEqual([{ attacker: 'x', target: 't', ram: { turn: 1, aspect: 'stern' } }]);
    const next = { ...r.state, activation: { squadron: 'sa', points: 6, used: {} } };
    expect(classis.check(next, 'a', ram)).toMatchObject({ code: 'already_rammed' });
    const forward: Action = { kind: 'move', ship: 'x', path: [], facing: 1 };
    expect(classis.check(next, 'a', forward)).toMatchObject({ code: 'in_ram_contact' });
    // The rammed ship too can only back water out of it.
    const theirs = { ...r.state, activation: { squadron: 'sb', points: 6, used: {} } };
    expect(classis.check(theirs, 'b', { kind: 'move', ship: 't', path: [], facing: 1 })).toMatchObject({ code: 'in_ram_contact' });
    const back = act(r.state, 'a', { kind: 'backwater', ship: 'x' }, []);
    expect(back.state.contacts).toEqual([]);
    expect(shipById(back.state, 'x')!.hex).toEqual(neighbour(CENTRE, 3, 2));
    expect(back.log[0].text).toContain('breaking contact');
  });

  it('lets either ship follow up a ram from a later turn, resolved as the first ram, the effects adding up', () => {
    const first = act(engagedPair(2), 'a', ram, [1, 1]); // 9 against 7: t crippled
    expect(shipById(first.state, 't')!.crippled).toBe(true);
    const again: Action = { kind: 'follow-up-ram', ship: 'x', target: 't' };
    expect(classis.check(first.state, 'a', again)).toMatchObject({ code: 'ram_this_turn' });
    // Next turn, the rammed ship's squadron makes it: still x's ram in t's quarter beam.
    const later: State = { ...first.state, turn: 2, activation: { squadron: 'sb', points: 6, used: {} } };
    const r = act(later, 'b', { kind: 'follow-up-ram', ship: 't', target: 'x' }, [1, 1]);
    expect(r.log[0].text).toBe(
      'Trireme t makes a follow-up ram: Trireme x in the quarter beam of Trireme t again: 6 ram + 1 crew + 2 quarter beam + die 1 = 10 against 6 ram − 3 crippled + die 1 = 4',
    );
    expect(shipById(r.state, 't')!.sunk).toBe(true);
    // Without a ram between them there is nothing to follow up.
    expect(classis.check(engagedPair(2), 'a', again)).toMatchObject({ code: 'no_ram' });
  });
});

describe('oar rakes (3.3.2)', () => {
  const rake: Action = { kind: 'rake', ship: 'x', target: 't' };
  it('strikes a bow beam or a quarter beam only', () => {
    expect(classis.check(engagedPair(0), 'a', rake)).toMatchObject({ code: 'wrong_aspect' });
    expect(classis.check(engagedPair(3), 'a', rake)).toMatchObject({ code: 'wrong_aspect' });
    for (const side of [1, 2, 4, 5] as Facing[]) expect(classis.check(engagedPair(side), 'a', rake)).toBeNull();
  });

  it('cripples the defender when the attacker is higher; equal or lower does nothing', () => {
    const win = act(engagedPair(1), 'a', rake, [4, 3]);
    expect(win.log[0]).toMatchObject({
      text: 'Trireme x rakes the oars along the bow beam of Trireme t: 6 ram + die 4 = 10 against 6 ram + die 3 = 9: the attacker wins',
      table: { name: 'Oar rake', row: 'attacker higher: defender crippled' },
    });
    expect(shipById(win.state, 't')!.crippled).toBe(true);
    const tie = act(engagedPair(2), 'a', rake, [3, 3]);
    expect(tie.log[0].table!.row).toBe('defender equal or higher: no effect');
    expect(shipById(tie.state, 't')!.crippled).toBe(false);
    expect(shipById(tie.state, 'x')!.crippled).toBe(false);
  });

  it('adds the crew difference and compares ramming factors', () => {
    const r = act(engagedPair(1, { crew: 'expert', type: 'liburnian' }, { type: 'quinquereme' }), 'a', rake, [3, 1]);
    expect(r.log[0].text).toContain('5 ram + 1 crew + die 3 = 9 against 7 ram + die 1 = 8: the attacker wins');
  });
});

describe('grappling and degrappling (3.3.3, 3.3.4)', () => {
  const grapple: Action = { kind: 'grapple', ship: 'x', target: 't' };
  it('holds when the grappler rolls higher, with the crew difference and +2 for iron hands', () => {
    const ok = act(engagedPair(0), 'a', grapple, [4, 3]);
    expect(ok.log[0]).toMatchObject({
      text: 'Trireme x throws grapnels at Trireme t: die 4 = 4 against die 3 = 3: grappled',
      table: { row: 'grappler higher: grappled' },
    });
    expect(ok.state.grapples).toEqual([{ a: 'x', b: 't' }]);
    expect(act(engagedPair(0), 'a', grapple, [3, 3]).state.grapples).toEqual([]);
    const hands = act(engagedPair(0, { ironHands: true }), 'a', grapple, [2, 4]);
    expect(hands.log[0].text).toContain('2 iron hands + die 2 = 4 against die 4 = 4: the grapple fails');
    expect(act(engagedPair(0, { ironHands: true }), 'a', grapple, [3, 4]).state.grapples).toHaveLength(1);
    const crew = act(engagedPair(0, {}, { crew: 'expert' }), 'a', grapple, [5, 4]);
    expect(crew.log[0].text).toContain('die 5 = 5 against 1 crew + die 4 = 5: the grapple fails');
  });

  it('needs contact, and a grappled ship cannot row away or ram', () => {
    const apart = battle([{ id: 'x', hex: neighbour(CENTRE, 0, 2), facing: 3 }], [{ id: 't', hex: CENTRE, facing: 0 }]);
    expect(classis.check(apart, 'a', grapple)).toMatchObject({ code: 'not_in_contact' });
    const held = act(engagedPair(0), 'a', grapple, [6, 1]).state;
    expect(classis.check(held, 'a', { kind: 'backwater', ship: 'x' })).toMatchObject({ code: 'grappled' });
    expect(classis.check(held, 'a', ram)).toMatchObject({ code: 'grappled' });
    expect(classis.check({ ...held, activation: { squadron: 'sa', points: 6, used: {} } }, 'a', grapple)).toMatchObject({ code: 'already_grappled' });
  });

  it('frees a ship that rolls higher to cut loose; equal keeps it', () => {
    const s = engagedPair(0);
    s.grapples.push({ a: 't', b: 'x' });
    const cut: Action = { kind: 'degrapple', ship: 'x', target: 't' };
    const stay = act(s, 'a', cut, [3, 3]);
    expect(stay.state.grapples).toHaveLength(1);
    expect(stay.log[0].table!.row).toBe('equal or lower: still grappled');
    const free = act(s, 'a', cut, [4, 3]);
    expect(free.state.grapples).toEqual([]);
    expect(free.state.contacts).toEqual([]);
  });

  it("recaptures one's own captured ship on a successful grapple, without boarding", () => {
    const s = engagedPair(0);
    const t = shipById(s, 't')!;
    // t is a ship of A's, taken by B.
    Object.assign(t, { originalSide: 'a', originalSquadron: 'sa', captured: true });
    const r = act(s, 'a', grapple, [4, 1]);
    expect(r.log[0].text).toContain('grappled, and t is recaptured');
    expect(shipById(r.state, 't')).toMatchObject({ side: 'a', squadron: 'sa', captured: true });
    expect(r.state.grapples).toEqual([]);
  });
});

describe('boarding (3.3.5) and captured ships (3.1.7)', () => {
  function grappled(x: Partial<Spec> = {}, t: Partial<Spec> = {}): State {
    const s = engagedPair(0, x, t);
    s.grapples.push({ a: 'x', b: 't' });
    return s;
  }
  const board: Action = { kind: 'board', ship: 'x', target: 't' };

  it('captures when two or more higher, either way; less is no result', () => {
    const won = act(grappled(), 'a', board, [3, 1]);
    expect(won.log[0]).toMatchObject({
      text: 'Trireme x boards Trireme t: 4 boarding + die 3 = 7 against 4 boarding + die 1 = 5: t is captured',
      table: { name: 'Boarding', row: '2 or more higher: the other is captured' },
    });
    expect(shipById(won.state, 't')).toMatchObject({ side: 'a', squadron: 'sa', captured: true });
    expect(act(grappled(), 'a', board, [2, 1]).log[0].text).toMatch(/: no result$/);
    const lost = act(grappled(), 'a', board, [1, 3]);
    expect(shipById(lost.state, 'x')).toMatchObject({ side: 'b', squadron: 'sb', captured: true });
  });

  it('takes opposing engine points off the boarding factor and adds own towers', () => {
    const r = act(grappled({ type: 'ct-quinquereme', towers: 2, engines: 1 }, { type: 'six' }), 'a', board, [6, 1]);
    // x: 8 boarding − 4 (a Six's two engines of 2) + 8 towers; the Six: 12 − 1 + 8 towers.
    expect(r.log[0].text).toBe(
      'Cataphract quinquereme x boards Six t: (8 boarding − 4 engines) + 8 towers + die 6 = 18 against (12 boarding − 1 engines) + 8 towers + die 1 = 20: x is captured',
    );
  });

  it('leaves a captured ship with no marines, speed and turning 1, a green crew, under the captor', () => {
    const r = act(grappled({}, { type: 'liburnian', crew: 'expert' }), 'a', board, [6, 1]);
    const prize = shipById(r.state, 't')!;
    expect([boardingOf(prize), speedOf(prize), turningOf(prize), crewOf(prize)]).toEqual([0, 1, 1, 'green']);
    // Still grappled to its captor, who casts off automatically for a point.
    expect(r.state.grapples).toEqual([{ a: 'x', b: 't' }]);
    const off = act(r.state, 'a', { kind: 'degrapple', ship: 'x', target: 't' }, []);
    expect(off.log[0].table).toEqual({ name: 'Degrapple', row: 'after a capture: automatic' });
    expect(off.state.grapples).toEqual([]);
    // Its prize crew only rows.
    expect(classis.check(off.state, 'a', { kind: 'ram', ship: 't', target: 'x' })).toMatchObject({ code: 'prize_crew' });
  });
});

describe('crippled ships (3.1.6) and repairs (3.3.6)', () => {
  it('drop speed and turning to 1, halve boarding (at least 1), and lose a crew level (not below green)', () => {
    const s = battle(
      [
        { id: 'x', type: 'quinquereme', hex: CENTRE, facing: 0, crew: 'expert' },
        { id: 'y', type: 'lembos', hex: neighbour(CENTRE, 0, 2), facing: 0, crew: 'green' },
      ],
      [{ id: 't', hex: neighbour(CENTRE, 3, 4), facing: 0 }],
    );
    for (const ship of s.ships) ship.crippled = true;
    const x = shipById(s, 'x')!;
    const y = shipById(s, 'y')!;
    expect([speedOf(x), turningOf(x), boardingOf(x), crewOf(x)]).toEqual([1, 1, 3, 'average']);
    expect([speedOf(y), turningOf(y), boardingOf(y), crewOf(y)]).toEqual([1, 1, 1, 'green']);
  });

  it('repairs on the die: 1 sinks, 2 crippled for good, 3-4 nothing, 5-6 recovered', () => {
    const s = battle([{ id: 'x', hex: CENTRE, facing: 0 }], [{ id: 't', hex: neighbour(CENTRE, 3, 4), facing: 0 }]);
    const repair: Action = { kind: 'repair', ship: 'x' };
    expect(classis.check(s, 'a', repair)).toMatchObject({ code: 'not_crippled' });
    shipById(s, 'x')!.crippled = true;
    const outcome = (die: number) => {
      const r = act(s, 'a', repair, [die]);
      return { ship: shipById(r.state, 'x')!, row: r.log[0].table!.row, state: r.state };
    };
    expect(outcome(1).ship.sunk).toBe(true);
    expect(outcome(1).row).toBe('1: sinks');
    const two = outcome(2);
    expect(two.ship).toMatchObject({ crippled: true, permanentlyCrippled: true });
    expect(classis.check({ ...two.state, activation: { squadron: 'sa', points: 6, used: {} } }, 'a', repair)).toMatchObject({ code: 'permanently_crippled' });
    for (const die of [3, 4]) expect(outcome(die).ship).toMatchObject({ crippled: true, permanentlyCrippled: false });
    for (const die of [5, 6]) expect(outcome(die).ship).toMatchObject({ crippled: false, sunk: false });
    expect(outcome(5).row).toBe('5-6: recovers');
  });
});

describe('the log and its dice', () => {
  it('puts each die on the line it decided, numbered in the stream, also with dice that do not record', () => {
    const values = [5, 1];
    let i = 0;
    const plain = { roll: () => values[i++] };
    const r = classis.apply(engagedPair(0), 'a', ram, plain);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.log[0].rolls).toEqual([
      { index: 0, sides: 6, value: 5, label: 'x ram' },
      { index: 1, sides: 6, value: 1, label: 't against the ram' },
    ]);
    expect(r.log[1].rolls).toEqual([]);
  });
});

describe('the computer opponent', () => {
  const choose = (s: State) => classis.opponent(s, 'a', () => 0.5);

  it('rams a stern it is in contact with', () => {
    expect(choose(engagedPair(3))).toEqual(ram);
  });

  it('boards a grappled ship it outnumbers in marines, and cuts free of one that outnumbers it', () => {
    const strong = engagedPair(0, { type: 'ct-quinquereme', towers: 2 }, { type: 'lembos' });
    strong.grapples.push({ a: 'x', b: 't' });
    expect(choose(strong)).toEqual({ kind: 'board', ship: 'x', target: 't' });
    const weak = engagedPair(0, { type: 'lembos' }, { type: 'ct-quinquereme', towers: 2 });
    weak.grapples.push({ a: 'x', b: 't' });
    expect(choose(weak)).toEqual({ kind: 'degrapple', ship: 'x', target: 't' });
  });

  it("repairs a crippled ship out of harm's way", () => {
    const s = battle([{ id: 'x', hex: CENTRE, facing: 0 }], [{ id: 't', hex: fromColumnRow(15, 0), facing: 3 }]);
    shipById(s, 'x')!.crippled = true;
    expect(choose(s)).toEqual({ kind: 'repair', ship: 'x' });
  });

  it('closes on the enemy when nothing is in reach, and only ever picks legal actions', () => {
    const s = battle([{ id: 'x', hex: fromColumnRow(8, 1), facing: 3 }], [{ id: 't', hex: fromColumnRow(8, 9), facing: 0 }]);
    const a = choose(s);
    expect(classis.check(s, 'a', a)).toBeNull();
    const r = act(s, 'a', a, []);
    const d = (st: State) => {
      const x = shipById(st, 'x')!.hex;
      const t = shipById(st, 't')!.hex;
      return (Math.abs(x.q - t.q) + Math.abs(x.r - t.r) + Math.abs(x.q + x.r - t.q - t.r)) / 2;
    };
    expect(d(r.state)).toBeLessThan(d(s));
  });
});
