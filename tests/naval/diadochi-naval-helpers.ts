/** Small battles for the Diadochi Naval Rules tests: a set-up, deployment done, ships put where a test wants them. */
import { fixedDice } from '../../shared/naval/dice.ts';
import { diadochiNaval } from '../../shared/naval/diadochi-naval/engine.ts';
import { type Setup, SetupSchema } from '../../shared/naval/diadochi-naval/setup.ts';
import type { ShipState, State } from '../../shared/naval/diadochi-naval/state.ts';

export type ShipSpec = { id: string; type?: ShipState['type']; squadron?: 'sa' | 'sb'; x?: number; y?: number; heading?: number };

/** Two squadrons, a (south) and b (north); each squadron's flagship is its first ship unless `flagships` says. */
export function smallSetup(ships: ShipSpec[], extra: Partial<Setup> = {}, flagships: { sa?: string; sb?: string } = {}): Setup {
  const list = ships.map((s, i) => {
    const squadron = s.squadron ?? (s.id.startsWith('a') ? 'sa' : 'sb');
    const south = squadron === 'sa';
    return {
      id: s.id,
      name: s.id.toUpperCase(),
      squadron,
      type: s.type ?? 'trieres',
      x: s.x ?? 2 + i * 1.5,
      y: s.y ?? (south ? 3 : 27),
      heading: s.heading ?? (south ? 0 : 180),
    };
  });
  const first = (q: string) => list.find((s) => s.squadron === q)?.id ?? '';
  return SetupSchema.parse({
    title: 'Test',
    table: { unit: 'cable', width: 40, depth: 30 },
    sides: [
      { id: 'a', name: 'Alpha', home: 'south' },
      { id: 'b', name: 'Beta', home: 'north' },
    ],
    squadrons: [
      { id: 'sa', side: 'a', name: 'Alpha squadron', rating: 6, flagship: flagships.sa ?? first('sa') },
      { id: 'sb', side: 'b', name: 'Beta squadron', rating: 6, flagship: flagships.sb ?? first('sb') },
    ],
    ships: list,
    first: 'a',
    ...extra,
  });
}

/** The battle started and both deployments handed in as set up: side a's movement phase of turn 1. */
export function deployed(setup: Setup): State {
  let state = diadochiNaval.start(setup, fixedDice([])).state;
  for (const side of ['a', 'b']) {
    const r = diadochiNaval.apply(state, side, diadochiNaval.legalActions(state, side)[0], fixedDice([]));
    if (!r.ok) throw new Error(r.error.message);
    state = r.state;
  }
  return state;
}

/** The same state with ships moved (a test's arrangement) and the phase chosen. */
export function arranged(state: State, places: Record<string, Partial<ShipState>>, stage: State['stage'] = state.stage, active = state.active): State {
  const next = structuredClone(state);
  for (const s of next.ships) if (places[s.id]) Object.assign(s, places[s.id]);
  next.stage = stage;
  next.active = active;
  for (const s of next.ships) next.phaseStart[s.id] = { x: s.x, y: s.y, heading: s.heading, outOfFormation: s.outOfFormation };
  return next;
}

export const ship = (state: State, id: string): ShipState => {
  const s = state.ships.find((x) => x.id === id);
  if (!s) throw new Error(`no ship ${id}`);
  return s;
};
