/**
 * Diadochi V rules 7 and 8, destroying and rebuilding centres. In a movement phase a unit standing on a supply
 * centre may be ordered to destroy it (Z) instead of holding; unless the unit is dislodged the centre is
 * destroyed: it supplies nothing, and nothing is built there, until rebuilt. A unit on a destroyed centre may be
 * ordered to rebuild it (R); the rebuild takes two movement phases in a row (the first begins it, the second,
 * "R" again, finishes it), and the centre supplies again from the next adjustment. Some centres cannot be
 * destroyed (the map's `centre.indestructible`). The stored state keeps the destroyed centres (`destroyed`)
 * and the rebuilds begun in the last movement phase (`rebuilding`).
 */
import { findProvince } from '../../variant/load.ts';
import { err, ok } from '../../result.ts';
import type { Order } from '../../orders/types.ts';
import type { MovementOrderRule, RuleModule } from '../../model.ts';

const orders: MovementOrderRule = {
  kinds: ['destroy', 'rebuild'],
  check(board, eco, u, order) {
    const v = board.variant;
    const here = board.province[u];
    const name = v.provinceNames[here];
    if (!v.isCentre[here]) return err(`${name} is not a supply centre.`);
    if (order.kind === 'destroy') {
      if (v.isIndestructible[here]) return err(`${name} cannot be destroyed.`);
      if (eco.destroyed[here]) return err(`${name} is already destroyed.`);
    } else if (!eco.destroyed[here]) return err(`${name} is not destroyed, so there is nothing to rebuild.`);
    return ok(true);
  },
  legal(board, eco, u) {
    const v = board.variant;
    if (!v.isCentre[board.province[u]]) return [];
    const unit = { type: board.type[u] === 0 ? ('army' as const) : ('fleet' as const), at: v.locationIds[board.location[u]] };
    return (
      [
        { kind: 'destroy', unit },
        { kind: 'rebuild', unit },
      ] as Order[]
    ).filter((o) => orders.check(board, eco, u, o).ok);
  },
  carryOut({ v, state, board, eco, unit, order, result, events }) {
    const p = board.province[unit];
    const province = v.provinceIds[p];
    const by = v.powers[board.power[unit]];
    if (order.kind === 'destroy') {
      eco.destroyed[p] = 1;
      events.push({ kind: 'centre-destroyed', province, by });
      Object.assign(result, { code: 'destroyed-centre', reason: `Destroyed the supply centre in ${v.provinceNames[p]}.` });
    } else if (state.rebuilding.some((id) => findProvince(v, id) === p)) {
      eco.destroyed[p] = 0;
      events.push({ kind: 'centre-rebuilt', province, by });
      Object.assign(result, {
        code: 'rebuilt-centre',
        reason: `Rebuilt the supply centre in ${v.provinceNames[p]}; it supplies again from the next adjustment.`,
      });
    } else {
      Object.assign(result, { code: 'rebuilding', reason: `Began rebuilding ${v.provinceNames[p]}: order R again next movement phase to finish.` });
    }
  },
  failed({ order, result }) {
    result.reason = `${result.reason} The ${order.kind === 'destroy' ? 'destruction' : 'rebuilding'} did not happen.`;
  },
  // Rebuilds begun in this phase: a rebuild not ordered again next movement phase starts over.
  after({ v, next, carried }) {
    next.rebuilding = carried.filter((step) => step.result.code === 'rebuilding').map((step) => v.provinceIds[step.board.province[step.unit]]);
  },
};

export const destroyRebuild: RuleModule = {
  name: 'destroy-rebuild',
  summary: 'A unit on a centre may destroy it (Z); a destroyed centre supplies nothing until a unit rebuilds it (R, two movement phases in a row).',
  declaredBy: (data) => data.rules.destroyCentres,
  extend: (base, v) => ({
    ...base,
    stateParts: [
      ...base.stateParts,
      {
        read(v, state, eco, problems) {
          for (const c of state.destroyed) {
            const p = findProvince(v, c);
            if (p < 0) problems.push(`destroyed: unknown province "${c}"`);
            else if (!v.isCentre[p]) problems.push(`destroyed: ${v.provinceNames[p]} is not a supply centre`);
            else if (v.isIndestructible[p]) problems.push(`destroyed: ${v.provinceNames[p]} cannot be destroyed`);
            if (p >= 0) eco.destroyed[p] = 1;
          }
          for (const c of state.rebuilding) {
            const p = findProvince(v, c);
            if (p < 0) problems.push(`rebuilding: unknown province "${c}"`);
            else if (!eco.destroyed[p]) problems.push(`rebuilding: ${v.provinceNames[p]} is not a destroyed centre`);
          }
        },
        write(v, eco, out) {
          const destroyed: string[] = [];
          for (let p = 0; p < v.provinceCount; p++) if (eco.destroyed[p]) destroyed.push(v.provinceIds[p]);
          out.destroyed = destroyed;
        },
      },
    ],
    supplies: (eco, centre) => !eco.destroyed[centre] && base.supplies(eco, centre),
    mayBuild: (eco, board, power, p) => !eco.destroyed[p] && base.mayBuild(eco, board, power, p),
    buildRefusal(eco, board, power, p) {
      // A home centre of the power that it still owns, but destroyed (before saying it is occupied).
      if (eco.destroyed[p] && v.homeOf[p] === power && eco.owner[p] === power)
        return `${v.provinceNames[p]} is destroyed: nothing can be built there until it is rebuilt.`;
      return base.buildRefusal(eco, board, power, p);
    },
    movementOrders: [...base.movementOrders, orders],
  }),
};
