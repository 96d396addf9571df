/** Small battles built by hand for the Oi Navarcoi! tests: two fleets on an open 72" by 48" table. */
import { fixedDice } from '../../shared/naval/dice.ts';
import { oiNavarcoi } from '../../shared/naval/oi-navarcoi/engine.ts';
import { BattleLog } from '../../shared/naval/oi-navarcoi/log.ts';
import { type Setup, SetupSchema, type SquadronSetup } from '../../shared/naval/oi-navarcoi/setup.ts';
import type { Squadron, State } from '../../shared/naval/oi-navarcoi/state.ts';

export type Spec = Partial<SquadronSetup> & Pick<SquadronSetup, 'id' | 'side' | 'x' | 'y' | 'heading'>;

export function setupOf(squadrons: Spec[], extra: Partial<Setup> = {}): Setup {
  return SetupSchema.parse({
    title: 'Test',
    scenario: 'clash',
    table: { width: 72, depth: 48 },
    edges: { a: { south: 'friendly', north: 'enemy' }, b: { north: 'friendly', south: 'enemy' } },
    sides: [
      { id: 'a', name: 'Alpha', fleet: 'alpha', role: 'invader' },
      { id: 'b', name: 'Beta', fleet: 'beta', role: 'defender' },
    ],
    squadrons: squadrons.map((q) => ({ name: q.id[0].toUpperCase() + q.id.slice(1), formation: 'epi-mias', ...q })),
    ...extra,
  });
}

/** A battle started and deployed as set, standing at `phase` with `acting` to move. */
export function battle(squadrons: Spec[], extra: Partial<Setup> = {}): State {
  const state = oiNavarcoi.start(setupOf(squadrons, extra), fixedDice([])).state;
  for (const s of state.sides) s.deployed = true;
  state.phase = 'move';
  state.turn = 1;
  state.acting = 'a';
  return state;
}

export const sq = (state: State, id: string): Squadron => {
  const q = state.squadrons.find((x) => x.id === id);
  if (!q) throw new Error(`no squadron ${id}`);
  return q;
};

/** A log over fixed dice, and its lines' text joined. */
export function logWith(dice: number[]): { log: BattleLog; text: () => string } {
  const log = new BattleLog(fixedDice(dice), 0);
  return { log, text: () => log.lines.map((l) => l.text).join('\n') };
}

/** Mias front-to-front: a at the south facing north, b `gap` inches ahead facing south. */
export const DEPTH = 3.5 / 2.54;
export const facing = (gap: number, a: Partial<Spec> = {}, b: Partial<Spec> = {}): Spec[] => [
  { id: 'a1', side: 'a', x: 36, y: 20, heading: 0, ...a },
  { id: 'b1', side: 'b', x: 36, y: 20 + DEPTH + gap, heading: 180, ...b },
];
