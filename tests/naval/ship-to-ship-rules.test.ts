import { describe, expect, it } from 'vitest';
import { fixedDice } from '../../shared/naval/dice.ts';
import type { Facing, Hex } from '../../shared/naval/hex.ts';
import type { LogLine } from '../../shared/naval/ruleset.ts';
import type { Action } from '../../shared/naval/ship-to-ship/actions.ts';
import { shipToShip } from '../../shared/naval/ship-to-ship/index.ts';
import { BattleLog } from '../../shared/naval/battle-log.ts';
import { resolveTurn } from '../../shared/naval/ship-to-ship/resolve.ts';
import { RULES, loadRules, movesInPhase } from '../../shared/naval/ship-to-ship/rules.ts';
import rulesData from '../../shared/naval/ship-to-ship/rules.json';
import { type Setup, SetupSchema, type ShipSetup } from '../../shared/naval/ship-to-ship/setup.ts';
import { type ShipPlot, type ShipState, type State, statsOf } from '../../shared/naval/ship-to-ship/state.ts';

type ShipSpec = Partial<ShipSetup> & Pick<ShipSetup, 'id' | 'side' | 'type'> & { at: Hex; facing: Facing };

function setupOf(ships: ShipSpec[]): Setup {
  return SetupSchema.parse({
    title: 'Test',
    sides: [
      { id: 'a', name: 'Side A' },
      { id: 'b', name: 'Side B' },
    ],
    sea: { columns: 16, rows: 14 },
    ships: ships.map(({ at, ...s }) => ({ name: s.id[0].toUpperCase() + s.id.slice(1), nation: 'hellenistic', crew: 'average', hex: at, ...s })),
  });
}

function battle(ships: ShipSpec[]): State {
  return shipToShip.start(setupOf(ships), fixedDice([])).state;
}

const ship = (state: State, id: string): ShipState => {
  const s = state.ships.find((x) => x.id === id);
  if (!s) throw new Error(`no ship ${id}`);
  return s;
};

type Orders = Partial<Omit<ShipPlot, 'ship'>> & { ship: string };
const plot = (o: Orders): ShipPlot => ({ steps: '', pivot: 0, fire: 'hold', targets: [], board: false, rake: false, ...o });

/** Both sides plot (b last, with the dice); every ship not named holds with fire held. */
function play(state: State, orders: Orders[], dice: number[]): { state: State; log: LogLine[]; text: string } {
  let s = state;
  const log: LogLine[] = [];
  for (const side of ['a', 'b']) {
    if (!shipToShip.turn(s).kind.startsWith('sim')) break;
    const mine = s.ships.filter((x) => x.side === side && x.status === 'afloat');
    if (!mine.length) continue;
    const plots = mine.map((m) => plot(orders.find((o) => o.ship === m.id) ?? { ship: m.id }));
    const d = fixedDice(side === 'b' ? dice : []);
    const applied = shipToShip.apply(s, side, { kind: 'plot', plots }, d);
    if (!applied.ok) throw new Error(applied.error.message);
    s = applied.state;
    log.push(...applied.log);
  }
  return { state: s, log, text: log.map((l) => l.text).join('\n') };
}

const refusal = (state: State, side: string, orders: Orders[]) => {
  const mine = state.ships.filter((x) => x.side === side && x.status === 'afloat');
  return shipToShip.check(state, side, { kind: 'plot', plots: mine.map((m) => plot(orders.find((o) => o.ship === m.id) ?? { ship: m.id })) });
};

// Two ships a row apart, far from anyone: hexes on a 16 x 14 sea.
const A: Hex = { q: 4, r: 3 };
const EAST_OF_A: Hex = { q: 5, r: 3 };

describe('the rules table loads as data', () => {
  it('holds every row of the ship table, per nation, with n/a where a fleet has no such ship', () => {
    const t = RULES.shipTypes;
    const row = (k: keyof typeof t) => [t[k].ramModifier, t[k].hull, t[k].maxSpeed, t[k].cruisingSpeed, t[k].turningCircle, t[k].maxAcceleration];
    expect(row('bireme')).toEqual([-1, 4, 5, 3, 0, 3]);
    expect(row('trireme')).toEqual([0, 6, 5, 3, 1, 3]);
    expect(row('quadrireme')).toEqual([0, 7, 4, 3, 1, 3]);
    expect(row('quinquereme')).toEqual([1, 8, 3, 2, 2, 2]);
    expect(row('heptere')).toEqual([2, 10, 3, 2, 3, 2]);
    expect(t.bireme.crews).toEqual({ roman: null, hellenistic: { marines: { class: 'medium', count: 1 }, bows: 1, catapults: 0, stoneThrowers: 0 } });
    expect(t.trireme.crews).toEqual({ roman: null, hellenistic: { marines: { class: 'medium', count: 2 }, bows: 1, catapults: 0, stoneThrowers: 0 } });
    expect(t.quadrireme.crews).toEqual({
      roman: { marines: { class: 'heavy', count: 5 }, bows: 1, catapults: 0, stoneThrowers: 0 },
      hellenistic: { marines: { class: 'medium', count: 4 }, bows: 2, catapults: 0, stoneThrowers: 0 },
    });
    expect(t.quinquereme.crews).toEqual({
      roman: { marines: { class: 'heavy', count: 10 }, bows: 1, catapults: 1, stoneThrowers: 0 },
      hellenistic: { marines: { class: 'medium', count: 8 }, bows: 2, catapults: 2, stoneThrowers: 0 },
    });
    expect(t.heptere.crews).toEqual({ roman: null, hellenistic: { marines: { class: 'medium', count: 15 }, bows: 4, catapults: 3, stoneThrowers: 2 } });
  });

  it('fails loading a broken table with the place named', () => {
    const broken = structuredClone(rulesData) as Record<string, unknown> & { shipTypes: Record<string, Record<string, unknown>> };
    broken.shipTypes.trireme.hull = 'six';
    const r = loadRules(broken);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/shipTypes\.trireme\.hull/);
    const typo = structuredClone(rulesData) as Record<string, unknown> & { shipTypes: Record<string, Record<string, unknown>> };
    typo.shipTypes.heptere.turnCircle = 3;
    const t = loadRules(typo);
    if (!t.ok) expect(t.error).toMatch(/shipTypes\.heptere/);
    else expect.fail('a misspelt field loaded');
    const phases = structuredClone(rulesData) as Record<string, unknown> & { movementPhases: Record<string, number[]> };
    phases.movementPhases['4'] = [2, 3, 5];
    const p = loadRules(phases);
    if (!p.ok) expect(p.error).toMatch(/movementPhases\.4: speed 4 must move in 4 phases/);
    else expect.fail('a short phase row loaded');
  });

  it('refuses a ship its nation does not have, and two ships in one hex', () => {
    const bad = SetupSchema.safeParse({
      ...setupOf([
        { id: 'x', side: 'a', type: 'trireme', at: A, facing: 0 },
        { id: 'y', side: 'b', type: 'trireme', at: EAST_OF_A, facing: 0 },
      ]),
      ships: [
        { id: 'x', name: 'X', side: 'a', type: 'heptere', nation: 'roman', crew: 'poor', hex: A, facing: 0 },
        { id: 'y', name: 'Y', side: 'b', type: 'trireme', nation: 'hellenistic', crew: 'poor', hex: A, facing: 0 },
      ],
    });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => i.message).join(' | ');
    expect(messages).toMatch(/roman fleet has no heptere/);
    expect(messages).toMatch(/another ship is already/);
  });
});

describe('movement phases', () => {
  it('moves speed n in phase p when floor(p*n/6) passes floor((p-1)*n/6), as the table is read', () => {
    for (let n = 1; n <= 6; n++)
      for (let p = 1; p <= 6; p++) expect(movesInPhase(RULES, n, p), `speed ${n} phase ${p}`).toBe(Math.floor((p * n) / 6) > Math.floor(((p - 1) * n) / 6));
    const phases = (n: number) => [1, 2, 3, 4, 5, 6].filter((p) => movesInPhase(RULES, n, p));
    expect(phases(6)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(phases(3)).toEqual([2, 4, 6]);
    expect(phases(1)).toEqual([6]);
    expect(phases(2)).toEqual([3, 6]);
    expect(phases(4)).toEqual([2, 3, 5, 6]);
    expect(phases(5)).toEqual([2, 3, 4, 5, 6]);
  });

  it('moves a ship in the phases of its speed, one plotted step a phase', () => {
    const s = battle([
      { id: 'n', side: 'a', type: 'trireme', at: { q: 2, r: 5 }, facing: 2 },
      { id: 'e', side: 'b', type: 'trireme', at: { q: 12, r: 0 }, facing: 5 },
    ]);
    s.plots = { a: [plot({ ship: 'n', steps: 'FFF' })], b: [plot({ ship: 'e', steps: '' })] };
    const seen: number[] = [];
    resolveTurn(s, new BattleLog(fixedDice([]), 0), (st) => seen.push(ship(st, 'n').hex.q - 2));
    expect(seen).toEqual([0, 1, 1, 2, 2, 3]);
  });
});

describe('plotting: speed, acceleration, maximum speed, turning circles', () => {
  const one = (crew: ShipSetup['crew'], type: ShipSetup['type'] = 'trireme', speed = 0) =>
    battle([
      { id: 'n', side: 'a', type, crew, at: { q: 6, r: 3 }, facing: 0, speed },
      { id: 'e', side: 'b', type: 'trireme', at: { q: 12, r: 0 }, facing: 5 },
    ]);

  it('limits the change of speed by the maximum acceleration (elite +1, poor -1)', () => {
    expect(refusal(one('average'), 'a', [{ ship: 'n', steps: 'FFF' }])).toBeNull();
    expect(refusal(one('average'), 'a', [{ ship: 'n', steps: 'FFFF' }])?.code).toBe('bad_speed');
    expect(refusal(one('poor'), 'a', [{ ship: 'n', steps: 'FF' }])).toBeNull();
    expect(refusal(one('poor'), 'a', [{ ship: 'n', steps: 'FFF' }])?.code).toBe('bad_speed');
    expect(refusal(one('elite'), 'a', [{ ship: 'n', steps: 'FFFF' }])).toBeNull();
    expect(refusal(one('elite'), 'a', [{ ship: 'n', steps: 'FFFFF' }])?.code).toBe('bad_speed');
    // Slowing is limited the same way: from 3 an average trireme may not stop dead; a quinquereme from 2 may.
    const fast = one('average');
    ship(fast, 'n').speed = 5;
    expect(refusal(fast, 'a', [{ ship: 'n', steps: 'F' }])?.code).toBe('bad_speed');
    expect(refusal(fast, 'a', [{ ship: 'n', steps: 'FF' }])).toBeNull();
  });

  it('allows maximum speed 3 times a game, elite crews 1 more hex, and counts the turns used', () => {
    const s = one('average', 'trireme', 3);
    expect(refusal(s, 'a', [{ ship: 'n', steps: 'FFFFF' }])).toBeNull();
    expect(refusal(s, 'a', [{ ship: 'n', steps: 'FFFFFF' }])?.code).toBe('bad_speed');
    const e = one('elite', 'trireme', 3);
    expect(refusal(e, 'a', [{ ship: 'n', steps: 'FFFFFF' }])).toBeNull();
    // Poor crews get no extra hex, nor any other bonus on maximum speed.
    expect(refusal(one('poor', 'trireme', 3), 'a', [{ ship: 'n', steps: 'FFFFF' }])).toBeNull();
    let t = one('average', 'trireme', 3);
    t.sea = { ...t.sea, rows: 14 };
    ship(t, 'n').hex = { q: 6, r: 10 };
    for (let i = 0; i < 3; i++) {
      t = play(t, [{ ship: 'n', steps: 'FFFF' }], []).state;
      ship(t, 'n').hex = { q: 6, r: 10 };
    }
    expect(ship(t, 'n').maxTurnsUsed).toBe(3);
    expect(refusal(t, 'a', [{ ship: 'n', steps: 'FFFF' }])?.code).toBe('bad_speed');
    expect(refusal(t, 'a', [{ ship: 'n', steps: 'FFF' }])).toBeNull();
    expect(shipToShip.board(t).counters.find((c) => c.id === 'n')?.marks).toContain('maximum speed 0 left');
  });

  it('needs the turning circle in hexes straight between 60° turns (elite -1, poor +1), also across turns', () => {
    expect(refusal(one('average'), 'a', [{ ship: 'n', steps: 'LL' }])?.code).toBe('bad_path');
    expect(refusal(one('average'), 'a', [{ ship: 'n', steps: 'LFL' }])).toBeNull();
    expect(refusal(one('elite'), 'a', [{ ship: 'n', steps: 'LL' }])).toBeNull();
    const poor = one('poor', 'trireme', 1);
    expect(refusal(poor, 'a', [{ ship: 'n', steps: 'LFL' }])?.message).toMatch(/turning circle needs 2/);
    expect(refusal(one('average', 'quinquereme', 2), 'a', [{ ship: 'n', steps: 'LFL' }])?.message).toMatch(/turning circle needs 2/);
    expect(refusal(one('average', 'quinquereme', 2), 'a', [{ ship: 'n', steps: 'RFF' }])).toBeNull();
    // A heptere (3) cannot turn twice in three hexes; a bireme (0) can turn every hex.
    expect(refusal(one('average', 'heptere', 1), 'a', [{ ship: 'n', steps: 'LFL' }])?.code).toBe('bad_path');
    expect(refusal(one('average', 'bireme'), 'a', [{ ship: 'n', steps: 'LLL' }])).toBeNull();
    // The circle carries over: a trireme that turned on its last hex must go straight before turning again.
    const after = play(one('average'), [{ ship: 'n', steps: 'FFR' }], []).state;
    expect(refusal(after, 'a', [{ ship: 'n', steps: 'RFF' }])?.code).toBe('bad_path');
    expect(refusal(after, 'a', [{ ship: 'n', steps: 'FRF' }])).toBeNull();
  });

  it('goes astern 1 hex at most, only from slow enough, and counts -1 as the next turn starting speed', () => {
    const s = one('average');
    expect(refusal(s, 'a', [{ ship: 'n', steps: 'B' }])).toBeNull();
    const fast = one('average', 'trireme', 3);
    expect(refusal(fast, 'a', [{ ship: 'n', steps: 'B' }])?.code).toBe('no_astern');
    const backed = play(s, [{ ship: 'n', steps: 'B' }], []).state;
    expect(ship(backed, 'n').hex).toEqual({ q: 6, r: 4 });
    expect(ship(backed, 'n').facing).toBe(0);
    expect(refusal(backed, 'a', [{ ship: 'n', steps: 'FFF' }])?.code).toBe('bad_speed');
    expect(refusal(backed, 'a', [{ ship: 'n', steps: 'FF' }])).toBeNull();
  });

  it('refuses a plot through land, a reef, a wreck or off the board, and a ship left unplotted', () => {
    const s = one('average');
    s.sea = { ...s.sea, reefs: [{ q: 6, r: 1 }] };
    expect(refusal(s, 'a', [{ ship: 'n', steps: 'FF' }])?.message).toMatch(/step 2 runs into/);
    s.wrecks = [{ q: 6, r: 2 }];
    expect(refusal(s, 'a', [{ ship: 'n', steps: 'F' }])?.code).toBe('bad_path');
    expect(shipToShip.check(s, 'a', { kind: 'plot', plots: [plot({ ship: 'e' })] })?.code).toBe('not_your_ship');
    const two = battle([
      { id: 'n', side: 'a', type: 'trireme', at: { q: 6, r: 3 }, facing: 0 },
      { id: 'm', side: 'a', type: 'trireme', at: { q: 7, r: 3 }, facing: 0 },
      { id: 'e', side: 'b', type: 'trireme', at: { q: 12, r: 0 }, facing: 5 },
    ]);
    expect(shipToShip.check(two, 'a', { kind: 'plot', plots: [plot({ ship: 'n' })] })?.code).toBe('unplotted_ship');
  });
});

describe('the turn', () => {
  const pair = () =>
    battle([
      { id: 'n', side: 'a', type: 'trireme', at: { q: 3, r: 3 }, facing: 2 },
      { id: 'e', side: 'b', type: 'trireme', at: { q: 10, r: 0 }, facing: 5 },
    ]);

  it('is plotted in secret by every side at once and resolves when the last side plots', () => {
    const s = pair();
    expect(shipToShip.turn(s)).toMatchObject({ kind: 'simultaneous', sides: ['a', 'b'], waiting: ['a', 'b'] });
    const a = shipToShip.apply(s, 'a', { kind: 'plot', plots: [plot({ ship: 'n', steps: 'FF', board: true })] }, fixedDice([]));
    if (!a.ok) throw new Error(a.error.message);
    expect(shipToShip.turn(a.state)).toMatchObject({ kind: 'simultaneous', waiting: ['b'] });
    expect(ship(a.state, 'n').hex).toEqual({ q: 3, r: 3 });
    // Side b and onlookers see that a has plotted, not what.
    expect(shipToShip.redact(a.state, 'b').plots).toEqual({});
    expect(shipToShip.redact(a.state, null).plots).toEqual({});
    expect(shipToShip.redact(a.state, 'b').plotted).toEqual(['a']);
    expect(shipToShip.redact(a.state, 'a').plots.a?.[0].steps).toBe('FF');
    expect(JSON.stringify(shipToShip.redact(a.state, 'b'))).not.toContain('"FF"');
    expect(shipToShip.check(a.state, 'a', { kind: 'plot', plots: [plot({ ship: 'n' })] })?.code).toBe('already_plotted');
    const b = shipToShip.apply(a.state, 'b', { kind: 'plot', plots: [plot({ ship: 'e', steps: 'F' })] }, fixedDice([]));
    if (!b.ok) throw new Error(b.error.message);
    expect(ship(b.state, 'n').hex).toEqual({ q: 5, r: 3 });
    expect(b.state.turn).toBe(2);
    expect(b.state.plots).toEqual({});
    expect(shipToShip.turn(b.state)).toMatchObject({ kind: 'simultaneous', waiting: ['a', 'b'] });
  });

  it('lets the faster of two ships into a contested hex; the other rams it there', () => {
    // n goes east 2 hexes, e comes west 1: both want (5,3)... n at speed 2 moves in phases 3 and 6, e at 1 in phase 6.
    const s = battle([
      { id: 'n', side: 'a', type: 'trireme', at: { q: 4, r: 3 }, facing: 2, speed: 2 },
      { id: 'e', side: 'b', type: 'trireme', at: { q: 6, r: 3 }, facing: 5, speed: 1 },
    ]);
    // Phase 3: n to (5,3)... then phase 6: n wants (6,3) where e is, e wants (5,3) where n is: a head-on meeting.
    const r = play(
      s,
      [
        { ship: 'n', steps: 'FF' },
        { ship: 'e', steps: 'F' },
      ],
      [4, 2, 3, 5, 5],
    );
    expect(r.text).toMatch(/meet bow to bow: N 4, E 2: N rams/);
    expect(r.text).toMatch(/Trireme N rams Trireme E bow to bow: die 3 \+ 0 ram = 3 damage/);
    const t = battle([
      { id: 'n', side: 'a', type: 'trireme', at: { q: 4, r: 3 }, facing: 2, speed: 1 },
      { id: 'e', side: 'b', type: 'trireme', at: { q: 8, r: 0 }, facing: 4, speed: 3 },
    ]);
    // Both make for (5,3) in phase 6: e at speed 3 gets there first, and n's bow strikes its beam.
    const u = play(
      t,
      [
        { ship: 'n', steps: 'F' },
        { ship: 'e', steps: 'FFF' },
      ],
      [2, 6],
    );
    expect(u.text).toMatch(/N and E make for 5,5: E, faster or better crewed, gets there first/);
    expect(u.text).toMatch(/Trireme N rams Trireme E on the bow beam: die 2/);
    expect(ship(u.state, 'e').hex).toEqual({ q: 5, r: 3 });
    expect(ship(u.state, 'n').hex).toEqual({ q: 4, r: 3 });
  });

  it('stops a ship blocked by a friend for the rest of the turn, and never puts two ships in a hex', () => {
    const s = battle([
      { id: 'n', side: 'a', type: 'trireme', at: { q: 4, r: 3 }, facing: 2 },
      { id: 'm', side: 'a', type: 'trireme', at: { q: 5, r: 3 }, facing: 0 },
      { id: 'e', side: 'b', type: 'trireme', at: { q: 12, r: 0 }, facing: 5 },
    ]);
    const r = play(s, [{ ship: 'n', steps: 'FFF' }], []);
    expect(r.text).toMatch(/Trireme N finds 5,5 blocked by Trireme M and stops/);
    expect(ship(r.state, 'n').hex).toEqual({ q: 4, r: 3 });
    expect(ship(r.state, 'n').speed).toBe(0);
  });
});

describe('firing', () => {
  // A bow ship at `range` hexes east of its target, both holding still.
  const range = (type: ShipSetup['type'], hexes: number, targetType: ShipSetup['type'] = 'quinquereme') =>
    battle([
      { id: 'f', side: 'a', type, at: { q: 2, r: 5 }, facing: 0 },
      { id: 't', side: 'b', type: targetType, at: { q: 2 + hexes, r: 5 }, facing: 0 },
    ]);
  const fire = (s: State, dice: number[], o: Partial<Orders> = {}) => play(s, [{ ship: 'f', fire: 'first', ...o }], dice);

  it('bows kill on 5-6 at range 1, on 6 at 2-4, not beyond', () => {
    const r1 = fire(range('trireme', 1), [5]);
    expect(ship(r1.state, 't').bows).toBe(1);
    expect(r1.log.find((l) => l.table?.name === 'Firing')?.table?.row).toBe('bow, range 1-1: 5-6 1 kill');
    expect(ship(fire(range('trireme', 1), [4]).state, 't').bows).toBe(2);
    expect(ship(fire(range('trireme', 4), [5]).state, 't').bows).toBe(2);
    expect(ship(fire(range('trireme', 2), [6]).state, 't').bows).toBe(1);
    // Out of range no die is rolled (fixed dice with none left would throw).
    expect(fire(range('trireme', 5), []).text).not.toMatch(/shoots/);
  });

  it('catapults kill on 5-6 at 1-3, on 6 at 4-10; kills fall on bows, then artillery, then marines', () => {
    const q = (hexes: number, dice: number[]) => {
      const s = range('quinquereme', hexes);
      ship(s, 'f').bows = 0;
      return fire(s, dice).state;
    };
    expect(ship(q(3, [5, 5]), 't').bows).toBe(0);
    expect(ship(q(4, [5, 6]), 't').bows).toBe(1);
    expect(ship(q(10, [6, 6]), 't').bows).toBe(0);
    expect(fire(range('quinquereme', 11), []).text).not.toMatch(/shoot/);
    const s = range('quinquereme', 1);
    ship(s, 't').bows = 1;
    const t = ship(fire(s, [5, 5, 5, 5]).state, 't');
    expect([t.bows, t.catapults, t.marines.medium]).toEqual([0, 0, 7]);
    const m = range('quinquereme', 1);
    ship(m, 't').bows = 0;
    ship(m, 't').catapults = 0;
    ship(m, 't').marines = { light: 1, medium: 1, heavy: 1 };
    const mm = ship(fire(m, [5, 5, 5, 5]).state, 't');
    expect(mm.marines).toEqual({ light: 0, medium: 0, heavy: 0 });
  });

  it('stone throwers: at 1-3 a 6 is 2 damage and a kill, a 5 is 1 damage; at 4-10 a 6 is 1 damage', () => {
    const h = (hexes: number, dice: number[]) => {
      const s = range('heptere', hexes);
      Object.assign(ship(s, 'f'), { bows: 0, catapults: 0 });
      return ship(fire(s, dice).state, 't');
    };
    const short = h(2, [6, 5]);
    expect(short.damage).toBe(3);
    expect(short.bows).toBe(1);
    expect(h(3, [4, 4]).damage).toBe(0);
    const long = h(6, [6, 5]);
    expect(long.damage).toBe(1);
    expect(long.bows).toBe(2);
    // Enough stones sink a ship; its wreck stays.
    const s = range('heptere', 2, 'bireme');
    Object.assign(ship(s, 'f'), { bows: 0, catapults: 0 });
    ship(s, 't').damage = 2;
    const sunk = fire(s, [6, 4]);
    expect(ship(sunk.state, 't').status).toBe('sunk');
    expect(sunk.state.wrecks).toEqual([{ q: 4, r: 5 }]);
  });

  it('shoots once a turn, at a named target first, holds for short range or holds fire', () => {
    const s = battle([
      { id: 'f', side: 'a', type: 'trireme', at: { q: 2, r: 5 }, facing: 0 },
      { id: 'near', side: 'b', type: 'trireme', at: { q: 3, r: 5 }, facing: 0 },
      { id: 'far', side: 'b', type: 'trireme', at: { q: 5, r: 5 }, facing: 0 },
    ]);
    const named = play(s, [{ ship: 'f', fire: 'first', targets: ['far'] }], [6]);
    expect(named.text).toMatch(/shoots at Trireme Far at range 3/);
    expect(named.log.flatMap((l) => l.rolls)).toHaveLength(1);
    expect(play(s, [{ ship: 'f', fire: 'first' }], [6]).text).toMatch(/at Trireme Near at range 1/);
    expect(play(s, [{ ship: 'f', fire: 'hold' }], []).text).not.toMatch(/shoot/);
    // Holding for short range with only a far target: it shoots in the last phase at long range.
    const only = battle([
      { id: 'f', side: 'a', type: 'trireme', at: { q: 2, r: 5 }, facing: 0 },
      { id: 'far', side: 'b', type: 'trireme', at: { q: 5, r: 5 }, facing: 0 },
    ]);
    const phases: number[] = [];
    only.plots = { a: [plot({ ship: 'f', fire: 'close' })], b: [plot({ ship: 'far' })] };
    const log = new BattleLog(fixedDice([6]), 0);
    resolveTurn(only, log, (st, p) => {
      if (ship(st, 'far').bows === 0 && !phases.length) phases.push(p);
    });
    expect(phases).toEqual([6]);
  });

  it('silences artillery after the first boarding round; bows go on shooting', () => {
    const s = battle([
      { id: 'f', side: 'a', type: 'quinquereme', at: { q: 2, r: 5 }, facing: 0 },
      { id: 't', side: 'b', type: 'quinquereme', at: { q: 3, r: 5 }, facing: 0 },
    ]);
    s.fights = [{ attacker: 't', defender: 'f', rounds: 1 }];
    // f: 2 bows shoot (5, 5); its catapults do not; t holds fire. Then the melee: t's 8 medium, f's 8 medium.
    const r = play(s, [{ ship: 'f', fire: 'first' }], [5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(r.text).toMatch(/Quinquereme F's 2 bows shoot/);
    expect(r.text).not.toMatch(/catapults shoot/);
  });
});

describe('ramming', () => {
  // n one hex west of t, bow pointing at it (south-east is +q); t faces `tf`.
  const ramSetup = (n: Partial<ShipSpec>, t: Partial<ShipSpec>, tf: Facing = 0) =>
    battle([
      { id: 'n', side: 'a', type: 'trireme', at: A, facing: 2, ...n },
      { id: 't', side: 'b', type: 'trireme', at: EAST_OF_A, facing: tf, ...t },
    ]);

  it('side ram: die + ship ram modifier, one hole, both stop; the wreck stays if it sinks', () => {
    const r = play(ramSetup({ type: 'quinquereme' }, {}, 0), [{ ship: 'n', steps: 'F' }], [4, 5]);
    expect(r.text).toMatch(/Quinquereme N rams Trireme T on the bow beam: die 4 \+ 1 ram = 5 damage, 5 in all against hull 6: T is holed/);
    expect(ship(r.state, 't').damage).toBe(5);
    expect(ship(r.state, 't').plugged).toBe(1);
    expect(ship(r.state, 'n').hex).toEqual(A);
    const b = play(ramSetup({ type: 'bireme' }, {}, 2), [{ ship: 'n', steps: 'F' }], [4, 5]);
    expect(b.text).toMatch(/Bireme N rams Trireme T in the stern: die 4 - 1 ram = 3 damage/);
    const h = play(ramSetup({ type: 'heptere' }, {}, 1), [{ ship: 'n', steps: 'F' }], [4]);
    expect(h.text).toMatch(/Heptere N rams Trireme T on the quarter: die 4 \+ 2 ram = 6 damage, 6 in all against hull 6: T sinks/);
    expect(ship(h.state, 't').status).toBe('sunk');
    expect(h.state.wrecks).toEqual([EAST_OF_A]);
    expect(h.log.find((l) => /rams/.test(l.text))?.table).toEqual({ name: 'Ship characteristics', row: 'Heptere: ram +2; Trireme: hull 6' });
  });

  it('adds 1 for maximum speed last turn and maximum speed declared this turn, attained or not', () => {
    const s = battle([
      { id: 'n', side: 'a', type: 'quinquereme', at: { q: 2, r: 3 }, facing: 2, speed: 2 },
      { id: 't', side: 'b', type: 'trireme', at: { q: 4, r: 3 }, facing: 0 },
    ]);
    ship(s, 'n').wentMax = true;
    // Declared 3 (maximum); the ram comes on its second hex, before the third.
    const r = play(s, [{ ship: 'n', steps: 'FFF' }], [3, 6]);
    expect(r.text).toMatch(/die 3 \+ 1 ram \+ 1 full speed = 5 damage/);
    const noLast = structuredClone(s);
    ship(noLast, 'n').wentMax = false;
    expect(play(noLast, [{ ship: 'n', steps: 'FFF' }], [3, 6]).text).toMatch(/die 3 \+ 1 ram = 4 damage/);
    expect(play(s, [{ ship: 'n', steps: 'FF' }], [3, 6]).text).toMatch(/die 3 \+ 1 ram = 4 damage/);
  });

  it('head-on: both roll, the better crew adds 1 a level, the higher rams, a tie both ram', () => {
    const head = (nCrew: ShipSetup['crew'], tCrew: ShipSetup['crew'], dice: number[]) =>
      play(ramSetup({ crew: nCrew }, { crew: tCrew }, 5), [{ ship: 'n', steps: 'F' }], dice);
    const elite = head('elite', 'poor', [2, 4, 3, 2, 6, 6]);
    expect(elite.text).toMatch(/N 2 \+2 = 4, T 4 \(N's better crew \+2\): a tie, each rams the other/);
    expect(ship(elite.state, 't').damage).toBe(3);
    expect(ship(elite.state, 'n').damage).toBe(2);
    expect([ship(elite.state, 'n').afterRam, ship(elite.state, 't').afterRam]).toEqual(['must-back', 'must-back']);
    const t = head('average', 'average', [2, 5, 4, 6]);
    expect(t.text).toMatch(/T rams/);
    expect(t.text).toMatch(/Trireme T rams Trireme N bow to bow: die 4/);
    expect(ship(t.state, 'n').damage).toBe(4);
    expect(ship(t.state, 't').damage).toBe(0);
  });

  it('makes the rammer back off 1 hex next turn, then a one-hexside turn and up to its acceleration from 0', () => {
    let s = play(ramSetup({}, {}, 0), [{ ship: 'n', steps: 'F' }], [2, 6]).state;
    expect(ship(s, 'n').afterRam).toBe('must-back');
    expect(refusal(s, 'a', [{ ship: 'n', steps: 'F' }])?.code).toBe('forced_plot');
    expect(shipToShip.legalActions(s, 'a')).toEqual([{ kind: 'plot', plots: [expect.objectContaining({ ship: 'n', steps: 'B' })] }]);
    // The rammed ship may move off in any direction from a standstill.
    expect(refusal(s, 'b', [{ ship: 't', steps: 'FFF', pivot: 3 }])).toBeNull();
    s = play(s, [{ ship: 'n', steps: 'B' }], []).state;
    expect(ship(s, 'n').hex).toEqual({ q: 3, r: 3 });
    expect(refusal(s, 'a', [{ ship: 'n', steps: 'FFF', pivot: 1 }])).toBeNull();
    expect(refusal(s, 'a', [{ ship: 'n', steps: 'F', pivot: 2 }])?.code).toBe('no_pivot');
    expect(refusal(s, 'a', [{ ship: 'n', steps: 'FFFF', pivot: 0 }])?.code).toBe('bad_speed');
  });

  it('lets only a better crew rake instead of ramming: the raked ship slows, turns worse, cannot board the raker', () => {
    const r = play(ramSetup({ crew: 'elite' }, { crew: 'average' }, 0), [{ ship: 'n', steps: 'FF', rake: true }], []);
    expect(r.text).toMatch(/rakes the oars of Trireme T instead of ramming and slips sideways/);
    const t = ship(r.state, 't');
    expect([t.damage, t.holes, t.raked]).toEqual([0, 0, 1]);
    expect(statsOf(t)).toMatchObject({ cruisingSpeed: 2, maxSpeed: 2, turningCircle: 2 });
    expect(t.rakedBy).toEqual(['n']);
    // The raker went on past: its speed is not affected.
    expect(ship(r.state, 'n').speed).toBe(2);
    // The same order from an equal crew is a ram.
    const same = play(ramSetup({ crew: 'average', type: 'quinquereme' }, { crew: 'average' }, 0), [{ ship: 'n', steps: 'F', rake: true }], [3, 6]);
    expect(same.text).toMatch(/rams/);
    // A raked ship never boards its raker, even when it wants to.
    const b = ramSetup({ crew: 'average' }, { crew: 'average' }, 0);
    ship(b, 't').rakedBy = ['n'];
    const rb = play(
      b,
      [
        { ship: 'n', steps: 'F' },
        { ship: 't', board: true },
      ],
      [1, 6],
    );
    expect(rb.state.fights).toEqual([]);
  });
});

describe('boarding', () => {
  const rammed = (n: Partial<ShipSpec>, t: Partial<ShipSpec> = {}) =>
    battle([
      { id: 'n', side: 'a', type: 'trireme', at: A, facing: 2, ...n },
      { id: 't', side: 'b', type: 'trireme', at: EAST_OF_A, facing: 0, ...t },
    ]);

  it('grapples on 4-6 without a corvus, always with one, always when both want it', () => {
    // Ram 1, grapple 4; melee: n 2 medium (1, 1), t 2 medium (1, 1); plug (in a fight) 6.
    const hit = play(rammed({}), [{ ship: 'n', steps: 'F', board: true }], [1, 4, 1, 1, 1, 1, 6]);
    expect(hit.state.fights).toEqual([{ attacker: 'n', defender: 't', rounds: 1 }]);
    expect(hit.log.find((l) => l.table?.name === 'Boarding')?.table?.row).toBe('4-6 on a d6');
    const miss = play(rammed({}), [{ ship: 'n', steps: 'F', board: true }], [1, 3, 5]);
    expect(miss.state.fights).toEqual([]);
    const corvus = play(
      rammed({ type: 'quinquereme', nation: 'roman', corvus: true, crew: 'poor' }),
      [{ ship: 'n', steps: 'F', board: true }],
      [1, ...Array(12).fill(1), 6],
    );
    expect(corvus.text).toMatch(/drops its corvus: grappled/);
    const both = play(
      rammed({}),
      [
        { ship: 'n', steps: 'F', board: true },
        { ship: 't', board: true },
      ],
      [1, 1, 1, 1, 1, 6],
    );
    expect(both.text).toMatch(/both want to board: grappled/);
    // Grappled ships stay put.
    expect(refusal(both.state, 'a', [{ ship: 'n', steps: 'F' }])?.code).toBe('forced_plot');
  });

  it('kills with light marines on 6, medium on 5-6, heavy on 4-6, lightest first', () => {
    const s = rammed({ type: 'quadrireme', nation: 'roman' }, { type: 'quadrireme' });
    s.fights = [{ attacker: 'n', defender: 't', rounds: 0 }];
    ship(s, 't').marines = { light: 1, medium: 3, heavy: 0 };
    // n: 5 heavy roll 4, 4, 3, 3, 3 → 2 kills (the light one first, then a medium); t: 1 light 5 (none), 3 medium 5, 4, 4 → 1.
    const r = play(s, [], [4, 4, 3, 3, 3, 5, 5, 4, 4]);
    expect(ship(r.state, 't').marines).toEqual({ light: 0, medium: 2, heavy: 0 });
    expect(ship(r.state, 'n').marines).toEqual({ light: 0, medium: 0, heavy: 4 });
    const rows = r.log.filter((l) => l.table?.name === 'Marine melee').map((l) => l.table?.row);
    expect(rows).toEqual(['heavy: kills on 4-6', 'light: kills on 6', 'medium: kills on 5-6']);
    const l = rammed({}, {});
    l.fights = [{ attacker: 'n', defender: 't', rounds: 0 }];
    ship(l, 'n').marines = { light: 2, medium: 0, heavy: 0 };
    const lr = play(l, [], [6, 5, 1, 1]);
    expect(ship(lr.state, 't').marines.medium).toBe(1);
  });

  it('surrenders a defender outnumbered more than 2 to 1; a repulsed attacker lets the defender cut or counter-board', () => {
    const s = rammed({ type: 'quadrireme', nation: 'roman' });
    s.fights = [{ attacker: 'n', defender: 't', rounds: 0 }];
    // 5 heavy against 2 medium: n kills none, t kills none: 5 > 2 x 2.
    const r = play(s, [], [1, 1, 1, 1, 1, 1, 1]);
    expect(ship(r.state, 't').status).toBe('surrendered');
    expect(ship(r.state, 't').takenBy).toBe('a');
    expect(r.state.outcome?.winner).toBe('a');
    // 4 against 2 is not more than 2:1: the fight goes on.
    const even = rammed({ type: 'quadrireme' });
    even.fights = [{ attacker: 'n', defender: 't', rounds: 0 }];
    expect(play(even, [], [1, 1, 1, 1, 1, 1]).state.fights).toHaveLength(1);
    const rep = rammed({}, { type: 'quinquereme' });
    rep.fights = [{ attacker: 'n', defender: 't', rounds: 0 }];
    const rr = play(rep, [], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(rr.state.stage).toBe('repulse');
    expect(shipToShip.turn(rr.state)).toMatchObject({ kind: 'side', side: 'b' });
    expect(shipToShip.legalActions(rr.state, 'b')).toEqual([
      { kind: 'repulse', ship: 't', choice: 'cut' },
      { kind: 'repulse', ship: 't', choice: 'counter-board' },
    ]);
    expect(shipToShip.legalActions(rr.state, 'a')).toEqual([]);
    const counter = shipToShip.apply(rr.state, 'b', { kind: 'repulse', ship: 't', choice: 'counter-board' }, fixedDice([]));
    if (!counter.ok) throw new Error(counter.error.message);
    expect(counter.state.fights).toEqual([{ attacker: 't', defender: 'n', rounds: 1 }]);
    expect(counter.state.stage).toBe('plot');
    const cut = shipToShip.apply(rr.state, 'b', { kind: 'repulse', ship: 't', choice: 'cut' } as Action, fixedDice([]));
    if (!cut.ok) throw new Error(cut.error.message);
    expect(cut.state.fights).toEqual([]);
    expect(refusal(cut.state, 'a', [{ ship: 'n', steps: 'F', pivot: 3 }])).toBeNull();
  });
});

describe('holes', () => {
  const holed = (holes: number) => {
    const s = battle([
      { id: 'n', side: 'a', type: 'trireme', at: A, facing: 2 },
      { id: 't', side: 'b', type: 'trireme', at: { q: 9, r: 3 }, facing: 0 },
    ]);
    ship(s, 't').holes = holes;
    return s;
  };

  it('plugs each hole on 5-6 (only 6 in a boarding fight); each still open lets in 1 damage a turn; plugged stays plugged', () => {
    const r = play(holed(2), [], [5, 4]);
    expect(ship(r.state, 't')).toMatchObject({ holes: 1, plugged: 1, damage: 1 });
    expect(r.log.find((l) => l.table?.name === 'Plugging holes')?.table?.row).toBe('no boarding fight: 5-6');
    const next = play(r.state, [], [6]);
    expect(ship(next.state, 't')).toMatchObject({ holes: 0, plugged: 2, damage: 1 });
    // No more rolls for plugged holes.
    expect(ship(play(next.state, [], []).state, 't').damage).toBe(1);
    const fight = holed(1);
    ship(fight, 'n').hex = { q: 8, r: 3 };
    fight.fights = [{ attacker: 'n', defender: 't', rounds: 0 }];
    const f = play(fight, [], [1, 1, 1, 1, 5]);
    expect(ship(f.state, 't')).toMatchObject({ holes: 1, damage: 1 });
    expect(f.log.find((l) => l.table?.name === 'Plugging holes')?.table?.row).toBe('boarding fight ongoing: 6');
  });

  it('sinks a ship when its open holes bring the damage to its hull', () => {
    const s = holed(1);
    ship(s, 't').damage = 5;
    const r = play(s, [], [2]);
    expect(ship(r.state, 't').status).toBe('sunk');
    expect(r.text).toMatch(/sinks with all hands from the water its open holes let in/);
    expect(r.state.outcome).toMatchObject({ winner: 'a' });
  });
});

describe('the board and the log', () => {
  it('marks damage, holes, grapples, rakes, crew, surrender and speed on the counters', () => {
    const s = battle([
      { id: 'n', side: 'a', type: 'quinquereme', nation: 'roman', corvus: true, crew: 'poor', at: A, facing: 2 },
      { id: 't', side: 'b', type: 'trireme', at: EAST_OF_A, facing: 0 },
    ]);
    Object.assign(ship(s, 't'), { damage: 3, holes: 2, raked: 1 });
    s.fights = [{ attacker: 'n', defender: 't', rounds: 0 }];
    const marks = shipToShip.board(s).counters.find((c) => c.id === 't')?.marks;
    expect(marks).toEqual(
      expect.arrayContaining(['damage 3/6', '2 open holes', 'grappled, boarded', 'oars raked', 'crew 2 medium, 1 bow', 'speed 0', 'no maximum speed']),
    );
    expect(shipToShip.board(s).counters.find((c) => c.id === 'n')?.marks).toEqual(
      expect.arrayContaining(['poor crew', 'corvus', 'grappled, boarding', 'crew 10 heavy, 1 bow, 1 cat']),
    );
  });

  it('describes a plot in words', () => {
    const s = battle([
      { id: 'n', side: 'a', type: 'trireme', at: A, facing: 2 },
      { id: 't', side: 'b', type: 'trireme', at: { q: 9, r: 3 }, facing: 0 },
    ]);
    expect(shipToShip.describe(s, { kind: 'plot', plots: [plot({ ship: 'n', steps: 'FLFF', fire: 'close', targets: ['t'], board: true })] })).toBe(
      'N: FLFF (speed 4, maximum), fires at short range at t first, boards',
    );
  });
});
