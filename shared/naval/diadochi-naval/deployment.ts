/** Where a side may plot its ships before the battle: its zone, and the check of a plot. */
import type { Refusal } from '../ruleset.ts';
import { TOUCH, placing } from '../table/index.ts';
import type { Action } from './actions.ts';
import { RULES } from './rules.ts';
import type { Zone } from './setup.ts';
import { type State, baseOf, sideName } from './state.ts';

/** A side's deployment zone: the scenario's, or its half of the table at least 8 cables from the centreline. */
export function zoneOf(state: Pick<State, 'zones' | 'table' | 'sides'>, side: string): Zone {
  const given = state.zones[side];
  if (given) return given;
  const home = state.sides.find((s) => s.id === side)?.home ?? 'south';
  const mid = state.table.depth / 2;
  const gap = Math.min(RULES.deployment.fromCentreline, mid - 1);
  return home === 'south' ? { x0: 0, y0: 0, x1: state.table.width, y1: mid - gap } : { x0: 0, y0: mid + gap, x1: state.table.width, y1: state.table.depth };
}

export function checkDeploy(state: State, side: string, placements: Extract<Action, { kind: 'deploy' }>['placements']): Refusal | null {
  const own = state.ships.filter((s) => s.side === side);
  const zone = zoneOf(state, side);
  const seen = new Set<string>();
  const placed: { id: string; base: ReturnType<typeof baseOf> }[] = [];
  for (const p of placements) {
    const ship = own.find((s) => s.id === p.ship);
    if (!ship) return { code: 'not_your_ship', message: `${p.ship} is not a ship of this side.` };
    if (seen.has(ship.id)) return { code: 'placed_twice', message: `${ship.name} is placed twice.` };
    seen.add(ship.id);
    const base = baseOf({ ...ship, ...p });
    const where = placing(state.table, base, placed);
    if (!where.ok) return { code: 'bad_place', message: `${ship.name} cannot stand there: ${where.reason.replace('overlap ', 'overlap ship ')}.` };
    if (base.x < zone.x0 - TOUCH || base.x > zone.x1 + TOUCH || base.y < zone.y0 - TOUCH || base.y > zone.y1 + TOUCH)
      return {
        code: 'outside_zone',
        message: `${ship.name} must start within ${sideName(state, side)}'s deployment zone (x ${zone.x0}–${zone.x1}, y ${zone.y0}–${zone.y1} cables).`,
      };
    placed.push({ id: ship.name, base });
  }
  const missing = own.filter((s) => !seen.has(s.id));
  if (missing.length)
    return { code: 'unplaced', message: `Every ship must be placed: ${missing.map((s) => s.name).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not.` };
  return null;
}
