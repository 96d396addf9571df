/**
 * Taking an action: checked first (an illegal one changes nothing), then one initiative point spent, the
 * action marked done for each ship that made it, resolved, losses and victory looked at, and when the points
 * are spent (or the side ends, or nothing is left to do) the next chit drawn.
 */
import type { Dice } from '../dice.ts';
import type { Facing } from '../hex.ts';
import type { Applied } from '../ruleset.ts';
import type { Action } from './actions.ts';
import { resolveBoarding, resolveDegrapple, resolveGrapple, resolveRake, resolveRam, resolveRepair, aspectWords } from './combat.ts';
import { checkVictory, drawNext, noteLosses } from './cup.ts';
import { aspectBetween, canAct, check } from './legal.ts';
import { BattleLog } from './log.ts';
import { backwaterHex, followPath, surroundings } from './movement.ts';
import { type ActionKind, type ShipState, type State, label, shipById, squadronById } from './state.ts';
import { facingName, hexName } from './words.ts';
import { plural } from '../../text/plural.ts';

function markUsed(s: State, ship: string, kind: ActionKind): void {
  const used = s.activation!.used;
  used[ship] = [...(used[ship] ?? []), kind];
}

/** A ship rows to its destination; whatever contact it was in is broken, and an engagement made. */
function row(s: State, ship: ShipState, path: Action & { kind: 'move' }, log: BattleLog, prefix: string): void {
  const followed = followPath(s, ship, path.path, path.facing as Facing);
  if (!followed.ok) throw new Error(`checked move refused: ${followed.error.message}`);
  const d = followed.destination;
  const from = hexName(ship.hex);
  s.contacts = s.contacts.filter((c) => c.attacker !== ship.id && c.target !== ship.id);
  ship.hex = d.hex;
  ship.facing = d.facing;
  const rowed = d.engage ? d.path.length - 1 : d.path.length;
  const moved = rowed === 0 ? `turns in ${from}` : `rows ${rowed} hex${rowed === 1 ? '' : 'es'} from ${from} to ${hexName(d.hex)}`;
  if (d.engage) {
    const target = shipById(s, d.engage)!;
    s.contacts.push({ attacker: ship.id, target: target.id, ram: null });
    log.say(`${prefix}${label(ship)} ${moved} and engages ${label(target)}, bow on its ${aspectWords(aspectBetween(ship, target))}`);
  } else log.say(`${prefix}${label(ship)} ${moved}, facing ${facingName(d.facing)}`);
}

function backwater(s: State, ship: ShipState, log: BattleLog, prefix: string): void {
  const to = backwaterHex(ship, surroundings(s));
  if (!to) throw new Error('checked backwater refused');
  const broke = s.contacts.some((c) => c.attacker === ship.id || c.target === ship.id);
  s.contacts = s.contacts.filter((c) => c.attacker !== ship.id && c.target !== ship.id);
  log.say(`${prefix}${label(ship)} backs water from ${hexName(ship.hex)} to ${hexName(to)}${broke ? ', breaking contact' : ''}`);
  ship.hex = to;
}

function perform(s: State, action: Exclude<Action, { kind: 'end' }>, log: BattleLog): void {
  s.activation!.points--;
  const ship = (id: string) => shipById(s, id)!;
  switch (action.kind) {
    case 'move':
      markUsed(s, action.ship, 'move');
      row(s, ship(action.ship), action, log, '');
      return;
    case 'command-move': {
      const sq = squadronById(s, s.activation!.squadron)!;
      for (const m of action.moves) {
        markUsed(s, m.ship, 'move');
        row(s, ship(m.ship), { kind: 'move', ...m }, log, `${sq.name} moves as a command: `);
      }
      return;
    }
    case 'backwater':
      markUsed(s, action.ship, 'backwater');
      backwater(s, ship(action.ship), log, '');
      return;
    case 'command-backwater': {
      const sq = squadronById(s, s.activation!.squadron)!;
      for (const id of action.ships) {
        markUsed(s, id, 'backwater');
        backwater(s, ship(id), log, `${sq.name} backs water as a command: `);
      }
      return;
    }
    case 'repair':
      markUsed(s, action.ship, 'repair');
      resolveRepair(s, ship(action.ship), log);
      return;
  }
  markUsed(s, action.ship, action.kind);
  const actor = ship(action.ship);
  const target = ship(action.target);
  switch (action.kind) {
    case 'ram': {
      const aspect = aspectBetween(actor, target);
      resolveRam(s, actor, target, aspect, null, log);
      // Neither sunk: the two stay locked in the ram, which later turns may follow up (see the README).
      const c = s.contacts.find((x) => x.attacker === actor.id && x.target === target.id);
      if (c) c.ram = { turn: s.turn, aspect };
      return;
    }
    case 'follow-up-ram': {
      const c = s.contacts.find((x) => x.ram && ((x.attacker === actor.id && x.target === target.id) || (x.attacker === target.id && x.target === actor.id)))!;
      resolveRam(s, ship(c.attacker), ship(c.target), c.ram!.aspect, actor, log);
      return;
    }
    case 'rake':
      resolveRake(s, actor, target, aspectBetween(actor, target), log);
      return;
    case 'grapple':
      resolveGrapple(s, actor, target, log);
      return;
    case 'degrapple':
      resolveDegrapple(s, actor, target, log);
      return;
    case 'board':
      resolveBoarding(s, actor, target, log);
      return;
  }
}

export function applyAction(state: State, side: string, action: Action, dice: Dice): Applied<State> {
  const refusal = check(state, side, action);
  if (refusal) return { ok: false, error: refusal };
  const s = structuredClone(state);
  const log = new BattleLog(dice);
  const sq = squadronById(s, s.activation!.squadron)!;
  if (action.kind !== 'end') {
    perform(s, action, log);
    noteLosses(s);
    checkVictory(s, log);
  }
  if (!s.outcome) {
    const points = s.activation!.points;
    if (action.kind === 'end') log.say(`${sq.name} ends its activation${points > 0 ? ` with ${plural(points, 'action')} unused` : ''}`);
    else if (points === 0) log.say(`${sq.name} has used its initiative`);
    else if (!canAct(s)) log.say(`${sq.name} has nothing more it can do`);
    if (action.kind === 'end' || points === 0 || !canAct(s)) drawNext(s, log, canAct);
  }
  return { ok: true, state: s, log: log.lines };
}
