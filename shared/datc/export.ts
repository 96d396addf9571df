import type { Variant } from '../variant/load.ts';
import type { GameState, Unit } from '../state/schema.ts';
import type { DecidedProvince, SubmittedOrder } from '../game/process.ts';
import { formatOrder } from '../orders/format.ts';
import { formatDatcCase, type BlockName } from './format.ts';
import { rulebookOf } from '../variant/options.ts';

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const unitLine = (u: Unit) => `${u.power}: ${u.type === 'army' ? 'A' : 'F'} ${u.at}`;

/** The phase as DATC writes it: "Spring 1901, Movement", "Fall 240 BC, Retreat", "Winter 240 BC, Adjustment". */
export function datcPhase(v: Variant, state: GameState): string {
  const era = v.data.rules.calendar.era;
  return `${capitalised(state.phase.season)} ${state.phase.year}${era ? ` ${era}` : ''}, ${capitalised(state.phase.type)}`;
}

/**
 * A played phase as a case in the DATC text format (with the Diadochi V
 * blocks), so that `npm run datc` can re-check it: the position before, the
 * orders as given (with the provinces decided by battles, if any), and the
 * position the server recorded after.
 */
export function phaseToDatcCase(
  v: Variant,
  id: string,
  title: string,
  before: GameState,
  orders: readonly SubmittedOrder[],
  after: GameState,
  decided: readonly DecidedProvince[] = [],
): string {
  const byOwner = new Map<string, string[]>();
  for (const [c, w] of [...Object.entries(before.owners), ...Object.entries(before.control)]) byOwner.set(w, [...(byOwner.get(w) ?? []), c]);
  const blocks: Partial<Record<BlockName, string[]>> = {
    PRESTATE_SUPPLYCENTER_OWNERS: [...byOwner].map(([w, cs]) => `${w}: ${cs.join(' ')}`),
    PRESTATE: before.units.map(unitLine),
    PRESTATE_DISLODGED: before.dislodged.map((d) => `${unitLine(d)} from ${d.attackerFrom ?? 'convoy'}`),
    PRESTATE_STANDOFFS: [...before.standoffs],
    PRESTATE_DESTROYED: [...before.destroyed],
    PRESTATE_REBUILDING: [...before.rebuilding],
    PRESTATE_LOANS: before.loans.map((l) => `${l.from}: ${l.centre} -> ${l.to}`),
    ORDERS: orders.map((o) => `${o.power}: ${typeof o.order === 'string' ? o.order : formatOrder(o.order)}`),
    DECIDED: decided.map(
      (d) =>
        `${d.province} ${'winner' in d.outcome ? `${d.outcome.winner}${d.outcome.unit ? ` ${d.outcome.unit}` : ''}` : 'standoff'}${d.outcome.destroyed?.length ? ` lost ${d.outcome.destroyed.join(' ')}` : ''}`,
    ),
    POSTSTATE: after.units.map(unitLine),
    POSTSTATE_DISLODGED: after.phase.type === 'retreat' && before.phase.type === 'movement' ? after.dislodged.map(unitLine) : [],
  };
  if (v.data.rules.destroyCentres) blocks.POSTSTATE_DESTROYED = [...after.destroyed];
  if (v.data.rules.loans) blocks.POSTSTATE_LOANS = after.loans.map((l) => `${l.from}: ${l.centre} -> ${l.to}`);
  if (after.winners) blocks.POSTSTATE_WINNERS = [...after.winners];
  // The variant's rule set, so that the case is re-checked under the rules it was played by.
  return formatDatcCase({ id, title, variant: v.name, rules: rulebookOf(v.options) ?? undefined, phase: datcPhase(v, before), blocks });
}
