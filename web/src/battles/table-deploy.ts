/**
 * Deployment on the measured table, the same for both table rulesets: where a side may place its own pieces before
 * the battle (a Diadochi side plots every ship within its zone; an Oi Navarcoi! side may re-place its squadrons
 * where the scenario gives it a zone, each in a formation the scenario allows), the bases a piece stands on at a
 * place, and the deploy action a plot makes, checked whole by the engine as the server will check it.
 */
import type { Action as DiadochiAction } from '../../../shared/naval/diadochi-naval/actions.ts';
import { zoneOf } from '../../../shared/naval/diadochi-naval/deployment.ts';
import { diadochiNaval } from '../../../shared/naval/diadochi-naval/engine.ts';
import { type State as DiadochiState, baseOf } from '../../../shared/naval/diadochi-naval/state.ts';
import type { Action as OiAction } from '../../../shared/naval/oi-navarcoi/actions.ts';
import { oiNavarcoi } from '../../../shared/naval/oi-navarcoi/engine.ts';
import { standsOf } from '../../../shared/naval/oi-navarcoi/layout.ts';
import type { Formation } from '../../../shared/naval/oi-navarcoi/rules.ts';
import { type State as OiState, sideOf, standCount } from '../../../shared/naval/oi-navarcoi/state.ts';
import { type Base, normalizeHeading } from '../../../shared/naval/table/index.ts';
import type { TableRulesetId } from './table-picture.ts';

/** Where a piece is placed: its middle, heading, and (Oi Navarcoi!) its formation. */
export interface Placement {
  readonly x: number;
  readonly y: number;
  readonly heading: number;
  readonly formation?: string;
}

export interface DeployPiece {
  readonly id: string;
  readonly name: string;
  /** Where the scenario puts it. */
  readonly start: Placement;
  /** The formations it may deploy in (empty: a Diadochi ship, which has none). */
  readonly formations: readonly string[];
}

export interface Zone {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

export interface Deployment {
  /** The side's zone, in table units. */
  readonly zone: Zone;
  readonly pieces: readonly DeployPiece[];
  basesOf(id: string, at: Placement): Base[];
  /**
   * The deploy action for the places given (by piece; a piece not given stands where the scenario puts it), on the
   * engine's own legal deploy action `base` (an Oi Navarcoi! side's signals written down stay as that action has them).
   */
  actionOf(placed: Readonly<Record<string, Placement>>, base: unknown): unknown;
  /** The engine's reason for refusing the action, or null. */
  check(action: unknown): string | null;
}

/** A placement as the engine takes it: the heading within 0–360°, lengths to a hundredth. */
export function tidy(p: Placement): Placement {
  const heading = Math.round(normalizeHeading(p.heading) * 10) / 10;
  return { ...p, x: Math.round(p.x * 100) / 100, y: Math.round(p.y * 100) / 100, heading: heading >= 360 ? 0 : heading };
}

function diadochiDeployment(state: DiadochiState, side: string): Deployment {
  const own = state.ships.filter((s) => s.side === side);
  return {
    zone: zoneOf(state, side),
    pieces: own.map((s) => ({ id: s.id, name: s.name, start: { x: s.x, y: s.y, heading: s.heading }, formations: [] })),
    basesOf(id, at) {
      const ship = own.find((s) => s.id === id);
      return ship ? [baseOf({ type: ship.type, x: at.x, y: at.y, heading: at.heading })] : [];
    },
    actionOf(placed) {
      const placements = own.map((s) => {
        const p = placed[s.id] ?? { x: s.x, y: s.y, heading: s.heading };
        return { ship: s.id, x: p.x, y: p.y, heading: p.heading };
      });
      return { kind: 'deploy', placements } satisfies DiadochiAction;
    },
    check: (action) => diadochiNaval.check(state, side, action as DiadochiAction)?.message ?? null,
  };
}

function oiDeployment(state: OiState, side: string): Deployment | null {
  const s = sideOf(state, side);
  if (!s.zone) return null;
  const own = state.squadrons.filter((q) => q.side === side);
  return {
    zone: s.zone,
    pieces: own.map((q) => ({
      id: q.id,
      name: q.name,
      start: { x: q.x, y: q.y, heading: q.heading, formation: q.formation },
      formations: q.freighters ? ['unformed'] : s.deployFormations,
    })),
    basesOf(id, at) {
      const q = own.find((x) => x.id === id);
      return q ? standsOf((at.formation ?? q.formation) as Formation, standCount(q), { x: at.x, y: at.y, heading: at.heading }) : [];
    },
    actionOf(placed, base) {
      const signals = (base as Extract<OiAction, { kind: 'deploy' }> | null)?.signals ?? [];
      const placements = own
        .filter((q) => placed[q.id])
        .map((q) => {
          const p = placed[q.id];
          return { squadron: q.id, x: p.x, y: p.y, heading: p.heading, formation: (p.formation ?? q.formation) as Formation };
        });
      return { kind: 'deploy', placements, signals } satisfies OiAction;
    },
    check: (action) => oiNavarcoi.check(state, side, action as OiAction)?.message ?? null,
  };
}

/** Whether a legal action is a deployment (handed in whole). */
export const isDeploy = (action: unknown): boolean => (action as { kind?: string } | null)?.kind === 'deploy';

/** The side's deployment now: null when it has none to hand in or may not re-place its pieces. */
export function deploymentOf(ruleset: TableRulesetId, state: unknown, side: string): Deployment | null {
  if (ruleset === 'diadochi-naval') {
    const st = state as DiadochiState;
    return st.stage === 'deploy' && !st.deployed.includes(side) ? diadochiDeployment(st, side) : null;
  }
  const st = state as OiState;
  return st.phase === 'deploy' && !sideOf(st, side).deployed ? oiDeployment(st, side) : null;
}
