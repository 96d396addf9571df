import { findLocation, findPower, findProvince, normaliseName, type Variant } from '../variant/load.ts';
import { firstPhase, parsePhase } from '../state/phase.ts';
import { parseOrder } from '../orders/parse.ts';
import { adjudicate, type DecidedProvince, type PhaseOutcome, type SubmittedOrder } from '../game/process.ts';
import { endLoanOf, lendCentre } from '../rules/diadochi/loans.ts';
import type { DislodgedUnit, GameState, Loan, Unit } from '../state/schema.ts';
import { splitPowerLine, type DatcCase, type DatcLine } from './format.ts';
import { err, ok, type Result } from '../result.ts';
import { editDistance } from '../text/edit-distance.ts';

/** What running one case gave: passed, or the differences a reader needs to see. */
export interface CaseReport {
  id: string;
  title: string;
  passed: boolean;
  /** Set when the case could not be run at all (bad data); counts as failed. */
  problems: string[];
  differences: string[];
  /** What happened besides the orders, e.g. loans refused. */
  notes: string[];
  outcome?: PhaseOutcome;
}

/** Build the position a case describes. */
export function caseToState(v: Variant, c: DatcCase): Result<{ state: GameState; orders: SubmittedOrder[]; decided: DecidedProvince[] }, string[]> {
  const problems: string[] = [];
  // A case without PRESTATE_SETPHASE starts in the variant's first phase (as jDip does).
  const phase = c.phase ? parsePhase(c.phase.text, v) : firstPhase(v);
  if (!phase) problems.push(`line ${c.phase!.line}: cannot read the phase "${c.phase!.text}"`);
  const units = unitLines(v, c.blocks.PRESTATE ?? [], problems);
  // "Austria: F tri from ven" names the attacker's origin outright.
  const explicitFrom = new Map<number, string | null>();
  const dislodgedLines = (c.blocks.PRESTATE_DISLODGED ?? []).map((l, i) => {
    const m = /^(.*?)\s+from\s+(\S+)$/i.exec(l.text);
    if (!m) return l;
    const p = findProvince(v, m[2]);
    if (m[2].toLowerCase() === 'convoy') explicitFrom.set(i, null);
    else if (p >= 0) explicitFrom.set(i, v.provinceIds[p]);
    else problems.push(`line ${l.line}: unknown province "${m[2]}"`);
    return { ...l, text: m[1] };
  });
  const dislodgedUnits = unitLines(v, dislodgedLines, problems);
  const prior = (c.blocks.PRESTATE_RESULTS ?? []).map((l) => priorResult(v, l, problems)).filter((x) => x !== undefined);

  let dislodged: DislodgedUnit[] = dislodgedUnits.map((d) => ({ ...d, attackerFrom: attackerOf(v, d, prior) }));
  let standoffs = naiveStandoffs(v, units, prior);
  // Better: replay the movement phase the results describe, when they describe all of it.
  const replayed = phase?.type === 'retreat' && prior.length > 0 ? replayMovement(v, phase, units, dislodgedUnits, prior) : undefined;
  if (replayed) ({ dislodged, standoffs } = replayed);
  if (explicitFrom.size > 0) dislodged = dislodged.map((d, i) => (explicitFrom.has(i) ? { ...d, attackerFrom: explicitFrom.get(i)! } : d));
  if (c.blocks.PRESTATE_STANDOFFS) standoffs = provinceLines(v, c.blocks.PRESTATE_STANDOFFS, problems);

  let owners: Record<string, string> = { ...v.data.start.owners };
  if (c.blocks.PRESTATE_SUPPLYCENTER_OWNERS) owners = ownerLines(v, c.blocks.PRESTATE_SUPPLYCENTER_OWNERS, problems);
  const control: Record<string, string> = {};
  for (const [p, w] of Object.entries(owners)) if (v.isBuildCentre[findProvince(v, p)]) (control[p] = w), delete owners[p];
  Object.assign(control, ownerLines(v, c.blocks.PRESTATE_CONTROL ?? [], problems));

  const loans: Loan[] = [];
  for (const l of c.blocks.PRESTATE_LOANS ?? []) {
    const loan = loanLine(v, l, problems);
    if (loan) loans.push(loan.loan);
  }

  const orders: SubmittedOrder[] = [];
  for (const l of c.blocks.ORDERS ?? []) {
    const s = splitPowerLine(l.text);
    if (!s) {
      problems.push(`line ${l.line}: an order line is "Power: order", not "${l.text}"`);
      continue;
    }
    orders.push({ power: power(v, s.power) ?? s.power, order: s.rest });
  }
  const decided = (c.blocks.DECIDED ?? []).map((l) => decidedLine(v, l, problems)).filter((d) => d !== undefined);
  if (problems.length > 0 || !phase) return err(problems);
  return ok({
    state: {
      variant: v.id,
      phase,
      units,
      dislodged,
      standoffs: phase.type === 'retreat' ? standoffs : [],
      owners,
      control,
      destroyed: provinceLines(v, c.blocks.PRESTATE_DESTROYED ?? [], problems),
      rebuilding: provinceLines(v, c.blocks.PRESTATE_REBUILDING ?? [], problems),
      loans,
    },
    orders,
    decided,
  });
}

/**
 * "ION Rome", "ION Rome F Eph" (that unit won it), "ION standoff", each optionally followed by "lost" and the units
 * lost in the battle ("ION Rome lost F Aeg F Tyr"). Province and power are passed on as written when unknown, so that
 * the engine's own error for them is what a case sees.
 */
function decidedLine(v: Variant, l: DatcLine, problems: string[]): DecidedProvince | undefined {
  const [decision, lostPart, ...more] = l.text.split(/\s+lost(?:\s+|$)/i);
  const [province, who, ...unit] = decision.trim().split(/\s+/);
  const lost = lostPart === undefined ? [] : lostPart.split(/\s+/).filter((w) => w !== '' && !/^[AF]$/i.test(w));
  if (!province || !who || more.length > 0 || (lostPart !== undefined && lost.length === 0)) {
    problems.push(
      `line ${l.line}: a decided province is "Province Winner", "Province Winner Unit" or "Province standoff", then optionally "lost" and units, not "${l.text}"`,
    );
    return undefined;
  }
  const destroyed = lostPart === undefined ? {} : { destroyed: lost };
  if (who.toLowerCase() === 'standoff' && unit.length === 0) return { province, outcome: { standoff: true, ...destroyed } };
  const named = unit.filter((w) => !/^[AF]$/i.test(w));
  return { province, outcome: { winner: power(v, who) ?? who, ...(named.length > 0 ? { unit: named.join(' ') } : {}), ...destroyed } };
}

/** "Carthage: Gad -> Egypt" (a loan), or "Carthage: end Gad -> Egypt" (ending one). */
function loanLine(v: Variant, l: DatcLine, problems: string[]): { loan: Loan; end: boolean } | undefined {
  const m = /^([^:]+):\s*(end\s+)?(\S+)\s*->\s*(.+)$/i.exec(l.text);
  const from = m ? power(v, m[1]) : undefined;
  const to = m ? power(v, m[4]) : undefined;
  const centre = m ? findProvince(v, m[3]) : -1;
  if (!m || !from || !to || centre < 0) {
    problems.push(`line ${l.line}: a loan is "Lender: Centre -> Borrower" (or "Lender: end Centre -> Borrower"), not "${l.text}"`);
    return undefined;
  }
  return { loan: { centre: v.provinceIds[centre], from, to }, end: !!m[2] };
}

/** Run one case and compare with its expectations. */
export function runCase(v: Variant, c: DatcCase): CaseReport {
  const report: CaseReport = { id: c.id, title: c.title, passed: false, problems: [], differences: [], notes: [] };
  const built = caseToState(v, c);
  if (!built.ok) {
    report.problems = built.error;
    return report;
  }
  let { state } = built.value;
  const { orders, decided } = built.value;
  const loanProblems: string[] = [];
  for (const l of c.blocks.LOAN_ACTIONS ?? []) {
    const action = loanLine(v, l, loanProblems);
    if (!action) continue;
    const r = action.end ? endLoanOf(v, state, action.loan) : lendCentre(v, state, action.loan);
    // A refused loan is part of what a case may test: it leaves the state as it was.
    if (r.ok) state = r.value;
    else report.notes.push(`line ${l.line}: refused: ${r.error}`);
  }
  if (loanProblems.length > 0) {
    report.problems = loanProblems;
    return report;
  }
  const result = adjudicate(v, state, orders, decided.length > 0 ? { decided } : undefined);
  const expectedErrors = c.blocks.POSTSTATE_ERROR;
  if (expectedErrors) {
    // A case that expects the phase to be refused passes when every expected text is in some error.
    const got = result.ok ? [] : result.error;
    for (const l of expectedErrors)
      if (!got.some((e) => e.toLowerCase().includes(l.text.toLowerCase())))
        report.differences.push(
          result.ok
            ? `expected an error containing "${l.text}", but the phase was adjudicated`
            : `expected an error containing "${l.text}", got [${got.join('; ')}]`,
        );
    if (result.ok) report.outcome = result.value;
    report.passed = report.differences.length === 0;
    return report;
  }
  if (!result.ok) {
    report.problems = result.error;
    return report;
  }
  const out = result.value;
  report.outcome = out;
  const next = out.next;
  const problems: string[] = [];
  const diffs = report.differences;
  const afterUnits = next.units;
  const afterDislodged = next.phase.type === 'retreat' && state.phase.type === 'movement' ? next.dislodged : [];
  // Units disbanded for want of a retreat may be listed as dislodged or not: both readings are common.
  const gone = new Set(out.disbanded.map((u) => `${u.power} ${u.at}`));
  const notGone = (u: Unit) => !gone.has(`${u.power} ${u.at}`);

  if (c.poststateSame) {
    compareUnits('units', state.units, afterUnits, diffs);
    compareUnits('dislodged units', [], afterDislodged, diffs);
  }
  if (c.blocks.POSTSTATE) compareUnits('units', unitLines(v, c.blocks.POSTSTATE, problems), afterUnits, diffs);
  if (c.blocks.POSTSTATE_DISLODGED)
    compareUnits('dislodged units', unitLines(v, c.blocks.POSTSTATE_DISLODGED, problems).filter(notGone), afterDislodged, diffs);
  if (c.blocks.POSTSTATE_DESTROYED) {
    const want = provinceLines(v, c.blocks.POSTSTATE_DESTROYED, problems).sort();
    const got = [...next.destroyed].sort();
    if (want.join() !== got.join()) diffs.push(`destroyed centres: expected [${want.join(', ')}], got [${got.join(', ')}]`);
  }
  if (c.blocks.POSTSTATE_REBUILDING) {
    const want = provinceLines(v, c.blocks.POSTSTATE_REBUILDING, problems).sort();
    const got = [...next.rebuilding].sort();
    if (want.join() !== got.join()) diffs.push(`rebuilding: expected [${want.join(', ')}], got [${got.join(', ')}]`);
  }
  if (c.blocks.POSTSTATE_LOANS) {
    const key = (l: Loan) => `${l.from}: ${l.centre} -> ${l.to}`;
    const want = c.blocks.POSTSTATE_LOANS.map((l) => loanLine(v, l, problems))
      .filter((x) => x !== undefined)
      .map((x) => key(x.loan))
      .sort();
    const got = next.loans.map(key).sort();
    if (want.join() !== got.join()) diffs.push(`loans: expected [${want.join('; ')}], got [${got.join('; ')}]`);
  }
  if (c.blocks.POSTSTATE_SUPPLYCENTER_OWNERS) {
    for (const l of c.blocks.POSTSTATE_SUPPLYCENTER_OWNERS) {
      const s = splitPowerLine(l.text);
      const w = s && normaliseName(s.power) === 'neutral' ? 'neutral' : s ? power(v, s.power) : undefined;
      if (!s || !w) {
        problems.push(`line ${l.line}: expected "Power: centre" or "Neutral: centre", not "${l.text}"`);
        continue;
      }
      for (const word of s.rest.split(/[\s,]+/).filter((x) => x && !/^[AF]$/i.test(x))) {
        const p = findProvince(v, word);
        if (p < 0) problems.push(`line ${l.line}: unknown province "${word}"`);
        else {
          const id = v.provinceIds[p];
          const got = next.owners[id] ?? next.control[id] ?? 'neutral';
          if (got !== w) diffs.push(`owner of ${id}: expected ${w}, got ${got}`);
        }
      }
    }
  }
  if (c.blocks.POSTSTATE_WINNERS) {
    const want = c.blocks.POSTSTATE_WINNERS.filter((l) => normaliseName(l.text) !== 'none')
      .map((l) => power(v, l.text) ?? l.text)
      .sort();
    const got = [...(next.winners ?? [])].sort();
    if (want.join() !== got.join()) diffs.push(`winners: expected [${want.join(', ') || 'none'}], got [${got.join(', ') || 'none'}]`);
  }
  report.problems = problems;
  report.passed = problems.length === 0 && diffs.length === 0;
  return report;
}

function compareUnits(what: string, want: readonly Unit[], got: readonly Unit[], diffs: string[]): void {
  const key = (u: Unit) => `${u.power}: ${u.type === 'army' ? 'A' : 'F'} ${u.at}`;
  const a = want.map(key).sort();
  const b = got.map(key).sort();
  const missing = a.filter((x) => !b.includes(x));
  const extra = b.filter((x) => !a.includes(x));
  if (missing.length || extra.length) diffs.push(`${what}: expected but missing [${missing.join('; ')}], present but not expected [${extra.join('; ')}]`);
}

/** Power names as written in case files; a misspelling close to exactly one power is read as that power. */
function power(v: Variant, name: string): string | undefined {
  const w = findPower(v, name);
  if (w >= 0) return v.powers[w];
  const n = normaliseName(name);
  const close = v.powers.filter((p) => editDistance(normaliseName(p), n) <= 2);
  return close.length === 1 ? close[0] : undefined;
}

function unitLines(v: Variant, lines: readonly DatcLine[], problems: string[]): Unit[] {
  const out: Unit[] = [];
  for (const l of lines) {
    const s = splitPowerLine(l.text);
    const w = s ? power(v, s.power) : undefined;
    const m = s ? /^(a|f|army|fleet)\s+(.+)$/i.exec(s.rest) : null;
    const loc = m ? parseLocation(v, m[2]) : undefined;
    if (!s || !w || !m || !loc) {
      problems.push(`line ${l.line}: expected "Power: A|F location", not "${l.text}"`);
      continue;
    }
    out.push({ power: w, type: m[1].toLowerCase().startsWith('a') ? 'army' : 'fleet', at: loc });
  }
  return out;
}

function parseLocation(v: Variant, text: string): string | undefined {
  const o = parseOrder(v, `A ${text}`, 'movement');
  if (!o.ok || o.value.kind !== 'hold') return undefined;
  return findLocation(v, o.value.unit.at) >= 0 ? o.value.unit.at : undefined;
}

function ownerLines(v: Variant, lines: readonly DatcLine[], problems: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of lines) {
    const s = splitPowerLine(l.text);
    const w = s ? power(v, s.power) : undefined;
    if (!s || !w) {
      problems.push(`line ${l.line}: expected "Power: centre", not "${l.text}"`);
      continue;
    }
    // "Russia: A war" (jDip) or "Russia: war" or "Russia: war, mos".
    for (const word of s.rest.split(/[\s,]+/).filter((x) => x && !/^(a|f)$/i.test(x))) {
      const p = findProvince(v, word.split('/')[0]);
      if (p < 0) problems.push(`line ${l.line}: unknown province "${word}"`);
      else out[v.provinceIds[p]] = w;
    }
  }
  return out;
}

function provinceLines(v: Variant, lines: readonly DatcLine[], problems: string[]): string[] {
  const out: string[] = [];
  for (const l of lines)
    for (const word of l.text.split(/[\s,]+/).filter(Boolean)) {
      const p = findProvince(v, word);
      if (p < 0) problems.push(`line ${l.line}: unknown province "${word}"`);
      else out.push(v.provinceIds[p]);
    }
  return out;
}

/** Provinces a failed move into an empty province left empty (without knowing why the move failed). */
function naiveStandoffs(v: Variant, units: readonly Unit[], prior: readonly Prior[]): string[] {
  const occupied = new Set(units.map((u) => findProvince(v, u.at.split('/')[0])));
  const standoffs = new Set<string>();
  const destOf = (r: Prior) => (r.order.kind === 'move' ? findProvince(v, r.order.to.split('/')[0]) : -1);
  for (const r of prior) {
    const dest = destOf(r);
    if (dest < 0 || r.success || occupied.has(dest)) continue;
    if (prior.some((o) => o.success && destOf(o) === dest)) continue;
    standoffs.add(v.provinceIds[dest]);
  }
  return [...standoffs];
}

/**
 * Re-adjudicate the previous movement phase from PRESTATE_RESULTS. Used only
 * when it reproduces the case's position exactly; it then gives the attackers'
 * origins and the standoffs as the engine itself would have recorded them.
 */
function replayMovement(
  v: Variant,
  phase: { season: 'spring' | 'fall' | 'winter'; year: number },
  units: readonly Unit[],
  dislodged: readonly Unit[],
  prior: readonly Prior[],
): { dislodged: DislodgedUnit[]; standoffs: string[] } | undefined {
  const before: Unit[] = [];
  const taken = new Set<number>();
  for (const r of prior) {
    if (!('unit' in r.order)) return undefined;
    const at = r.order.unit.at;
    const p = findProvince(v, at.split('/')[0]);
    if (taken.has(p)) return undefined;
    taken.add(p);
    const type = r.order.unit.type ?? (r.order.kind === 'convoy' ? 'fleet' : undefined);
    if (!type) return undefined;
    before.push({ power: r.power, type, at });
  }
  const arrived = new Set(prior.filter((r) => r.success && r.order.kind === 'move').map((r) => findProvince(v, (r.order as { to: string }).to.split('/')[0])));
  for (const u of units) {
    const p = findProvince(v, u.at.split('/')[0]);
    if (!taken.has(p) && !arrived.has(p)) taken.add(p), before.push(u);
  }
  const state: GameState = {
    variant: v.id,
    phase: { season: phase.season === 'winter' ? 'fall' : phase.season, year: phase.year, type: 'movement' },
    units: before,
    dislodged: [],
    standoffs: [],
    owners: { ...v.data.start.owners },
    control: {},
    destroyed: [],
    rebuilding: [],
    loans: [],
  };
  const out = adjudicate(
    v,
    state,
    prior.map((r) => ({ power: r.power, order: r.order })),
  );
  if (!out.ok || out.value.next.phase.type !== 'retreat') return undefined;
  const key = (u: Unit) => `${u.power} ${u.type} ${u.at}`;
  const same = (a: readonly Unit[], b: readonly Unit[]) => a.map(key).sort().join('|') === b.map(key).sort().join('|');
  const next = out.value.next;
  if (!same(next.units, units) || !same(next.dislodged, dislodged)) return undefined;
  return { dislodged: next.dislodged, standoffs: next.standoffs };
}

interface Prior {
  success: boolean;
  power: string;
  order: ReturnType<typeof parseOrder> extends Result<infer O> ? O : never;
}

function priorResult(v: Variant, l: DatcLine, problems: string[]): Prior | undefined {
  const m = /^(SUCCESS|FAILURE)\s*:\s*(.*)$/i.exec(l.text);
  const s = m ? splitPowerLine(m[2]) : undefined;
  const w = s ? power(v, s.power) : undefined;
  const o = s ? parseOrder(v, s.rest, 'movement') : undefined;
  if (!m || !s || !w || !o?.ok) {
    problems.push(`line ${l.line}: expected "SUCCESS: Power: order" or "FAILURE: …", not "${l.text}"${o && !o.ok ? ` (${o.error})` : ''}`);
    return undefined;
  }
  return { success: m[1].toUpperCase() === 'SUCCESS', power: w, order: o.value };
}

/** Where the attacker of a dislodged unit came from; null when it came by convoy (it may retreat there, DATC 4.A.5). */
function attackerOf(v: Variant, d: Unit, prior: readonly Prior[]): string | null {
  const here = findProvince(v, d.at.split('/')[0]);
  for (const r of prior) {
    if (!r.success || r.order.kind !== 'move') continue;
    if (findProvince(v, r.order.to.split('/')[0]) !== here) continue;
    const from = findProvince(v, r.order.unit.at.split('/')[0]);
    const convoyed =
      r.order.viaConvoy ||
      (r.order.unit.type !== 'fleet' && !v.armyMatrix[from * v.provinceCount + here]) ||
      prior.some((c) => c.success && c.order.kind === 'convoy' && findProvince(v, c.order.army.at) === from);
    return convoyed ? null : v.provinceIds[from];
  }
  return null;
}
