import { ARMY, COASTAL, SEA, isAdjacentArmy } from '../../variant/load.ts';
import { locationName, resolveLocation, type Board } from '../../state/board.ts';
import { err, ok, type Result } from '../../result.ts';
import type { Order } from '../../orders/types.ts';

/**
 * Retreats: a dislodged unit may move to an adjacent province that is empty,
 * was not left empty by a standoff, and is not where its attacker came from
 * (unless the attack came by convoy, DATC 4.A.5). Two retreats to one
 * province both fail; unordered dislodged units disband.
 */

export interface Dislodged {
  board: Board; // the dislodged units as a board of their own (their locations)
  attackerFrom: Int16Array; // per dislodged unit: attacker's province, or -1 (by convoy)
}

export interface RetreatIntent {
  unit: number; // index into the dislodged board
  to: number; // location, or -1 for disband
}

/** Check one retreat-phase order against the dislodged units and the board they retreat onto. */
export function checkRetreatOrder(dislodged: Dislodged, board: Board, standoff: ArrayLike<number>, power: number, order: Order): Result<RetreatIntent> {
  const d = dislodged.board;
  const v = d.variant;
  if (order.kind !== 'retreat' && order.kind !== 'disband') return err(`A ${order.kind} order cannot be given in a retreat phase.`);
  const l = resolveLocation(v, order.unit.at);
  const u = l < 0 ? -1 : d.unitAt[v.locationProvince[l]];
  if (u < 0) return err(`There is no dislodged unit in ${l < 0 ? `"${order.unit.at}"` : v.provinceNames[v.locationProvince[l]]}.`);
  if (d.power[u] !== power) return err(`The dislodged unit in ${v.provinceNames[d.province[u]]} belongs to ${v.powers[d.power[u]]}.`);
  if (order.kind === 'disband') return ok({ unit: u, to: -1 });

  const to = resolveLocation(v, order.to);
  if (to < 0) return err(`"${order.to}" is not a place on this map.`);
  const dest = v.locationProvince[to];
  const here = d.province[u];
  const destName = v.provinceNames[dest];
  let target = dest;
  if (d.type[u] === ARMY) {
    if (!isAdjacentArmy(v, here, dest))
      return err(`An army in ${v.provinceNames[here]} cannot retreat to ${destName}: not adjacent (retreats cannot be convoyed).`);
  } else {
    const from = d.location[u];
    const L = v.locationCount;
    if (v.provinceKind[dest] !== SEA && v.provinceKind[dest] !== COASTAL) return err(`A fleet cannot retreat inland (${destName}).`);
    const coasts = v.coasts[dest];
    if (coasts.length === 0) {
      if (!v.fleetMatrix[from * L + dest]) return err(`A fleet in ${locationName(v, from)} cannot reach ${destName}.`);
    } else if (to !== dest) {
      if (!v.fleetMatrix[from * L + to]) return err(`A fleet in ${locationName(v, from)} cannot reach ${locationName(v, to)}.`);
      target = to;
    } else {
      const reach = coasts.filter((c) => v.fleetMatrix[from * L + c]);
      if (reach.length !== 1)
        return err(reach.length === 0 ? `A fleet in ${locationName(v, from)} cannot reach ${destName}.` : `Say which coast of ${destName}.`);
      target = reach[0];
    }
  }
  if (board.unitAt[dest] >= 0) return err(`Cannot retreat to ${destName}: it is occupied.`);
  if (dislodged.attackerFrom[u] === dest) return err(`Cannot retreat to ${destName}: the attack came from there.`);
  if (standoff[dest]) return err(`Cannot retreat to ${destName}: it was left empty by a standoff.`);
  return ok({ unit: u, to: target });
}

/**
 * Where a dislodged unit could retreat: adjacent locations (coasts for fleets)
 * that are empty, not its attacker's origin and not left empty by a standoff.
 */
export function retreatOptions(board: Board, type: number, location: number, attackerFrom: number, standoff: ArrayLike<number>): number[] {
  const v = board.variant;
  const here = v.locationProvince[location];
  const out: number[] = [];
  const open = (p: number) => board.unitAt[p] < 0 && p !== attackerFrom && !standoff[p];
  if (type === ARMY) {
    for (const p of v.armyAdjacent[here]) if (open(p)) out.push(p);
  } else {
    for (const l of v.fleetAdjacent[location]) if (open(v.locationProvince[l])) out.push(l);
  }
  return out;
}
