/**
 * Diadochi V rule 9, loans: a power may lend a centre it holds to another power that owns at least one centre,
 * and the borrower may lend it on; the centre's supply goes to the last borrower of the chain. Loans need no
 * acceptance, may be made or ended by either side of a link in any phase but an adjustment (which counts them
 * as they stood when it opened), and count from the next adjustment. A lender must keep supply for its units
 * (units may not be disbanded to make a loan). A loan ends when its centre changes owner (a capture, a rebel
 * centre turning neutral); the Winter count says so. The stored state keeps the links (`loans`).
 */
import { findPower, findProvince, type Variant } from '../../variant/load.ts';
import { compileBoard, type Board } from '../../state/board.ts';
import type { GameState, Loan } from '../../state/schema.ts';
import { centreCount, compileEconomy, economyToState, supplyFor, unitCount } from '../../game/economy.ts';
import { err, ok, type Result } from '../../result.ts';
import type { Economy, RuleModule } from '../../model.ts';

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

export const loans: RuleModule = {
  name: 'loans',
  summary: 'Powers may lend centres to one another (and lend them on): the last borrower gets the supply.',
  declaredBy: (data) => data.rules.loans,
  extend: (base) => ({
    ...base,
    stateParts: [
      ...base.stateParts,
      {
        read(v, state, eco, problems) {
          const before = problems.length;
          const index = (find: number, what: string, id: string) => {
            if (find < 0) problems.push(`loans: unknown ${what} "${id}"`);
            return find;
          };
          eco.loans = state.loans.map((l) => ({
            centre: index(findProvince(v, l.centre), 'province', l.centre),
            from: index(findPower(v, l.from), 'power', l.from),
            to: index(findPower(v, l.to), 'power', l.to),
          }));
          // The chain is checked only over a position whose owners and provinces were all understood.
          if (problems.length === 0 && before === 0) problems.push(...loanChainProblems(v, eco.owner, eco.loans));
        },
        write(v, eco, out) {
          out.loans = eco.loans.map((l): Loan => ({ centre: v.provinceIds[l.centre], from: v.powers[l.from], to: v.powers[l.to] }));
        },
      },
    ],
    holder: (eco, centre) => (eco.loans.length === 0 ? base.holder(eco, centre) : holderOf(eco, centre)),
    keeps: (eco, centre, power) => base.keeps(eco, centre, power) && !eco.loans.some((l) => l.centre === centre && l.from === power),
    ownerChanged(eco, centre) {
      base.ownerChanged(eco, centre);
      if (eco.loans.some((l) => l.centre === centre)) eco.loans = eco.loans.filter((l) => l.centre !== centre);
    },
    // At the end of the count: the loans it ended, in the order they were made.
    afterCapture: [
      ...base.afterCapture,
      (v, eco, _board, events, before) => {
        for (const l of before.loans)
          if (!eco.loans.includes(l)) events.push({ kind: 'loan-ended', centre: v.provinceIds[l.centre], from: v.powers[l.from], to: v.powers[l.to] });
      },
    ],
  }),
};

/**
 * Lend a centre. The lender must hold it (own it, or be its last borrower), the borrower must own at least one
 * centre, and the lender must keep enough supply for its units. `awaitingRetreat`: the lender's dislodged units,
 * which are still its units (disbanding one instead of retreating must not make room for a loan).
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
    return err(
      `${v.powers[from]} would keep supply for ${left} units but has ${units}: lending ${name} is refused (units may not be disbanded to make a loan).`,
    );
  return ok(next);
}

/** End a loan: either side of a link may end it; links lent on from it end too. The change counts at the next adjustment. */
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

/**
 * Whether loans may be made or ended in this phase: not during an adjustment. It counts the loans as they
 * stood when it opened (a loan counts from the next adjustment, and the borrower of an ended one has until then
 * to find other support), so the builds and removals being ordered do not change under the players.
 */
export function loansChangeable(state: GameState): Result<true> {
  return state.phase.type === 'adjustment'
    ? err('Loans are not made or ended during an adjustment, which counts them as they stood when it opened; wait for the next phase.')
    : ok(true);
}

/** Lend a centre now, in a position; it counts from the next adjustment. */
export function lendCentre(v: Variant, state: GameState, loan: Loan): Result<GameState> {
  const board = compileBoard(v, state.units);
  const eco = compileEconomy(v, state);
  if (!board.ok || !eco.ok) return err('The game state is invalid.');
  const centre = findProvince(v, loan.centre);
  const from = findPower(v, loan.from);
  const to = findPower(v, loan.to);
  if (centre < 0) return err(`"${loan.centre}" is not a province on this map.`);
  if (from < 0 || to < 0) return err(`"${from < 0 ? loan.from : loan.to}" is not a power in this game.`);
  const r = lend(v, eco.value, board.value, centre, from, to, state.dislodged.filter((u) => u.power === loan.from).length);
  if (!r.ok) return r;
  return ok({ ...state, ...economyToState(v, r.value) });
}

/** End a loan (either side may), in a position; any onward loan of the same centre ends with it. */
export function endLoanOf(v: Variant, state: GameState, loan: Loan): Result<GameState> {
  const eco = compileEconomy(v, state);
  if (!eco.ok) return err('The game state is invalid.');
  const centre = findProvince(v, loan.centre);
  const from = findPower(v, loan.from);
  const to = findPower(v, loan.to);
  if (centre < 0 || from < 0 || to < 0) return err('That loan does not exist.');
  const r = endLoan(v, eco.value, centre, from, to);
  if (!r.ok) return r;
  return ok({ ...state, ...economyToState(v, r.value) });
}
