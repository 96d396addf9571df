/**
 * The chit cup (1.7, 2): each squadron has as many chits as its commander's rating, one End of Turn chit goes
 * in every turn, and from the turn after a side loses its first ship, a Morale Check chit of that side. Chits
 * are drawn with a die of as many faces as there are chits left (the cup is kept in a fixed order), so every
 * draw is a roll of the battle's stream that anyone can check. A squadron drawn rolls a d6 for its initiative
 * points. The turn ends when the End of Turn chit is drawn (or the cup is empty); then the cup is filled again.
 * Morale checks (3.2.10) and victory (4) are decided here too, with the turn limit this project adds.
 */
import type { BattleLog } from './log.ts';
import { RULES, commanderByRating } from './rules.ts';
import { type Chit, type State, admiralLost, lossesOf, otherSide, sideName, squadronById, squadronShips } from './state.ts';
import { plural } from '../../text/plural.ts';

/** The cup at the start of a turn: squadrons with ships left, End of Turn, and the morale chits due. */
export function fillCup(s: State): Chit[] {
  const cup: Chit[] = [];
  for (const sq of s.squadrons) {
    if (squadronShips(s, sq.id).length === 0) continue;
    for (let i = 0; i < sq.rating; i++) cup.push({ kind: 'squadron', squadron: sq.id });
  }
  cup.push({ kind: 'end-of-turn' });
  for (const side of s.moraleChits) cup.push({ kind: 'morale', side });
  return cup;
}

function describeCup(s: State, cup: readonly Chit[]): string {
  const counts = new Map<string, number>();
  for (const c of cup) {
    const name =
      c.kind === 'squadron' ? (squadronById(s, c.squadron)?.name ?? c.squadron) : c.kind === 'morale' ? `morale check (${sideName(s, c.side)})` : 'End of Turn';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => `${n} ${name}`).join(', ');
}

export function startTurn(s: State, log: BattleLog): void {
  s.cup = fillCup(s);
  log.say(`Turn ${s.turn} begins: ${s.cup.length} chits in the cup (${describeCup(s, s.cup)})`);
}

/** Sides that have lost a ship get their morale chit from the next turn (2.1). */
export function noteLosses(s: State): void {
  for (const side of s.sides) if (!s.moraleChits.includes(side.id) && lossesOf(s, side.id).ships > 0) s.moraleChits.push(side.id);
}

/** Whether a side has lost a third of its ships or of its ramming factors (4). */
export function broken(s: State, side: string): boolean {
  const l = lossesOf(s, side);
  return l.ships * 3 >= l.totalShips || l.ram * 3 >= l.totalRam;
}

/** Sets the outcome if a side has reached defeat; both at once is a draw. */
export function checkVictory(s: State, log: BattleLog): void {
  if (s.outcome) return;
  const [a, b] = s.sides.map((x) => x.id);
  const lostA = broken(s, a);
  const lostB = broken(s, b);
  if (!lostA && !lostB) return;
  const words = (side: string) => {
    const l = lossesOf(s, side);
    return `${sideName(s, side)} has lost ${l.ships} of ${l.totalShips} ships and ${l.ram} of ${l.totalRam} ramming factors`;
  };
  if (lostA && lostB) {
    s.outcome = { winner: null, reason: `both fleets lose a third at once: ${words(a)}; ${words(b)}` };
  } else {
    const loser = lostA ? a : b;
    s.outcome = { winner: otherSide(s, loser), reason: `${words(loser)}: a third or more, and loses the battle` };
  }
  s.activation = null;
  log.say(s.outcome.reason, { name: 'Victory', row: 'a third of the ships or of the ramming factors lost' });
}

const shipsLost = (n: number) => `${plural(n, 'ship')} lost`;

/** A morale check chit drawn (3.2.10). */
function moraleCheck(s: State, side: string, log: BattleLog): void {
  const own = lossesOf(s, side).ships;
  const enemy = lossesOf(s, otherSide(s, side)).ships;
  const name = sideName(s, side);
  const table = 'Morale check';
  if (own <= enemy) {
    log.say(`Morale check for ${name}: ${shipsLost(own)} against the enemy's ${enemy}: no check needed`, {
      name: table,
      row: 'not more losses than the enemy: ignored',
    });
    return;
  }
  const fail = (reason: string, row: string) => {
    s.outcome = { winner: otherSide(s, side), reason: `${name} fails its morale check (${reason}) and concedes` };
    s.activation = null;
    log.say(`Morale check for ${name}: ${reason}: the fleet concedes defeat`, { name: table, row });
  };
  if (admiralLost(s, side)) {
    fail('the fleet admiral is lost', 'admiral lost: fails');
    return;
  }
  const admiral = squadronById(s, s.sides.find((x) => x.id === side)!.admiralSquadron)!;
  const modifier = commanderByRating(admiral.rating)?.moraleModifier ?? 0;
  const die = log.roll(6, `${name} morale`);
  const total = die + modifier;
  const words = `die ${die}${modifier ? ` ${modifier > 0 ? '+' : '−'} ${Math.abs(modifier)} admiral` : ''} = ${total} against ${shipsLost(own)}`;
  if (total > own) log.say(`Morale check for ${name}: ${words}: the fleet holds`, { name: table, row: 'more than the ships lost: holds' });
  else fail(words, 'not more than the ships lost: fails');
}

/** The turn limit reached: the side with fewer ships lost wins, then fewer ramming factors lost; else a draw. */
function endByTurnLimit(s: State, log: BattleLog): void {
  const [a, b] = s.sides.map((x) => x.id);
  const la = lossesOf(s, a);
  const lb = lossesOf(s, b);
  const winner = la.ships !== lb.ships ? (la.ships < lb.ships ? a : b) : la.ram !== lb.ram ? (la.ram < lb.ram ? a : b) : null;
  const losses = `${sideName(s, a)} lost ${la.ships} ships (${la.ram} ram), ${sideName(s, b)} ${lb.ships} (${lb.ram} ram)`;
  s.outcome = {
    winner,
    reason: `the turn limit (${s.turnLimit}) is reached: ${losses}; ${winner ? `${sideName(s, winner)} holds the sea` : 'a draw'}`,
  };
  s.activation = null;
  log.say(s.outcome.reason, { name: 'Turn limit', row: winner ? 'fewer losses wins' : 'equal losses: draw' });
}

/** Whether the activated squadron has anything to do but end (set by the engine, to skip dead activations). */
export type CanAct = (s: State) => boolean;

/** Draws chits until a squadron is activated that can act, or the battle ends. */
export function drawNext(s: State, log: BattleLog, canAct: CanAct): void {
  s.activation = null;
  while (!s.outcome) {
    if (s.cup.length === 0) {
      log.say(`The cup is empty: turn ${s.turn} ends`);
      if (!nextTurn(s, log)) return;
      continue;
    }
    const n = s.cup.length;
    const index = n === 1 ? 0 : log.roll(n, 'chit draw') - 1;
    const [chit] = s.cup.splice(index, 1);
    const drawn = n === 1 ? 'The last chit' : `Chit ${index + 1} of ${n}`;
    if (chit.kind === 'end-of-turn') {
      log.say(`${drawn} is End of Turn: turn ${s.turn} ends`);
      if (!nextTurn(s, log)) return;
      continue;
    }
    if (chit.kind === 'morale') {
      log.say(`${drawn} is the morale check of ${sideName(s, chit.side)}`);
      moraleCheck(s, chit.side, log);
      continue;
    }
    const sq = squadronById(s, chit.squadron)!;
    if (squadronShips(s, sq.id).length === 0) {
      log.say(`${drawn} is ${sq.name}, which has no ships left: set aside`);
      continue;
    }
    log.say(`${drawn} is ${sq.name} (${sideName(s, sq.side)}, ${sq.commander})`);
    const points = log.roll(RULES.initiativeDie, `${sq.name} initiative`);
    s.activation = { squadron: sq.id, points, used: {} };
    if (canAct(s)) {
      log.say(`${sq.name} has the initiative: ${plural(points, 'action')}`);
      return;
    }
    log.say(`${sq.name} rolls ${points} for initiative but no ship of it can act`);
    s.activation = null;
  }
}

/** Ends the turn: the battle ends at the turn limit, else the cup is filled for the next. */
function nextTurn(s: State, log: BattleLog): boolean {
  if (s.turn >= s.turnLimit) {
    endByTurnLimit(s, log);
    return false;
  }
  s.turn++;
  startTurn(s, log);
  return true;
}
