/**
 * Where units of two or more powers met in an adjudicated movement phase: a
 * province some power's unit moved into (with a route) while another power's
 * unit stayed there (it held, supported, convoyed, or its own move failed),
 * or one that units of two or more powers moved into. A unit that left
 * before the attacker came met nobody, and one power's units bouncing each
 * other is no fight. Two units moving head-to-head fight one battle: decided
 * at one end, it does not make the other end contested too. Read from the outcome, not the orders, because whether a
 * unit stayed to meet its attacker is only known once the phase is resolved.
 * At sea these are the contested seas of a campaign game, whose battles
 * decide them (decided.ts).
 */
import { shortUnit } from '../../state/board.ts';
import { MOVE, SUPPORT } from './check.ts';
import { DECIDED_STANDOFF, UNDECIDED, type MovementOutcome } from './resolve.ts';

/** A unit that took part: the one standing in the province, or one moving into it. */
export interface ContestedUnit {
  power: string;
  /** "F ION". */
  unit: string;
  /** Its location id. */
  at: string;
  /** Its order, as the engine writes it ("F ION H" when it had none). */
  order: string;
  /** `defender`: stood in the province and stayed; `attacker`: moved into it. */
  role: 'defender' | 'attacker';
  /** Attackers: entered the province. Defenders: were not dislodged. */
  success: boolean;
}

/** A support given to an attacker's move into the province, or to the defender's hold. */
export interface ContestedSupport {
  power: string;
  unit: string;
  at: string;
  order: string;
  /** Location of the unit supported. */
  supports: string;
  /** False when the support was cut. */
  given: boolean;
}

export interface ContestedProvince {
  province: string;
  name: string;
  /** The powers whose units met there, in the variant's order. */
  powers: string[];
  units: ContestedUnit[];
  supports: ContestedSupport[];
  /** Set when the phase was adjudicated with this province decided. */
  decided?: { winner: string; unit?: string } | { standoff: true };
}

/** The provinces where units of two or more powers met, in the map's order. */
export function contestedProvinces(out: MovementOutcome): number[] {
  const P = out.board.variant.provinceCount;
  const found: number[] = [];
  for (let p = 0; p < P; p++) if (out.intoStart[p] !== out.intoStart[p + 1] && powersMet(out, p).length > 1) found.push(p);
  return found;
}

/** The powers whose units met in province `p` (the one standing there that stayed, and those moving in with a route), in the variant's order. */
export function powersMet(out: MovementOutcome, p: number): number[] {
  const { board } = out;
  const met: number[] = [];
  const add = (w: number) => {
    if (!met.includes(w)) met.push(w);
  };
  const r = board.unitAt[p];
  if (r >= 0 && stayed(out, r)) add(board.power[r]);
  for (let i = out.intoStart[p], end = out.intoStart[p + 1]; i < end; i++) {
    const m = out.movesInto[i];
    if (out.path[m] && !sameBattle(out, m, r)) add(board.power[m]);
  }
  return met.sort((a, b) => a - b);
}

const stayed = (out: MovementOutcome, u: number) => !(out.kind[u] === MOVE && out.success[u]);

/** Mover `m` and resident `r` moving head-to-head fight one battle: once it is decided at m's end, r's end does not count it again. */
const sameBattle = (out: MovementOutcome, m: number, r: number) =>
  r >= 0 && out.decided !== undefined && out.headToHead[m] === r && out.decided.outcome[out.board.province[m]] !== UNDECIDED;

/** Who met in province `p` and how, in words and ids. `orderOf` gives each unit's order as written. */
export function describeContested(out: MovementOutcome, p: number, orderOf: (u: number) => string): ContestedProvince {
  const { board } = out;
  const v = board.variant;
  const units: ContestedUnit[] = [];
  const supports: ContestedSupport[] = [];
  const involved: number[] = [];
  const unitOf = (u: number, role: ContestedUnit['role'], success: boolean): ContestedUnit => ({
    power: v.powers[board.power[u]],
    unit: shortUnit(board, u),
    at: v.locationIds[board.location[u]],
    order: orderOf(u),
    role,
    success,
  });
  const r = board.unitAt[p];
  if (r >= 0 && stayed(out, r)) {
    units.push(unitOf(r, 'defender', out.dislodgedBy[r] < 0));
    // Supports for a defender's hold; those for its failed move elsewhere were not given here.
    if (out.kind[r] !== MOVE) involved.push(r);
  }
  const attackers: number[] = [];
  for (let i = out.intoStart[p], end = out.intoStart[p + 1]; i < end; i++) {
    const m = out.movesInto[i];
    if (!out.path[m] || sameBattle(out, m, r)) continue;
    attackers.push(m);
  }
  // Attackers by the variant's order of powers, then by where they came from: the same list whatever the units' order.
  attackers.sort((a, b) => board.power[a] - board.power[b] || board.location[a] - board.location[b]);
  for (const m of attackers) {
    units.push(unitOf(m, 'attacker', out.success[m] === 1));
    involved.push(m);
  }
  for (const u of involved)
    for (let i = out.supStart[u], end = out.supStart[u + 1]; i < end; i++) {
      const s = out.supports[i];
      if (out.kind[s] !== SUPPORT) continue;
      supports.push({
        power: v.powers[board.power[s]],
        unit: shortUnit(board, s),
        at: v.locationIds[board.location[s]],
        order: orderOf(s),
        supports: v.locationIds[board.location[u]],
        given: out.success[s] === 1,
      });
    }
  const found: ContestedProvince = {
    province: v.provinceIds[p],
    name: v.provinceNames[p],
    powers: powersMet(out, p).map((w) => v.powers[w]),
    units,
    supports,
  };
  const decided = out.decided?.outcome[p] ?? UNDECIDED;
  if (decided === DECIDED_STANDOFF) found.decided = { standoff: true };
  else if (decided !== UNDECIDED) {
    const unit = out.decided!.unit[p];
    found.decided = unit >= 0 ? { winner: v.powers[decided], unit: v.locationIds[board.location[unit]] } : { winner: v.powers[decided] };
  }
  return found;
}
