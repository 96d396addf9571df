/**
 * Supply and ownership: who owns which centre, how many units each power may
 * keep, where it may build, and the captures of the Winter count. The
 * standard rules are written here; wherever a variant may differ (double
 * centres, destroyed centres, loans, special build centres, rebels) this
 * asks the variant's rules (`v.rules`, shared/rules/hooks.ts).
 */
import { findPower, findProvince, type Variant } from '../variant/load.ts';
import type { Board } from '../state/board.ts';
import type { GameState } from '../state/schema.ts';
import type { Economy } from '../model.ts';
import { err, ok, type Result } from '../result.ts';
import { Tables } from '../state/tables.ts';

export type { Economy } from '../model.ts';
export { centreCount, unitCount } from '../rules/standard.ts';

/** The bytes an economy takes in `Tables`. */
export const economyBytes = (v: Variant): number => 3 * v.provinceCount;

/** The state's centres as an economy; its tables cut from `tables` when the caller shares a buffer among several structures. */
export function compileEconomy(v: Variant, state: GameState, tables = new Tables(economyBytes(v))): Result<Economy, string[]> {
  const problems: string[] = [];
  const P = v.provinceCount;
  const eco: Economy = { owner: tables.int8(P, -1), control: tables.int8(P, -1), destroyed: tables.uint8(P), loans: [] };
  const owners = state.owners;
  // Object.keys rather than for-in: the same keys in the same order, without for-in's slow walk of a large object.
  for (const c of Object.keys(owners)) {
    const w = owners[c];
    const p = findProvince(v, c);
    const i = findPower(v, w);
    if (p < 0) problems.push(`owners: unknown province "${c}"`);
    if (i < 0) problems.push(`owners.${c}: unknown power "${w}"`);
    if (p < 0 || i < 0) continue;
    if (!v.isCentre[p]) problems.push(`owners: ${v.provinceNames[p]} is not a supply centre`);
    eco.owner[p] = i;
  }
  for (const part of v.rules.stateParts) part.read(v, state, eco, problems);
  return problems.length > 0 ? err(problems) : ok(eco);
}

/** The economy as stored: the owners, and each rule's part. */
export function economyToState(v: Variant, eco: Economy): Pick<GameState, 'owners'> & Partial<GameState> {
  const owners: Record<string, string> = {};
  for (let p = 0; p < v.provinceCount; p++) if (eco.owner[p] >= 0) owners[v.provinceIds[p]] = v.powers[eco.owner[p]];
  const out: Pick<GameState, 'owners'> & Partial<GameState> = { owners };
  for (const part of v.rules.stateParts) part.write(v, eco, out);
  return out;
}

/** Units a power may keep: what the centres it holds supply to it. */
export function supplyFor(v: Variant, eco: Economy, power: number): number {
  const rules = v.rules;
  let s = 0;
  for (const c of v.centres) if (rules.supplies(eco, c) && rules.holder(eco, c) === power) s += rules.centreSupply(eco, c, power);
  return s;
}

/** `supplyFor` of every power, in one pass over the centres. */
export function supplyByPower(v: Variant, eco: Economy): number[] {
  const rules = v.rules;
  const supply = new Array<number>(v.powers.length).fill(0);
  for (const c of v.centres) {
    if (!rules.supplies(eco, c)) continue;
    const holder = rules.holder(eco, c);
    if (holder >= 0) supply[holder] += rules.centreSupply(eco, c, holder);
  }
  return supply;
}

/** Supply from the centres the power owns and keeps (lent-in supply excluded): what victory by self-supporting units counts. */
export function keptSupply(v: Variant, eco: Economy, power: number): number {
  const rules = v.rules;
  let s = 0;
  for (const c of v.centres) if (rules.supplies(eco, c) && rules.keeps(eco, c, power)) s += v.supplyTable[c * v.powers.length + power];
  return s;
}

/** Provinces where a power may build now. */
export function buildSites(v: Variant, eco: Economy, board: Board, power: number): number[] {
  const out: number[] = [];
  for (let p = 0; p < v.provinceCount; p++) if (v.rules.mayBuild(eco, board, power, p)) out.push(p);
  return out;
}

/** Whether the power may build anywhere now (`buildSites` is not empty). */
export function hasBuildSite(v: Variant, eco: Economy, board: Board, power: number): boolean {
  for (let p = 0; p < v.provinceCount; p++) if (v.rules.mayBuild(eco, board, power, p)) return true;
  return false;
}

/**
 * After a Fall phase: each centre passes to the power occupying it, and what depended on its former owner ends
 * (the rules' `ownerChanged`). Returns the centres that changed hands.
 */
export function captureCentres(v: Variant, eco: Economy, board: Board): number[] {
  const changed: number[] = [];
  for (let u = 0; u < board.count; u++) {
    const p = board.province[u];
    const w = board.power[u];
    if (v.isCentre[p] && eco.owner[p] !== w) {
      eco.owner[p] = w;
      v.rules.ownerChanged(eco, p);
      changed.push(p);
    }
  }
  return changed;
}

/** A copy to change freely (the count changes the economy it is given). */
export function copyEconomy(eco: Economy): Economy {
  const { owner, control, destroyed } = eco;
  const tables = new Tables(owner.length + control.length + destroyed.length);
  const copy: Economy = {
    owner: tables.int8(owner.length),
    control: tables.int8(control.length),
    destroyed: tables.uint8(destroyed.length),
    loans: [...eco.loans],
  };
  copy.owner.set(owner);
  copy.control.set(control);
  copy.destroyed.set(destroyed);
  return copy;
}
