/**
 * Missile fire and close combat: the opposed rolls with their modifiers, the results table, and the results
 * themselves (sink, cripple, capture, grapple, ungrapple, pass).
 */
import { type Base, TOUCH, onTable as baseOnTable, bowPoint, contactOf, headingVector, inForwardArc, overlapping, terrainUnder } from '../table/index.ts';
import type { BattleLog } from '../battle-log.ts';
import { signed } from './log.ts';
import { RESULT_COLUMNS, RULES, type Result, type Rules, resultColumn } from './rules.ts';
import { type ShipState, type State, afloat, baseOf, combatValue, isFlagship, onTable, sideName, squadronOf } from './state.ts';

export type CloseKind = 'ram' | 'rake' | 'board' | 'disengage';
export type AttackKind = CloseKind | 'missile';

export interface Modifier {
  readonly value: number;
  readonly why: string;
}

/** The defender's side struck by a ram or rake, and whether it is bow to bow. */
export function aspectOf(attacker: ShipState, defender: ShipState): { side: string; bowToBow: boolean } {
  const c = contactOf(baseOf(attacker), baseOf(defender));
  return { side: c?.bSide ?? 'front', bowToBow: c?.bowToBow ?? false };
}

/** The attacker's modifiers. */
export function attackerModifiers(state: State, attacker: ShipState, kind: AttackKind, supporters: number, rules: Rules = RULES): Modifier[] {
  const m = rules.modifiers;
  const out: Modifier[] = [];
  if (isFlagship(state, attacker)) out.push({ value: m.flagship, why: 'flagship' });
  if (attacker.crippled) out.push({ value: m.crippledOrCaptured, why: 'crippled' });
  if (supporters > 0) {
    const each = kind === 'missile' ? m.supportMissile : m.supportClose;
    out.push({ value: each * supporters, why: `for ${supporters} supporting` });
  }
  return out;
}

/** The defender's modifiers. */
export function defenderModifiers(state: State, attacker: ShipState, defender: ShipState, kind: AttackKind, rules: Rules = RULES): Modifier[] {
  const m = rules.modifiers;
  const out: Modifier[] = [];
  if (isFlagship(state, defender)) out.push({ value: m.flagship, why: 'flagship' });
  if (defender.crippled || defender.status === 'captured') out.push({ value: m.crippledOrCaptured, why: defender.crippled ? 'crippled' : 'captured' });
  if (kind === 'ram' || kind === 'rake') {
    if (defender.grappledWith !== null) out.push({ value: m.grappledTarget, why: 'grappled' });
    const { side } = aspectOf(attacker, defender);
    if (side === 'left' || side === 'right') out.push({ value: m.beam, why: `${kind === 'ram' ? 'rammed' : 'raked'} from the beam` });
    if (side === 'rear') out.push({ value: m.stern, why: `${kind === 'ram' ? 'rammed' : 'raked'} from the stern` });
  }
  return out;
}

const total = (mods: readonly Modifier[]) => mods.reduce((n, x) => n + x.value, 0);
const wordsOf = (mods: readonly Modifier[]) => mods.map((x) => ` ${signed(x.value)} (${x.why})`).join('');

/** The result table's entry for a kind of attack and a difference. */
export function lookup(kind: AttackKind, difference: number, rules: Rules = RULES): { result: Result; column: string } {
  const c = resultColumn(difference);
  return { result: rules.results[kind][c], column: RESULT_COLUMNS[c] };
}

/**
 * Whether "unless smaller" voids a result for the ship it falls on: its unadjusted combat value is lower than
 * the other ship's, it is neither crippled nor captured, and (for a ram) the two are not bow to bow.
 */
export function sparedAsSmaller(affected: ShipState, other: ShipState, bowToBow: boolean): boolean {
  return combatValue(affected) < combatValue(other) && !affected.crippled && affected.status !== 'captured' && !bowToBow;
}

/** A squadron whose flagship is lost names a new one (its strongest ship left) and its rating drops. */
function flagshipLost(state: State, ship: ShipState, log: BattleLog, rules: Rules): void {
  const squadron = squadronOf(state, ship);
  if (!squadron || squadron.flagship !== ship.id) return;
  ship.lostAsFlagship = true;
  const left = state.ships.filter((s) => s.squadron === squadron.id && afloat(s));
  const next = left.reduce<ShipState | null>((best, s) => (best === null || combatValue(s, rules) > combatValue(best, rules) ? s : best), null);
  squadron.flagship = next?.id ?? null;
  squadron.rating += rules.command.flagshipLost;
  log.line(
    next
      ? `${squadron.name} loses its flagship: ${next.name} becomes flagship, and the squadron's command rating drops to ${squadron.rating}.`
      : `${squadron.name} loses its flagship and has no ship left to fly the admiral's flag.`,
  );
}

function ungrapple(state: State, ship: ShipState): void {
  if (ship.grappledWith) {
    const other = state.ships.find((s) => s.id === ship.grappledWith);
    if (other && other.grappledWith === ship.id) other.grappledWith = null;
  }
  ship.grappledWith = null;
}

export function sink(state: State, ship: ShipState, log: BattleLog, rules: Rules = RULES): void {
  ungrapple(state, ship);
  ship.status = 'sunk';
  log.line(`${ship.name} sinks.`);
  flagshipLost(state, ship, log, rules);
}

export function cripple(state: State, ship: ShipState, log: BattleLog, rules: Rules = RULES): void {
  if (ship.crippled) {
    log.line(`${ship.name}, already crippled, is crippled again.`);
    sink(state, ship, log, rules);
    return;
  }
  ship.crippled = true;
  log.line(`${ship.name} is crippled: it may not move, fire or attack.`);
}

export function capture(state: State, ship: ShipState, by: string, log: BattleLog, rules: Rules = RULES): void {
  ungrapple(state, ship);
  ship.status = 'captured';
  ship.capturedBy = by;
  log.line(
    `${ship.name} is captured by ${sideName(state, by)}: it will be towed ${rules.movement.captureDrift} cables a turn towards ${sideName(state, by)}'s edge.`,
  );
  flagshipLost(state, ship, log, rules);
}

/**
 * The ships pass: they exchange places and end stern to stern, the attacker carried on past the point of
 * contact on its own heading and the defender turned to face where the attack came from. With no room for
 * either (another ship, land, the edge), they stay where they are.
 */
export function pass(state: State, attacker: ShipState, defender: ShipState, log: BattleLog, rules: Rules = RULES): void {
  const a = baseOf(attacker, rules);
  const d = baseOf(defender, rules);
  // The point of contact: the middle of the attacker's bow edge.
  const p = bowPoint(a);
  const ahead = headingVector(a.heading);
  const newA: Base = { ...a, x: p.x + ahead.x * (d.length + a.length / 2), y: p.y + ahead.y * (d.length + a.length / 2) };
  const newD: Base = { ...d, x: p.x + ahead.x * (d.length / 2), y: p.y + ahead.y * (d.length / 2), heading: (a.heading + 180) % 360 };
  // The defender, facing back along the line of the attack, has its bow where the attacker's was; the attacker
  // lies beyond it, stern against its stern.
  const others = state.ships.filter((s) => onTable(s) && s.id !== attacker.id && s.id !== defender.id).map((s) => baseOf(s, rules));
  const fits = (b: Base) => baseOnTable(state.table, b) && terrainUnder(state.table, b).length === 0 && !others.some((o) => overlapping(o, b));
  if (!fits(newA) || !fits(newD) || overlapping(newA, newD)) {
    log.line(`${attacker.name} and ${defender.name} have no room to pass and stay where they are.`);
    return;
  }
  attacker.x = newA.x;
  attacker.y = newA.y;
  defender.x = newD.x;
  defender.y = newD.y;
  defender.heading = newD.heading;
  log.line(`${attacker.name} passes ${defender.name}: they exchange places and end stern to stern.`);
}

export interface Resolved {
  readonly attackerTotal: number;
  readonly defenderTotal: number;
  readonly result: Result;
  readonly column: string;
}

/** Rolls an opposed attack and writes its line with every number. */
export function rollAttack(
  state: State,
  attacker: ShipState,
  defender: ShipState,
  kind: AttackKind,
  supporters: readonly ShipState[],
  log: BattleLog,
  rules: Rules = RULES,
): Resolved {
  const aMods = attackerModifiers(state, attacker, kind, supporters.length, rules);
  const dMods = defenderModifiers(state, attacker, defender, kind, rules);
  const aRoll = log.roll(`${attacker.name} ${kind}`);
  const dRoll = log.roll(`${defender.name} defends`);
  const aCv = combatValue(attacker, rules);
  const dCv = combatValue(defender, rules);
  const attackerTotal = aRoll + aCv + total(aMods);
  const defenderTotal = dRoll + dCv + total(dMods);
  const { result, column } = lookup(kind, attackerTotal - defenderTotal, rules);
  const verb = { ram: 'rams', rake: 'rakes', board: 'boards', disengage: 'tries to disengage from', missile: 'shoots at' }[kind];
  const support = supporters.length ? ` (supported by ${supporters.map((s) => s.name).join(', ')})` : '';
  log.line(
    `${attacker.name} ${verb} ${defender.name}${support}: ${aRoll} + ${aCv}${wordsOf(aMods)} = ${attackerTotal} against ${dRoll} + ${dCv}${wordsOf(dMods)} = ${defenderTotal}; difference ${signed(attackerTotal - defenderTotal)}: ${describeResult(result)}.`,
    { name: `Results table, ${kind}`, row: column },
  );
  return { attackerTotal, defenderTotal, result, column };
}

export function describeResult(r: Result): string {
  if (r.effect === 'none') return 'no effect';
  if (r.effect === 'pass') return 'pass';
  if (r.effect === 'ungrapple') return 'ungrapple';
  const what = r.effect === 'grapple' ? 'grapple, or capture if grappled,' : r.effect;
  return `${what} ${r.on}${r.pass ? ' and pass' : ''}${r.unlessSmaller ? ' unless smaller' : ''}`;
}

/** Applies a close combat result. */
export function applyClose(state: State, attacker: ShipState, defender: ShipState, kind: CloseKind, r: Result, log: BattleLog, rules: Rules = RULES): void {
  if (r.effect === 'none') return;
  if (r.effect === 'pass') {
    pass(state, attacker, defender, log, rules);
    return;
  }
  if (r.effect === 'ungrapple') {
    ungrapple(state, attacker);
    log.line(`${attacker.name} and ${defender.name} cut free of each other.`);
    return;
  }
  const target = r.on === 'attacker' ? attacker : defender;
  const other = r.on === 'attacker' ? defender : attacker;
  if (r.unlessSmaller && sparedAsSmaller(target, other, kind === 'ram' && aspectOf(attacker, defender).bowToBow)) {
    log.line(`No effect: ${target.name} is the smaller ship (combat value ${combatValue(target, rules)} against ${combatValue(other, rules)}).`);
    return;
  }
  if (r.effect === 'sink') sink(state, target, log, rules);
  else if (r.effect === 'cripple') cripple(state, target, log, rules);
  else if (r.effect === 'capture') capture(state, target, other.side, log, rules);
  else if (r.effect === 'grapple') {
    if (attacker.grappledWith === defender.id) capture(state, target, other.side, log, rules);
    else if (attacker.grappledWith === null && defender.grappledWith === null) {
      attacker.grappledWith = defender.id;
      defender.grappledWith = attacker.id;
      log.line(`${attacker.name} and ${defender.name} are grappled and locked in place.`);
    } else log.line(`No grapple: ${attacker.grappledWith ? attacker.name : defender.name} is already grappled to another ship.`);
  }
  if (r.pass && afloat(attacker) && afloat(defender)) pass(state, attacker, defender, log, rules);
}

/**
 * Missile fire's result on the attacking side: it falls on the firer if the defender has it in its arc, else on
 * a supporter in the defender's arc (the nearest), else on nobody.
 */
export function missileVictim(defender: ShipState, firer: ShipState, supporters: readonly ShipState[], rules: Rules = RULES): ShipState | null {
  const d = baseOf(defender, rules);
  if (inForwardArc(d, baseOf(firer, rules))) return firer;
  const inArc = supporters.filter((s) => inForwardArc(d, baseOf(s, rules)));
  if (inArc.length === 0) return null;
  const dist = (s: ShipState) => Math.hypot(s.x - defender.x, s.y - defender.y);
  return inArc.reduce((best, s) => (dist(s) < dist(best) - TOUCH ? s : best));
}
