/**
 * What the players see: whose turn it is, the board with each ship's marks (the counters of 1.8: squadron,
 * crew, flagship and commander, crippled, grappled, out of command…), and an action in words.
 */
import type { BoardView, Counter, Turn } from '../ruleset.ts';
import type { Action } from './actions.ts';
import { aspectWords } from './combat.ts';
import { aspectBetween } from './legal.ts';
import { type State, crewOf, engaged, heldByEnemy, inCommand, inRamContact, isGrappled, label, shipById, squadronById } from './state.ts';
import { facingName, hexName } from './words.ts';
import { plural } from '../../text/plural.ts';

export function turnOf(s: State): Turn {
  if (s.outcome || !s.activation) return { kind: 'over' };
  const sq = squadronById(s, s.activation.squadron)!;
  const n = s.activation.points;
  return { kind: 'side', side: sq.side, prompt: `Turn ${s.turn}: ${sq.name} (${sq.commander}) is activated, ${plural(n, 'action')} left` };
}

export function boardOf(s: State): BoardView {
  const counters: Counter[] = s.ships.map((ship) => {
    const sq = squadronById(s, ship.squadron);
    const flagship = s.squadrons.some((x) => x.flagship === ship.id);
    const marks: string[] = [];
    const crew = crewOf(ship);
    if (crew !== 'average') marks.push(crew);
    if (flagship) {
      const own = s.squadrons.find((x) => x.flagship === ship.id)!;
      const admiral = s.sides.some((x) => x.admiralSquadron === own.id);
      marks.push(admiral ? 'admiral' : 'flagship', `commander ${own.rating}`);
    }
    if (ship.crippled) marks.push(ship.permanentlyCrippled ? 'crippled for good' : 'crippled');
    if (heldByEnemy(ship)) marks.push('captured');
    else if (ship.captured) marks.push('recaptured');
    if (isGrappled(s, ship.id)) marks.push('grappled');
    if (inRamContact(s, ship.id)) marks.push('rammed');
    else if (engaged(s, ship.id)) marks.push('in contact');
    if (!ship.sunk && !inCommand(s, ship)) marks.push('out of command');
    if (ship.towers) marks.push(plural(ship.towers, 'tower'));
    if (ship.engines) marks.push(plural(ship.engines, 'engine'));
    if (ship.ironHands) marks.push('iron hands');
    return {
      id: ship.id,
      name: ship.name,
      side: ship.side,
      type: ship.type,
      hex: ship.hex,
      facing: ship.facing,
      marks,
      squadron: sq?.name ?? ship.squadron,
      flagship,
      sunk: ship.sunk,
    };
  });
  // Sunk galleys break up: Classis keeps no wrecks.
  return s.wind === null ? { sea: s.sea, counters, wrecks: [] } : { sea: s.sea, counters, wrecks: [], wind: s.wind };
}

export function describeAction(s: State, action: Action): string {
  const name = (id: string) => {
    const ship = shipById(s, id);
    return ship ? label(ship) : id;
  };
  const to = (path: readonly { q: number; r: number }[], facing: number) => {
    const last = path[path.length - 1];
    if (!last) return `turns to face ${facingName(facing as 0)}`;
    const there = s.ships.find((x) => !x.sunk && x.hex.q === last.q && x.hex.r === last.r);
    return there ? `rows ${path.length - 1} and engages ${label(there)}` : `rows to ${hexName(last)} facing ${facingName(facing as 0)}`;
  };
  switch (action.kind) {
    case 'end':
      return 'End the activation';
    case 'move':
      return `${name(action.ship)} ${to(action.path, action.facing)}`;
    case 'command-move':
      return `Command move: ${action.moves.map((m) => `${name(m.ship)} ${to(m.path, m.facing)}`).join('; ')}`;
    case 'backwater':
      return `${name(action.ship)} backs water`;
    case 'command-backwater':
      return `Command backwater: ${action.ships.map(name).join(', ')}`;
    case 'repair':
      return `${name(action.ship)} attempts repairs`;
    case 'ram':
    case 'rake': {
      const a = shipById(s, action.ship);
      const t = shipById(s, action.target);
      const where = a && t ? ` (${aspectWords(aspectBetween(a, t))})` : '';
      return `${name(action.ship)} ${action.kind === 'ram' ? 'rams' : 'rakes the oars of'} ${name(action.target)}${where}`;
    }
    case 'follow-up-ram':
      return `${name(action.ship)} follows up the ram with ${name(action.target)}`;
    case 'grapple':
      return `${name(action.ship)} tries to grapple ${name(action.target)}`;
    case 'degrapple':
      return `${name(action.ship)} tries to cut free of ${name(action.target)}`;
    case 'board':
      return `${name(action.ship)} boards ${name(action.target)}`;
  }
}
