/** The battle's first state from its set-up, and the deployments once both sides have handed theirs in. */
import { placing } from '../table/index.ts';
import type { Action } from './actions.ts';
import { bodyOf } from './layout.ts';
import type { BattleLog } from './log.ts';
import { RULES } from './rules.ts';
import type { Setup } from './setup.ts';
import { type Squadron, type State, sideOf, standCount, tableOf } from './state.ts';

export function initialState(setup: Setup): State {
  const stands = setup.fullSize ? RULES.squadronStands.fullSize : RULES.squadronStands.standard;
  const squadrons: Squadron[] = setup.squadrons.map((q) => ({
    id: q.id,
    name: q.name,
    side: q.side,
    quality: q.quality,
    morale: q.morale,
    ships: q.ships,
    strategos: q.strategos,
    freighters: q.freighters,
    formation: q.formation,
    x: q.x,
    y: q.y,
    heading: q.heading,
    halves: stands * 2,
    startHalves: stands * 2,
    disordered: false,
    status: q.anchored ? 'anchored' : 'afloat',
    engaged: [],
    katastrophe: false,
    autoFail: false,
    flankAttacker: false,
    testMorale: false,
    moved: false,
    stationary: false,
    mustFormLine: false,
    launched: false,
    target: null,
    exit: null,
    signals: [],
    signalled: null,
    raceTest: false,
  }));
  return {
    title: setup.title,
    source: setup.source,
    scenario: setup.scenario,
    fullSize: setup.fullSize,
    table: { unit: 'inch', width: setup.table.width, depth: setup.table.depth, terrain: setup.terrain, edges: setup.edges },
    sides: setup.sides.map((s) => {
      const warships = setup.squadrons.filter((q) => q.side === s.id && !q.freighters).length;
      return {
        ...s,
        signalsLeft: s.signals ? Math.ceil(warships / RULES.signals.squadronsPerSignal) : 0,
        signalTurn: 0,
        admiralKilled: false,
        startSquadrons: warships,
        deployed: false,
      };
    }),
    squadrons,
    flotsam: [],
    wind: setup.wind ?? null,
    convoyExit: setup.convoyExit ?? null,
    phalanxes: setup.phalanxes.map((p) => ({
      ...p,
      detached: [],
      formation: 'line' as const,
      disordered: false,
      order: { kind: 'hold' as const, target: null, x: null, y: null },
      pushedBack: 0,
      engaged: null,
      destroyed: false,
      marched: false,
    })),
    positions: setup.positions.map((p) => ({ ...p, heldBy: p.manned ? p.side : null, pushedBack: 0 })),
    turn: 0,
    turnLimit: setup.turnLimit,
    phase: 'deploy',
    acting: null,
    second: null,
    allowances: {},
    pending: {},
    rolls: 0,
    leftField: null,
    outcome: null,
  };
}

type Deploy = Extract<Action, { kind: 'deploy' }>;

/** Whether a side's deployment keeps the rules: its own squadrons, in its zone and formations, clear of each other and the land. */
export function checkDeploy(state: State, side: string, action: Deploy): string | null {
  const s = sideOf(state, side);
  if (action.placements.length && !s.zone) return `${s.name} deploys where the scenario puts it: no squadron may be re-placed.`;
  const seen = new Set<string>();
  const moved = new Map<string, Squadron>();
  for (const p of action.placements) {
    const q = state.squadrons.find((x) => x.id === p.squadron);
    if (!q || q.side !== side) return `${p.squadron} is not a squadron of ${s.name}.`;
    if (seen.has(q.id)) return `${q.name} is placed twice.`;
    seen.add(q.id);
    if (q.freighters ? p.formation !== 'unformed' : !s.deployFormations.includes(p.formation))
      return `${q.name} may deploy in ${q.freighters ? 'no formation (freighters are unformed)' : s.deployFormations.join(', ')}, not ${p.formation}.`;
    const z = s.zone!;
    if (p.x < z.x0 || p.x > z.x1 || p.y < z.y0 || p.y > z.y1)
      return `${q.name}'s centre must lie in ${s.name}'s deployment zone (${z.x0}–${z.x1}, ${z.y0}–${z.y1}).`;
    moved.set(q.id, { ...q, x: p.x, y: p.y, heading: p.heading, formation: p.formation });
  }
  const all = state.squadrons.filter((q) => q.side === side).map((q) => moved.get(q.id) ?? q);
  for (const q of all) {
    const others = all.filter((o) => o !== q).map((o) => ({ id: o.name, base: bodyOf(o.formation, standCount(o), o) }));
    const placed = placing(tableOf(state), bodyOf(q.formation, standCount(q), q), others);
    if (!placed.ok) return `${q.name} cannot deploy there: ${placed.reason}.`;
  }
  const assigned = new Set<string>();
  for (const a of action.signals) {
    const q = state.squadrons.find((x) => x.id === a.squadron);
    if (!q || q.side !== side) return `${a.squadron} is not a squadron of ${s.name}.`;
    if (assigned.has(q.id)) return `${q.name}'s signals are written twice.`;
    assigned.add(q.id);
    if (a.signals.length && !s.signals) return `${s.name} may not use signals in this battle.`;
    if (q.freighters && a.signals.length) return 'Freighters take no signals.';
    if (new Set(a.signals).size !== a.signals.length) return `${q.name} has a signal written twice.`;
  }
  return null;
}

/** Puts a side's deployment on the table and writes down its signals. */
export function applyDeploy(state: State, side: string, action: Deploy, log: BattleLog): void {
  for (const p of action.placements)
    Object.assign(state.squadrons.find((q) => q.id === p.squadron)!, { x: p.x, y: p.y, heading: p.heading, formation: p.formation });
  for (const a of action.signals) state.squadrons.find((q) => q.id === a.squadron)!.signals = [...a.signals].sort();
  const s = sideOf(state, side);
  const written = state.squadrons.filter((q) => q.side === side && q.signals.length).map((q) => `${q.name} ${q.signals.join(', ')}`);
  log.line(
    `${s.name} deploys ${state.squadrons.filter((q) => q.side === side).length} squadrons${action.placements.length ? ` (${action.placements.length} re-placed)` : ' as the scenario sets them'}; signals written: ${written.length ? written.join('; ') : 'none'} (${s.signalsLeft} to give in the battle, one a turn).`,
  );
}
