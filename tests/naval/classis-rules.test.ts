import { describe, expect, it } from 'vitest';
import rulesData from '../../shared/naval/classis/rules.json';
import { classis, classisScenarios } from '../../shared/naval/classis/index.ts';
import {
  RULES,
  commanderFromDie,
  crewFromDie,
  enginePointsPerEngine,
  maxTowers,
  loadRules,
  ramResultFor,
  repairResultFor,
  shipType,
} from '../../shared/naval/classis/rules.ts';
import { SetupSchema, type SetupInput } from '../../shared/naval/classis/setup.ts';
import { fixedDice } from '../../shared/naval/dice.ts';
import { fromColumnRow } from '../../shared/naval/hex.ts';

describe('the ship factors chart', () => {
  // [type, ram, boarding, speed, turning, cataphract]
  const chart: [string, number, number, number, number, boolean][] = [
    ['lembos', 1, 1, 5, 3, false],
    ['pentekonter', 2, 1, 4, 3, false],
    ['hemiolia', 3, 2, 5, 3, false],
    ['bireme', 3, 2, 4, 3, false],
    ['liburnian', 5, 3, 3, 3, false],
    ['trireme', 6, 4, 3, 3, false],
    ['triemiolia', 6, 4, 4, 3, false],
    ['ct-trireme', 7, 6, 3, 3, true],
    ['quadrireme', 7, 5, 2, 2, false],
    ['quinquereme', 7, 6, 2, 2, false],
    ['ct-quadrireme', 8, 7, 2, 2, true],
    ['ct-quinquereme', 8, 8, 2, 2, true],
    ['six', 9, 12, 1, 1, true],
    ['seven', 9, 15, 1, 1, true],
    ['eight', 10, 20, 1, 1, true],
    ['nine', 10, 30, 1, 1, true],
    ['ten', 11, 40, 1, 1, true],
    ['polyreme', 12, 50, 1, 1, true],
  ];

  it('holds all 18 types with their factors', () => {
    expect(RULES.shipTypes).toHaveLength(18);
    for (const [id, ram, boarding, speed, turning, cataphract] of chart) expect(shipType(id), id).toMatchObject({ ram, boarding, speed, turning, cataphract });
  });

  it('fits every Six and larger with two towers and two engines, and no smaller type', () => {
    for (const t of RULES.shipTypes) {
      const big = ['six', 'seven', 'eight', 'nine', 'ten', 'polyreme'].includes(t.id);
      expect(t.fitted, t.id).toEqual(big ? { towers: 2, engines: 2 } : undefined);
    }
  });

  it('gives an engine 1 point on a three, four or five, 2 on a Six to Ten, 3 on larger polyremes, none on open ships', () => {
    const points = Object.fromEntries(RULES.shipTypes.map((t) => [t.id, enginePointsPerEngine(t)]));
    expect(points).toMatchObject({ 'ct-trireme': 1, 'ct-quadrireme': 1, 'ct-quinquereme': 1, six: 2, seven: 2, eight: 2, nine: 2, ten: 2, polyreme: 3 });
    expect(points.trireme).toBe(0);
    expect(points.quinquereme).toBe(0);
  });

  it('allows towers only on cataphracts, tower points not above the original boarding factor', () => {
    expect(maxTowers(shipType('ct-trireme')!)).toBe(1); // 6 boarding: one tower of 4
    expect(maxTowers(shipType('ct-quadrireme')!)).toBe(1); // 7: the rules' own example
    expect(maxTowers(shipType('ct-quinquereme')!)).toBe(2); // 8: two towers of 4
    expect(maxTowers(shipType('trireme')!)).toBe(0);
    expect(maxTowers(shipType('liburnian')!)).toBe(0);
  });
});

describe('the charts and tables', () => {
  it('rolls crews on a d12: 1-3 green, 4-9 average, 10-12 expert', () => {
    expect([1, 3, 4, 9, 10, 12].map(crewFromDie)).toEqual(['green', 'green', 'average', 'average', 'expert', 'expert']);
  });

  it('rolls commanders on a d12: 1-3 below average (2), 4-9 average (3), 10-12 above average (4)', () => {
    expect([1, 3, 4, 9, 10, 12].map((d) => commanderFromDie(d).rating)).toEqual([2, 2, 3, 3, 4, 4]);
    expect(commanderFromDie(2).moraleModifier).toBe(-1);
    expect(commanderFromDie(5).moraleModifier).toBe(0);
    expect(commanderFromDie(11).moraleModifier).toBe(1);
  });

  it('reads the ram results by difference', () => {
    expect([-9, -4, -3, -2, -1, 0, 1, 2, 3, 9].map((d) => ramResultFor(d).result)).toEqual([
      'sunk',
      'sunk',
      'crippled',
      'crippled',
      'roll',
      'roll',
      'roll',
      'none',
      'none',
      'none',
    ]);
    expect(RULES.closeCallCrippledUpTo).toBe(3);
  });

  it('reads the repair die: 1 sinks, 2 crippled for good, 3-4 nothing, 5-6 recovers', () => {
    expect([1, 2, 3, 4, 5, 6].map((d) => repairResultFor(d).result)).toEqual(['sinks', 'permanently-crippled', 'nothing', 'nothing', 'recovers', 'recovers']);
  });

  it('refuses a broken rules file, naming the place', () => {
    const typo = structuredClone(rulesData) as { shipTypes: Record<string, unknown>[] };
    typo.shipTypes[4].ram = 'five';
    const a = loadRules(typo);
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.error).toMatch(/^classis rules\.json: shipTypes\[4\]\.ram: /);

    const gap = structuredClone(rulesData) as { ramResults: { from: number | null }[] };
    gap.ramResults[2].from = 0; // -1 is no longer covered
    const b = loadRules(gap);
    expect(b.ok).toBe(false);
    if (!b.ok) expect(b.error).toContain('ramResults[2].from');

    const extra = { ...structuredClone(rulesData), rammingBonus: 1 };
    const c = loadRules(extra);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.error).toMatch(/rammingBonus/);

    const chart = structuredClone(rulesData) as { crewChart: { to: number }[] };
    chart.crewChart[1].to = 8; // 9 falls between the rows
    const d = loadRules(chart);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.error).toContain('crewChart[2].from');

    expect(loadRules(rulesData).ok).toBe(true);
  });
});

const ship = (id: string, col: number, type = 'trireme', extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  type,
  hex: fromColumnRow(col, 1),
  facing: 3,
  ...extra,
});

function setup(first: Record<string, unknown>[] = [ship('a1', 1), ship('a2', 2)]): SetupInput {
  return {
    title: 'test',
    sea: { columns: 14, rows: 12 },
    sides: [
      { id: 'a', name: 'A', squadrons: [{ id: 'sa', name: 'SA', commander: { name: 'Ca' }, flagship: String(first[0]?.id ?? 'a1'), ships: first }] },
      {
        id: 'b',
        name: 'B',
        squadrons: [
          {
            id: 'sb',
            name: 'SB',
            commander: { name: 'Cb' },
            flagship: 'b1',
            ships: [ship('b1', 1), ship('b2', 2)].map((x) => ({ ...x, hex: fromColumnRow(Number(x.id.slice(1)), 10) })),
          },
        ],
      },
    ],
  } as SetupInput;
}

function refusal(input: SetupInput): string {
  const r = SetupSchema.safeParse(input);
  expect(r.success).toBe(false);
  return r.success ? '' : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
}

describe('the set-up', () => {
  it('accepts a plain set-up', () => {
    expect(SetupSchema.safeParse(setup()).success).toBe(true);
  });

  it('needs at least two ships in a squadron, and at most the limit', () => {
    expect(refusal(setup([ship('a1', 1)]))).toMatch(/sides\.0\.squadrons\.0\.ships/);
    const many = Array.from({ length: RULES.squadronShips.max + 1 }, (_, i) => ({
      ...ship(`a${i}`, i % 14),
      hex: fromColumnRow(i % 14, 1 + Math.floor(i / 14)),
    }));
    expect(refusal(setup(many))).toMatch(/sides\.0\.squadrons\.0\.ships/);
  });

  it('lets only cataphracts carry towers and engines, within their limits', () => {
    expect(refusal(setup([ship('a1', 1, 'trireme', { towers: 1 }), ship('a2', 2)]))).toMatch(/ships\.0\.towers: only cataphract ships may carry towers/);
    expect(refusal(setup([ship('a1', 1, 'quinquereme', { engines: 1 }), ship('a2', 2)]))).toMatch(/ships\.0\.engines: only cataphract/);
    expect(refusal(setup([ship('a1', 1, 'ct-quadrireme', { towers: 2 }), ship('a2', 2)]))).toMatch(/at most 1 tower.*boarding factor 7/);
    expect(refusal(setup([ship('a1', 1, 'ct-trireme', { engines: 3 }), ship('a2', 2)]))).toMatch(/engines/);
    expect(refusal(setup([ship('a1', 1, 'six', { towers: 1 }), ship('a2', 2)]))).toMatch(/a Six always has 2 towers/);
    expect(
      SetupSchema.safeParse(setup([ship('a1', 1, 'ct-quinquereme', { towers: 2, engines: 2 }), ship('a2', 2, 'ct-trireme', { towers: 1, engines: 1 })]))
        .success,
    ).toBe(true);
  });

  it('gives a Six its towers and engines whatever the set-up leaves out', () => {
    const { state } = classis.start(classis.setupSchema.parse(setup([ship('a1', 1, 'six'), ship('a2', 2)])), fixedDice([...Array(4).fill(5), 1, 1, 1, 1]));
    expect(state.ships[0]).toMatchObject({ towers: 2, engines: 2 });
    expect(state.ships[1]).toMatchObject({ towers: 0, engines: 0 });
  });

  it('refuses unknown types, a flagship from elsewhere, two ships in a hex, ships on land or off the board, a rating off the chart', () => {
    expect(refusal(setup([ship('a1', 1, 'trirem'), ship('a2', 2)]))).toMatch(/ships\.0\.type: "trirem" is not a ship type/);
    const s = setup();
    (s.sides[0].squadrons[0] as { flagship: string }).flagship = 'b1';
    expect(refusal(s)).toMatch(/flagship: the flagship "b1" is not a ship of this squadron/);
    expect(refusal(setup([ship('a1', 1), ship('a2', 1)]))).toMatch(/two ships in one hex/);
    expect(refusal(setup([ship('a1', 1), ship('a2', 20)]))).toMatch(/off the board/);
    const land = setup();
    land.sea.land = [fromColumnRow(1, 1)];
    expect(refusal(land)).toMatch(/on land/);
    const rating = setup();
    rating.sides[0].squadrons[0].commander.rating = 5;
    expect(refusal(rating)).toMatch(/commander\.rating/);
  });

  it('rolls the crews, then the commanders (admiral first), then the wind, each on its chart', () => {
    // 4 crews (d12), 2 commanders (d12), the wind (d6), then the first chit (d7) and initiative (d6).
    const dice = fixedDice([2, 7, 11, 4, 12, 1, 3, 1, 5]);
    const input = { ...setup(), wind: 'roll' as const };
    const { state, log } = classis.start(classis.setupSchema.parse(input), dice);
    expect(state.ships.map((x) => x.crew)).toEqual(['green', 'average', 'expert', 'average']);
    expect(state.squadrons.map((x) => x.rating)).toEqual([4, 2]);
    expect(state.wind).toBe(2); // the third hexside clockwise from north: south-east
    expect(log.find((l) => l.text.includes('wind'))!.text).toMatch(/south-east.*no effect/);
    expect(log.find((l) => l.text.includes('fleet admiral Ca'))!.table).toEqual({ name: 'Commander quality', row: '10-12: above average (4)' });
    // Every die is on a line.
    expect(log.flatMap((l) => l.rolls).map((r) => r.value)).toEqual([2, 7, 11, 4, 12, 1, 3, 1, 5]);
  });
});

describe('the shipped scenarios', () => {
  it('load, name their source, and start', () => {
    expect(Object.keys(classisScenarios).length).toBeGreaterThanOrEqual(2);
    for (const [id, data] of Object.entries(classisScenarios)) {
      const parsed = classis.setupSchema.safeParse(data);
      expect(parsed.success, `${id}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues[0])}`).toBe(true);
      if (!parsed.success) continue;
      expect(parsed.data.source?.document, id).toBeTruthy();
      expect(classis.start(parsed.data, fixedDice(Array(200).fill(1))).state.activation).not.toBeNull();
    }
    const cyprus = classis.setupSchema.parse(classisScenarios['cyprus-306bc']);
    expect(cyprus.source?.document).toMatch(/Diadochi Naval Rules/);
    expect(cyprus.sea).toMatchObject({ columns: 29, rows: 10 });
  });
});
