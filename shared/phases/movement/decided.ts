/**
 * Decided provinces: a movement phase adjudicated again with the outcome of
 * some provinces fixed from outside (a sea battle fought out, in a campaign
 * game), everything else by the ordinary rules around them.
 *
 * - `{ winner }`: every move into the province by another power fails. The
 *   winner's moves into it meet no opposition from other powers there: a unit
 *   of another power standing in it is dislodged unless it leaves (a unit
 *   leaving head-to-head against the winner's move cannot pass it and is
 *   dislodged too). Several moves of the winner into it compete among
 *   themselves by the ordinary rules (the stronger enters, equals bounce),
 *   unless `unit` names the one that won (the others then fail). A winner
 *   with no move there but a unit standing in it simply holds.
 * - `{ standoff: true }`: every move into the province fails; a unit in it
 *   stays (unless it leaves by its own move); left empty, it counts as a
 *   standoff for retreats.
 *
 * A province can be decided only where units of two or more powers met
 * (contested.ts) in the phase as adjudicated, either ordinarily or once the
 * other decisions are applied (a decided battle can make two fleets meet
 * elsewhere). Bad decisions are named in errors, never thrown.
 *
 * An outcome's `destroyed` names units lost in the province's battle (a fleet that lost
 * all its ships). They take their part in the adjudication as decided (a
 * move, a hold, a support given) and are then removed from the board: no
 * retreat for one dislodged. Only units that met there (contested.ts) or
 * gave a support counted there can be named.
 */
import { findLocation, findPower, findProvince } from '../../variant/load.ts';
import { shortUnit, unitAtRef, type Board } from '../../state/board.ts';
import { err, ok, type Result } from '../../result.ts';
import { MOVE, type MovementIntent } from './check.ts';
import { adjudicateMovement, DECIDED_STANDOFF, UNDECIDED, type Decisions, type MovementOptions, type MovementOutcome } from './resolve.ts';
import { contestedProvinces, describeContested, powersMet } from './contested.ts';

/**
 * How a battle for a province ended: a power won it (with one named unit of its own, if it moved several there), or
 * nobody did; either way, `destroyed`: the units lost in it, by location ("ion" or "F ion"), removed once the phase is
 * adjudicated.
 */
export type DecidedOutcome = ({ winner: string; unit?: string } | { standoff: true }) & { destroyed?: readonly string[] };

/** A province whose outcome is fixed from outside. */
export interface DecidedProvince {
  province: string;
  outcome: DecidedOutcome;
}

/** At most this many units lost in one province's battle: more than a board holds is a mistake. */
export const MAX_DESTROYED = 64;

/**
 * The units each decision names as lost in its battle (unit index → province index), checked against the phase as
 * adjudicated with the decisions: each must be a unit that met in that province or gave a support counted there,
 * and not the unit named as the one that won. A unit named in two battles is lost in the first.
 */
export function lostUnits(out: MovementOutcome, list: readonly DecidedProvince[]): Result<Map<number, number>, string[]> {
  const { board } = out;
  const v = board.variant;
  const lost = new Map<number, number>();
  const errors: string[] = [];
  for (const d of list) {
    const names = d.outcome.destroyed;
    if (names === undefined) continue;
    const p = findProvince(v, d.province);
    const where = `${v.provinceNames[p]} (${v.provinceIds[p]})`;
    if (!Array.isArray(names) || names.length > MAX_DESTROYED) {
      errors.push(`The units lost in the battle for ${where} must be a list of at most ${MAX_DESTROYED} unit locations.`);
      continue;
    }
    const there = describeContested(out, p, () => '');
    const took = new Set([...there.units.map((u) => u.at), ...there.supports.filter((s) => s.given).map((s) => s.at)]);
    const winnerUnit = out.decided?.unit[p] ?? -1;
    for (const name of names) {
      const at = typeof name === 'string' ? findLocation(v, name.trim().replace(/^[AF]\s+/i, '')) : -1;
      const u = at < 0 ? -1 : unitAtRef(board, { at: v.locationIds[at] });
      if (u < 0) {
        errors.push(`"${String(name)}", named lost in the battle for ${where}, is not a unit on the board.`);
        continue;
      }
      if (!took.has(v.locationIds[board.location[u]])) {
        errors.push(`${shortUnit(board, u)} (${v.powers[board.power[u]]}), named lost in the battle for ${where}, took no part in it.`);
        continue;
      }
      if (u === winnerUnit) {
        errors.push(`${shortUnit(board, u)} (${v.powers[board.power[u]]}) is named both the winner of ${where} and lost in its battle.`);
        continue;
      }
      if (!lost.has(u)) lost.set(u, p);
    }
  }
  return errors.length > 0 ? err(errors) : ok(lost);
}

/**
 * Adjudicate a movement phase with the decided provinces fixed. The decisions are checked against the board, the
 * orders and the provinces where units met; any that cannot apply is named in the errors.
 */
export function decideMovement(
  board: Board,
  intents: readonly MovementIntent[],
  options: MovementOptions,
  list: readonly DecidedProvince[],
): Result<MovementOutcome, string[]> {
  const compiled = compileDecisions(board, intents, list);
  if (!compiled.ok) return compiled;
  const wanted = compiled.value;
  let out = adjudicateMovement(board, intents, options);
  if (list.length === 0) return ok(out);
  const conflicts = headToHeadConflicts(out, wanted);
  if (conflicts.length > 0) return err(conflicts);

  // Accept each decision once its province is contested, in the ordinary adjudication or with the decisions accepted so far.
  const v = board.variant;
  const P = v.provinceCount;
  const accepted: Decisions = { outcome: new Int16Array(P).fill(UNDECIDED), unit: new Int16Array(P).fill(-1) };
  const pending = new Set(wanted.provinces);
  // A winner must be among those who met there: a fleet that left before the others came took no part in the battle.
  const applies = (p: number, contested: ReadonlySet<number>) => {
    const winner = wanted.decisions.outcome[p];
    return contested.has(p) && (winner < 0 || powersMet(out, p).includes(winner));
  };
  let contested = new Set(contestedProvinces(out));
  for (;;) {
    let progress = false;
    for (const p of pending) {
      if (!applies(p, contested)) continue;
      accepted.outcome[p] = wanted.decisions.outcome[p];
      accepted.unit[p] = wanted.decisions.unit[p];
      pending.delete(p);
      progress = true;
    }
    if (!progress) break;
    out = adjudicateMovement(board, intents, options, accepted);
    contested = new Set(contestedProvinces(out));
  }
  const errors = [...pending].map((p) => {
    const where = `${v.provinceNames[p]} (${v.provinceIds[p]})`;
    if (!contested.has(p)) return `${where} is not contested in this phase: units of two powers did not meet there.`;
    const met = powersMet(out, p).map((w) => v.powers[w]);
    return `${v.powers[wanted.decisions.outcome[p]]} took no part in the battle for ${where}, fought by ${met.join(' and ')}.`;
  });
  return errors.length > 0 ? err(errors) : ok(out);
}

/** The decisions in integers, each checked on its own: the province, the power, the unit, and that there is a battle to decide. */
function compileDecisions(
  board: Board,
  intents: readonly MovementIntent[],
  list: readonly DecidedProvince[],
): Result<{ decisions: Decisions; provinces: number[] }, string[]> {
  const v = board.variant;
  const P = v.provinceCount;
  const decisions: Decisions = { outcome: new Int16Array(P).fill(UNDECIDED), unit: new Int16Array(P).fill(-1) };
  const provinces: number[] = [];
  const errors: string[] = [];
  for (const d of list) {
    const p = typeof d?.province === 'string' ? findProvince(v, d.province) : -1;
    if (p < 0) {
      errors.push(`Decided province "${String(d?.province)}" is not a province on this map.`);
      continue;
    }
    const where = `${v.provinceNames[p]} (${v.provinceIds[p]})`;
    if (provinces.includes(p)) {
      errors.push(`${where} is decided more than once.`);
      continue;
    }
    const moves = intents.filter((i) => i.kind === MOVE && i.dest === p);
    if (moves.length === 0) {
      errors.push(`No unit was ordered to move into ${where}, so there is no battle there to decide.`);
      continue;
    }
    const outcome = d.outcome as Partial<{ winner: unknown; unit: unknown; standoff: unknown }> | undefined;
    if (outcome?.standoff === true && outcome.winner === undefined) {
      decisions.outcome[p] = DECIDED_STANDOFF;
      provinces.push(p);
      continue;
    }
    if (typeof outcome?.winner !== 'string') {
      errors.push(`The outcome decided for ${where} must name a winner or be a standoff.`);
      continue;
    }
    const w = findPower(v, outcome.winner);
    if (w < 0) {
      errors.push(`"${outcome.winner}", decided the winner of ${where}, is not a power in this game.`);
      continue;
    }
    const winnersMoves = moves.filter((i) => board.power[i.unit] === w).map((i) => i.unit);
    const resident = board.unitAt[p];
    if (winnersMoves.length === 0 && !(resident >= 0 && board.power[resident] === w)) {
      errors.push(`${v.powers[w]} has no unit in ${where} and none ordered to move there, so it cannot win the battle there.`);
      continue;
    }
    let unit = -1;
    if (outcome.unit !== undefined) {
      const at = typeof outcome.unit === 'string' ? findLocation(v, outcome.unit.replace(/^[AF]\s+/i, '')) : -1;
      unit = at < 0 ? -1 : unitAtRef(board, { at: v.locationIds[at] });
      if (!winnersMoves.includes(unit)) {
        errors.push(`The unit named as the winner of ${where} ("${String(outcome.unit)}") is not a unit of ${v.powers[w]} ordered to move there.`);
        continue;
      }
    }
    decisions.outcome[p] = w;
    decisions.unit[p] = unit;
    provinces.push(p);
  }
  return errors.length > 0 ? err(errors) : ok({ decisions, provinces });
}

/** Two units moving into each other's provinces cannot both win: deciding both provinces for their movers contradicts itself. */
function headToHeadConflicts(out: MovementOutcome, wanted: { decisions: Decisions }): string[] {
  const { board } = out;
  const v = board.variant;
  const { outcome } = wanted.decisions;
  const errors: string[] = [];
  for (let u = 0; u < board.count; u++) {
    const o = out.headToHead[u];
    if (o < u) continue;
    const p = out.intent[u]!.dest;
    const q = out.intent[o]!.dest;
    if (outcome[p] === board.power[u] && outcome[q] === board.power[o] && board.power[u] !== board.power[o])
      errors.push(
        `The decisions for ${v.provinceNames[p]} and ${v.provinceNames[q]} contradict each other: the units moving head-to-head between them cannot both win.`,
      );
  }
  return errors;
}
