/**
 * Resolving the attacks and the repair (3.3): rams and follow-up rams, oar rakes, grapples, degrapples,
 * boarding, repairs, and what their results do to a ship: crippled (3.1.6), sunk, captured (3.1.7). Each
 * writes its lines with the numbers and the table row it read.
 */
import type { Aspect } from '../hex.ts';
import type { BattleLog } from './log.ts';
import { RULES, ramResultFor, repairResultFor, rowWords } from './rules.ts';
import { type ShipState, type State, boardingOf, crewEdge, enginePointsOf, label, towerPointsOf, typeOf } from './state.ts';

const ASPECT_WORDS: Record<Aspect, string> = { bow: 'bow', 'bow-beam': 'bow beam', 'quarter-beam': 'quarter beam', stern: 'stern' };
export const aspectWords = (a: Aspect): string => ASPECT_WORDS[a];

/**
 * "6 ram + 1 crew − 3 crippled + die 4 = 8": the terms that are not zero (the first, a ship's own factor, always
 * shown when `base`), the die, the total.
 */
function sum(terms: readonly (readonly [number, string])[], die: number, base = true): { total: number; words: string } {
  let words = '';
  let total = 0;
  for (const [i, [n, what]] of terms.entries()) {
    if (n === 0 && !(base && i === 0)) continue;
    total += n;
    words += words === '' ? `${n} ${what}` : `${n < 0 ? ' − ' : ' + '}${Math.abs(n)} ${what}`;
  }
  total += die;
  words = words === '' ? `die ${die}` : `${words} + die ${die}`;
  return { total, words: `${words} = ${total}` };
}

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

// ── What results do to a ship ──────────────────────────────────────────────

/** Removes a sunk ship from the board and from every contact and grapple. */
export function sink(s: State, ship: ShipState): void {
  ship.sunk = true;
  s.contacts = s.contacts.filter((c) => c.attacker !== ship.id && c.target !== ship.id);
  s.grapples = s.grapples.filter((g) => g.a !== ship.id && g.b !== ship.id);
}

/** A cripple result: crippled, or sunk if it already was (3.1.6). Returns the words for the log. */
export function cripple(s: State, ship: ShipState): string {
  if (ship.crippled) {
    sink(s, ship);
    return `${label(ship)}, already crippled, breaks up and sinks`;
  }
  ship.crippled = true;
  return `${label(ship)} is crippled`;
}

/** Ships on the same side no longer count as in contact with each other. */
function dropFriendlyContacts(s: State): void {
  const sideOf = new Map(s.ships.map((x) => [x.id, x.side]));
  s.contacts = s.contacts.filter((c) => sideOf.get(c.attacker) !== sideOf.get(c.target));
}

/** Captured (3.1.7): the captor's side holds it, in the captor's squadron; marines gone, crew green, speed 1. */
export function capture(s: State, prize: ShipState, captor: ShipState): void {
  prize.side = captor.side;
  prize.squadron = captor.squadron;
  prize.captured = true;
  dropFriendlyContacts(s);
}

function recapture(s: State, prize: ShipState): void {
  prize.side = prize.originalSide;
  prize.squadron = prize.originalSquadron;
  dropFriendlyContacts(s);
}

// ── Rams and follow-up rams (3.3.1) ────────────────────────────────────────

function ramTerms(ship: ShipState, other: ShipState, aspect: Aspect | null): [number, string][] {
  const ram = typeOf(ship).ram;
  const terms: [number, string][] = [[ram, 'ram']];
  terms.push([crewEdge(ship, other), 'crew']);
  // Half the ramming factor, rounded down, is lost while crippled.
  if (ship.crippled) terms.push([-Math.floor(ram / 2), 'crippled']);
  if (aspect) terms.push([RULES.aspectBonus[aspect], aspectWords(aspect)]);
  return terms;
}

/**
 * A ram (or a follow-up ram, resolved as the ram it follows): both ships total their factors and a die,
 * and each takes the result its own difference gives it.
 */
export function resolveRam(s: State, rammer: ShipState, target: ShipState, aspect: Aspect, followUp: ShipState | null, log: BattleLog): void {
  const a = sum(ramTerms(rammer, target, aspect), log.roll(6, `${rammer.name} ram`));
  const b = sum(ramTerms(target, rammer, null), log.roll(6, `${target.name} against the ram`));
  const opening = followUp
    ? `${label(followUp)} makes a follow-up ram: ${label(rammer)} in the ${aspectWords(aspect)} of ${label(target)} again`
    : `${label(rammer)} rams the ${aspectWords(aspect)} of ${label(target)}`;
  log.say(`${opening}: ${a.words} against ${b.words}`);
  const effects: [ShipState, 'sink' | 'cripple'][] = [];
  for (const [ship, diff] of [
    [target, b.total - a.total],
    [rammer, a.total - b.total],
  ] as const) {
    const row = ramResultFor(diff);
    const table = { name: 'Ram results', row: `${rowWords(row.from, row.to)}: ${row.result === 'roll' ? 'roll a die, crippled on 1 to 3' : row.result}` };
    const head = `difference ${signed(diff)} for ${ship.name}`;
    if (row.result === 'sunk') {
      log.say(`${head}: sunk`, table);
      effects.push([ship, 'sink']);
    } else if (row.result === 'crippled') {
      log.say(`${head}: crippled`, table);
      effects.push([ship, 'cripple']);
    } else if (row.result === 'roll') {
      const die = log.roll(6, `${ship.name} close call`);
      const hit = die <= RULES.closeCallCrippledUpTo;
      log.say(`${head}: a close call, die ${die}: ${hit ? 'crippled' : 'no harm'}`, table);
      if (hit) effects.push([ship, 'cripple']);
    } else log.say(`${head}: no effect`, table);
  }
  // Both ships' results stand together: a ship sunk by the ram still does its damage.
  for (const [ship, effect] of effects) {
    if (effect === 'sink') sink(s, ship);
    else if (ship.crippled) log.say(cripple(s, ship));
    else cripple(s, ship);
  }
}

// ── Oar rakes (3.3.2) ──────────────────────────────────────────────────────

export function resolveRake(s: State, attacker: ShipState, defender: ShipState, aspect: Aspect, log: BattleLog): void {
  const a = sum(
    [
      [typeOf(attacker).ram, 'ram'],
      [crewEdge(attacker, defender), 'crew'],
    ],
    log.roll(6, `${attacker.name} rake`),
  );
  const d = sum(
    [
      [typeOf(defender).ram, 'ram'],
      [crewEdge(defender, attacker), 'crew'],
    ],
    log.roll(6, `${defender.name} against the rake`),
  );
  const wins = a.total > d.total;
  log.say(
    `${label(attacker)} rakes the oars along the ${aspectWords(aspect)} of ${label(defender)}: ${a.words} against ${d.words}: ${wins ? 'the attacker wins' : 'the defender holds'}`,
    { name: 'Oar rake', row: wins ? 'attacker higher: defender crippled' : 'defender equal or higher: no effect' },
  );
  if (wins) log.say(cripple(s, defender));
}

// ── Grappling and degrappling (3.3.3, 3.3.4) ───────────────────────────────

export function resolveGrapple(s: State, ship: ShipState, target: ShipState, log: BattleLog): void {
  const a = sum(
    [
      [crewEdge(ship, target), 'crew'],
      [ship.ironHands ? RULES.ironHandsBonus : 0, 'iron hands'],
    ],
    log.roll(6, `${ship.name} grapple`),
    false,
  );
  const d = sum([[crewEdge(target, ship), 'crew']], log.roll(6, `${target.name} against the grapple`), false);
  const holds = a.total > d.total;
  const recapturing = target.originalSide === ship.side;
  log.say(
    `${label(ship)} throws grapnels at ${label(target)}: ${a.words} against ${d.words}: ${
      holds ? (recapturing ? `grappled, and ${target.name} is recaptured` : 'grappled') : 'the grapple fails'
    }`,
    { name: 'Grapple', row: holds ? 'grappler higher: grappled' : 'grappler equal or lower: no grapple' },
  );
  if (!holds) return;
  // Recapturing one's own ship needs no boarding: it is back on grappling (3.1.7).
  if (recapturing) recapture(s, target);
  else s.grapples.push({ a: ship.id, b: target.id });
}

export function resolveDegrapple(s: State, ship: ShipState, other: ShipState, log: BattleLog): void {
  const free = () => {
    s.grapples = s.grapples.filter((g) => !((g.a === ship.id && g.b === other.id) || (g.a === other.id && g.b === ship.id)));
    s.contacts = s.contacts.filter((c) => !((c.attacker === ship.id && c.target === other.id) || (c.attacker === other.id && c.target === ship.id)));
  };
  if (ship.side === other.side) {
    log.say(`${label(ship)} casts off from ${label(other)}, now in friendly hands`, { name: 'Degrapple', row: 'after a capture: automatic' });
    free();
    return;
  }
  const a = sum([[crewEdge(ship, other), 'crew']], log.roll(6, `${ship.name} degrapple`), false);
  const d = sum([[crewEdge(other, ship), 'crew']], log.roll(6, `${other.name} holds on`), false);
  const freed = a.total > d.total;
  log.say(`${label(ship)} tries to cut free of ${label(other)}: ${a.words} against ${d.words}: ${freed ? 'free' : 'still grappled'}`, {
    name: 'Degrapple',
    row: freed ? 'higher: free' : 'equal or lower: still grappled',
  });
  if (freed) free();
}

// ── Boarding (3.3.5) ───────────────────────────────────────────────────────

function boardingTerms(ship: ShipState, other: ShipState): { base: number; words: string; towers: number } {
  const boarding = boardingOf(ship);
  const engines = enginePointsOf(other);
  // Engine fire thins the marines; it cannot leave fewer than none.
  const base = Math.max(0, boarding - engines);
  const words = engines > 0 ? `(${boarding} boarding − ${engines} engines${base === 0 && boarding < engines ? ', at least 0' : ''})` : `${boarding} boarding`;
  return { base, words, towers: towerPointsOf(ship) };
}

export function resolveBoarding(s: State, boarder: ShipState, defender: ShipState, log: BattleLog): void {
  const total = (ship: ShipState, other: ShipState, die: number) => {
    const t = boardingTerms(ship, other);
    const sumOf = t.base + t.towers + die;
    return { total: sumOf, words: `${t.words}${t.towers ? ` + ${t.towers} towers` : ''} + die ${die} = ${sumOf}` };
  };
  const a = total(boarder, defender, log.roll(6, `${boarder.name} boarding`));
  const d = total(defender, boarder, log.roll(6, `${defender.name} defending`));
  const margin = RULES.captureMargin;
  const winner = a.total - d.total >= margin ? boarder : d.total - a.total >= margin ? defender : null;
  const loser = winner === boarder ? defender : winner === defender ? boarder : null;
  log.say(`${label(boarder)} boards ${label(defender)}: ${a.words} against ${d.words}: ${loser ? `${loser.name} is captured` : 'no result'}`, {
    name: 'Boarding',
    row: loser ? `${margin} or more higher: the other is captured` : `less than ${margin} apart: no result`,
  });
  if (winner && loser) capture(s, loser, winner);
}

// ── Repair (3.3.6) ─────────────────────────────────────────────────────────

export function resolveRepair(s: State, ship: ShipState, log: BattleLog): void {
  const die = log.roll(6, `${ship.name} repair`);
  const row = repairResultFor(die);
  const table = { name: 'Repair', row: `${row.from === row.to ? row.from : `${row.from}-${row.to}`}: ${row.result.replace('-', ' ')}` };
  if (row.result === 'sinks') {
    log.say(`${label(ship)} tries to repair, die ${die}: the ship founders and sinks`, table);
    sink(s, ship);
  } else if (row.result === 'permanently-crippled') {
    log.say(`${label(ship)} tries to repair, die ${die}: crippled for good, no more repairs`, table);
    ship.permanentlyCrippled = true;
  } else if (row.result === 'nothing') {
    log.say(`${label(ship)} tries to repair, die ${die}: no effect`, table);
  } else {
    log.say(`${label(ship)} tries to repair, die ${die}: recovers from its cripple`, table);
    ship.crippled = false;
  }
}
