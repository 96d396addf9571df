import { findPower, findProvince, supplyOf, type Variant } from '../variant/load.ts';
import type { Board } from '../state/board.ts';
import type { GameState, Loan } from '../state/schema.ts';
import { err, ok, type Result } from '../result.ts';

/**
 * Supply, ownership and the Diadochi V economy (double and triple centres,
 * destroyed centres, rebels, special build centres, loans). The Standard map
 * uses the same code with every centre single and no loans.
 */

export interface Economy {
  /** Owner power index per province (-1 neutral / not a centre). */
  owner: Int8Array;
  /** Controller of special build centres. */
  control: Int8Array;
  destroyed: Uint8Array;
  loans: { centre: number; from: number; to: number }[];
}

export function compileEconomy(v: Variant, state: GameState): Result<Economy, string[]> {
  const errors: string[] = [];
  const P = v.provinceCount;
  const owner = new Int8Array(P).fill(-1);
  const control = new Int8Array(P).fill(-1);
  const destroyed = new Uint8Array(P);
  const province = (id: string, what: string) => {
    const p = findProvince(v, id);
    if (p < 0) errors.push(`${what}: unknown province "${id}"`);
    return p;
  };
  const power = (id: string, what: string) => {
    const w = findPower(v, id);
    if (w < 0) errors.push(`${what}: unknown power "${id}"`);
    return w;
  };
  for (const [c, w] of Object.entries(state.owners)) {
    const p = province(c, 'owners');
    const i = power(w, `owners.${c}`);
    if (p < 0 || i < 0) continue;
    if (!v.isCentre[p]) errors.push(`owners: ${v.provinceNames[p]} is not a supply centre`);
    owner[p] = i;
  }
  for (const [c, w] of Object.entries(state.control)) {
    const p = province(c, 'control');
    const i = power(w, `control.${c}`);
    if (p < 0 || i < 0) continue;
    if (!v.isBuildCentre[p]) errors.push(`control: ${v.provinceNames[p]} is not a special build centre`);
    control[p] = i;
  }
  for (const c of state.destroyed) {
    const p = province(c, 'destroyed');
    if (p >= 0 && !v.isCentre[p]) errors.push(`destroyed: ${v.provinceNames[p]} is not a supply centre`);
    else if (p >= 0 && v.isIndestructible[p]) errors.push(`destroyed: ${v.provinceNames[p]} cannot be destroyed`);
    if (p >= 0) destroyed[p] = 1;
  }
  for (const c of state.rebuilding) {
    const p = province(c, 'rebuilding');
    if (p >= 0 && !destroyed[p]) errors.push(`rebuilding: ${v.provinceNames[p]} is not a destroyed centre`);
  }
  const loans = state.loans.map((l) => ({
    centre: province(l.centre, 'loans'),
    from: power(l.from, 'loans'),
    to: power(l.to, 'loans'),
  }));
  if (errors.length === 0) errors.push(...loanChainProblems(v, owner, loans));
  if (errors.length > 0) return err(errors);
  return ok({ owner, control, destroyed, loans });
}

/**
 * A centre's loans must form one chain from its owner (owner to A, A on to B, …) that never comes back
 * to a power already in it: anything else (a loan of someone else's centre, two loans of it by one
 * power, a loan back round a circle) has no holder, and a position typed by hand must say so.
 */
function loanChainProblems(v: Variant, owner: Int8Array, loans: Economy['loans']): string[] {
  const problems: string[] = [];
  for (const centre of new Set(loans.map((l) => l.centre))) {
    const name = v.provinceNames[centre];
    const links = loans.filter((l) => l.centre === centre);
    if (!v.isCentre[centre] || owner[centre] < 0) {
      problems.push(`loans: ${name} is not an owned supply centre`);
      continue;
    }
    const seen = new Set<number>([owner[centre]]);
    let holder = owner[centre];
    let followed = 0;
    let problem: string | null = null;
    for (let link = links.find((l) => l.from === holder); link && !problem; link = links.find((l) => l.from === holder)) {
      if (links.filter((l) => l.from === holder).length > 1) problem = `loans: ${v.powers[holder]} lends ${name} twice`;
      else if (seen.has(link.to)) problem = `loans: the loans of ${name} go round in a circle back to ${v.powers[link.to]}`;
      else {
        seen.add(link.to);
        holder = link.to;
        followed += 1;
      }
    }
    if (!problem && followed < links.length) problem = `loans: ${name} is lent by a power that neither owns nor borrows it`;
    if (problem) problems.push(problem);
  }
  return problems;
}

/** Who the centre's supply goes to: the last borrower of its loan chain, or its owner. */
export function holderOf(eco: Economy, centre: number): number {
  let h = eco.owner[centre];
  if (h < 0) return -1;
  // Follow the chain: owner lends to A, A lends on to B, …
  for (let step = 0; step < eco.loans.length; step++) {
    const link = eco.loans.find((l) => l.centre === centre && l.from === h);
    if (!link) break;
    h = link.to;
  }
  return h;
}

/**
 * What a centre supplies to its holder. A centre worth more to one power
 * (Rome's triple) gives that only when the power both owns and holds it:
 * owned by another power it "acts as a single centre" (Diadochi V rule 4),
 * and lent to another power it supplies 1, as to anyone else.
 */
export function centreSupply(v: Variant, eco: Economy, centre: number, holder: number): number {
  return Math.min(supplyOf(v, centre, holder), supplyOf(v, centre, eco.owner[centre]));
}

/** Units a power may keep: supply of the centres it holds (owned and not lent out, or borrowed), destroyed centres giving nothing. */
export function supplyFor(v: Variant, eco: Economy, power: number): number {
  let s = 0;
  for (const c of v.centres) {
    if (eco.destroyed[c]) continue;
    if (holderOf(eco, c) === power) s += centreSupply(v, eco, c, power);
  }
  return s;
}

/** Supply from centres the power owns and has not lent out (lent-in supply excluded): Diadochi V rule 13. */
export function ownSupply(v: Variant, eco: Economy, power: number): number {
  let s = 0;
  for (const c of v.centres) {
    if (eco.destroyed[c] || eco.owner[c] !== power) continue;
    if (eco.loans.some((l) => l.centre === c && l.from === power)) continue;
    s += supplyOf(v, c, power);
  }
  return s;
}

export function centreCount(v: Variant, eco: Economy, power: number): number {
  let n = 0;
  for (const c of v.centres) if (eco.owner[c] === power) n++;
  return n;
}

export function unitCount(board: Board, power: number): number {
  let n = 0;
  for (let u = 0; u < board.count; u++) if (board.power[u] === power) n++;
  return n;
}

/** Provinces where a power may build now: vacant owned home centres not destroyed, and vacant controlled special build centres. */
export function buildSites(v: Variant, eco: Economy, board: Board, power: number): number[] {
  const out: number[] = [];
  for (let p = 0; p < v.provinceCount; p++) {
    if (board.unitAt[p] >= 0) continue;
    if (v.homeOf[p] === power && eco.owner[p] === power && !eco.destroyed[p]) out.push(p);
    else if (v.isBuildCentre[p] && eco.control[p] === power) out.push(p);
  }
  return out;
}

/**
 * After a Fall phase: centres and special build centres pass to the power
 * occupying them. A loan ends when its centre changes owner.
 * Returns the provinces that changed hands.
 */
export function captureCentres(v: Variant, eco: Economy, board: Board): number[] {
  const changed: number[] = [];
  for (let u = 0; u < board.count; u++) {
    const p = board.province[u];
    const w = board.power[u];
    if (v.isCentre[p] && eco.owner[p] !== w) {
      eco.owner[p] = w;
      eco.loans = eco.loans.filter((l) => l.centre !== p);
      changed.push(p);
    }
    if (v.isBuildCentre[p] && eco.control[p] !== w) {
      eco.control[p] = w;
      changed.push(p);
    }
  }
  return changed;
}

/** Rebel centres not garrisoned by their owner become neutral at the Winter count (Diadochi V rule 6). */
export function rebelCentres(v: Variant, eco: Economy, board: Board): number[] {
  const rebelled: number[] = [];
  for (const c of v.centres) {
    if (!v.isRebel[c] || eco.owner[c] < 0) continue;
    const u = board.unitAt[c];
    if (u >= 0 && board.power[u] === eco.owner[c]) continue;
    eco.owner[c] = -1;
    eco.loans = eco.loans.filter((l) => l.centre !== c);
    rebelled.push(c);
  }
  return rebelled;
}

/** Powers meeting the victory condition now (several at once share the victory). */
export function victors(v: Variant, eco: Economy, board: Board): number[] {
  const rule = v.data.rules.victory;
  const out: number[] = [];
  for (let w = 0; w < v.powers.length; w++) {
    const score =
      rule.type === 'centres'
        ? centreCount(v, eco, w)
        : Math.min(unitCount(board, w), ownSupply(v, eco, w));
    if (score >= rule.count) out.push(w);
  }
  return out;
}

/**
 * Lend a centre (Diadochi V rule 9). The lender must hold it (own it, or be its
 * last borrower), the borrower must own at least one centre, and the lender
 * must keep enough supply for its units: units may not be disbanded to make a loan.
 * `awaitingRetreat`: the lender's dislodged units, which are still its units
 * (disbanding one instead of retreating must not make room for a loan).
 */
export function lend(v: Variant, eco: Economy, board: Board, centre: number, from: number, to: number, awaitingRetreat = 0): Result<Economy> {
  if (!v.data.rules.loans) return err('This variant has no loans.');
  const name = v.provinceNames[centre];
  if (!v.isCentre[centre]) return err(`${name} is not a supply centre.`);
  if (from === to) return err('A power cannot lend a centre to itself.');
  if (holderOf(eco, centre) !== from)
    return err(`${v.powers[from]} cannot lend ${name}: it does not hold it${eco.owner[centre] === from ? ' (it is already lent out)' : ''}.`);
  if (centreCount(v, eco, to) === 0) return err(`${v.powers[to]} owns no centre, so it cannot receive a loan.`);
  // A loan goes on to a third party: never back to a power already in the centre's chain (end the loan instead).
  if (eco.owner[centre] === to || eco.loans.some((l) => l.centre === centre && (l.from === to || l.to === to)))
    return err(`${v.powers[to]} has already held ${name} in this chain of loans: end the loan instead of lending it back.`);
  const next: Economy = { ...eco, loans: [...eco.loans, { centre, from, to }] };
  const left = supplyFor(v, next, from);
  const units = unitCount(board, from) + awaitingRetreat;
  // What counts is the supply the loan takes away: a power already short may still lend what supplies nothing (a destroyed centre).
  if (left < units && left < supplyFor(v, eco, from))
    return err(`${v.powers[from]} would keep supply for ${left} units but has ${units}: lending ${name} is refused (units may not be disbanded to make a loan).`);
  return ok(next);
}

/**
 * End a loan: either side of a link may end it; links lent on from it end too.
 * The change counts at the next adjustment, like every loan change.
 */
export function endLoan(v: Variant, eco: Economy, centre: number, from: number, to: number): Result<Economy> {
  const i = eco.loans.findIndex((l) => l.centre === centre && l.from === from && l.to === to);
  if (i < 0) return err(`${v.powers[from]} does not lend ${v.provinceNames[centre]} to ${v.powers[to]}.`);
  // Drop this link and every later link of the same chain.
  const drop = new Set<number>([to]);
  let loans = eco.loans.filter((_, k) => k !== i);
  let changed = true;
  while (changed) {
    changed = false;
    loans = loans.filter((l) => {
      if (l.centre === centre && drop.has(l.from)) {
        drop.add(l.to);
        changed = true;
        return false;
      }
      return true;
    });
  }
  return ok({ ...eco, loans });
}

export function economyToState(v: Variant, eco: Economy): Pick<GameState, 'owners' | 'control' | 'destroyed' | 'loans'> {
  const owners: Record<string, string> = {};
  const control: Record<string, string> = {};
  const destroyed: string[] = [];
  for (let p = 0; p < v.provinceCount; p++) {
    if (eco.owner[p] >= 0) owners[v.provinceIds[p]] = v.powers[eco.owner[p]];
    if (eco.control[p] >= 0) control[v.provinceIds[p]] = v.powers[eco.control[p]];
    if (eco.destroyed[p]) destroyed.push(v.provinceIds[p]);
  }
  const loans: Loan[] = eco.loans.map((l) => ({ centre: v.provinceIds[l.centre], from: v.powers[l.from], to: v.powers[l.to] }));
  return { owners, control, destroyed, loans };
}
