/**
 * The Diadochi Naval Rules as a Ruleset: secret initial plotting, then player turns in the order the dice gave
 * (command rolls and movement, missile fire, close combat), until a side has lost a third of its combat value
 * (flagships double) or the scenario's turns run out.
 */
import type { Dice } from '../dice.ts';
import type { Applied, LogLine, Outcome, Refusal, Ruleset, SideInfo, Turn } from '../ruleset.ts';
import { TOUCH, onTable as baseOnTable, checkPath, rigidPath } from '../table/index.ts';
import { type Action, ActionSchema } from './actions.ts';
import { candidateOrders, combatChoices, defaultFire } from './choices.ts';
import { applyClose, cripple, missileVictim, rollAttack } from './combat.ts';
import { BattleLog } from '../battle-log.ts';
import { cables } from './log.ts';
import { type Plan, carryOut, commandRating, forcedMove, planOrder } from './movement.ts';
import { opponent } from './opponent.ts';
import { closestTargets, contactForward, enemiesInContactForward, obstaclesFor } from './positions.ts';
import { RULES } from './rules.ts';
import { type Setup, SetupSchema } from './setup.ts';
import { type ShipState, type State, StateSchema, afloat, baseOf, combatValue, enemyOf, shipById, sideName, valueLost } from './state.ts';
import { boardOf } from './view.ts';
import { checkDeploy } from './deployment.ts';

function start(setup: Setup, dice: Dice): { state: State; log: LogLine[] } {
  const ships: ShipState[] = setup.ships.map((s) => ({
    id: s.id,
    name: s.name,
    side: setup.squadrons.find((q) => q.id === s.squadron)?.side ?? '',
    squadron: s.squadron,
    type: s.type,
    x: s.x,
    y: s.y,
    heading: s.heading,
    status: 'afloat',
    crippled: false,
    capturedBy: null,
    outOfFormation: false,
    grappledWith: null,
    ordered: false,
    lostAsFlagship: false,
  }));
  const startValue: Record<string, number> = {};
  for (const side of setup.sides)
    startValue[side.id] = ships
      .filter((s) => s.side === side.id)
      .reduce((n, s) => n + combatValue(s) * (setup.squadrons.some((q) => q.flagship === s.id) ? RULES.victory.flagshipWeight : 1), 0);
  const state: State = {
    title: setup.title,
    source: setup.source,
    table: setup.table,
    sides: setup.sides.map((s) => ({ ...s })),
    squadrons: setup.squadrons.map((q) => ({ id: q.id, side: q.side, name: q.name, rating: q.rating, flagship: q.flagship, halted: false })),
    ships,
    zones: setup.zones,
    turn: 1,
    turnLimit: setup.turnLimit,
    lossFraction: setup.lossFraction,
    victory: setup.victory,
    stage: 'deploy',
    active: setup.sides[0].id,
    first: setup.first,
    phaseStart: {},
    deployments: {},
    deployed: [],
    startValue,
    rolls: 0,
    outcome: null,
  };
  const log = new BattleLog(dice, 0);
  log.line(
    `${setup.title}${setup.source ? ` (${setup.source})` : ''}: a table ${setup.table.width} by ${setup.table.depth} cables, ${setup.turnLimit} turns at most.`,
  );
  for (const side of setup.sides) {
    const squadrons = state.squadrons.filter((q) => q.side === side.id);
    const words = squadrons.map((q) => {
      const own = ships.filter((s) => s.squadron === q.id);
      const flag = own.find((s) => s.id === q.flagship);
      return `${q.name} (command rating ${q.rating}, flagship ${flag?.name}; ${own.length} ships: ${own.map((s) => `${s.name} ${RULES.shipTypes[s.type].name}`).join(', ')})`;
    });
    const breakAt = Math.ceil(startValue[side.id] * setup.lossFraction - 1e-9);
    log.line(
      `${side.name}, from the ${side.home} edge: ${words.join('; ')}. Combat value ${startValue[side.id]} (flagships double); it breaks on losing ${breakAt}.`,
    );
  }
  if (setup.victory) log.line(`Victory: ${setup.victory}`);
  log.line('Both sides plot their initial positions in secret.');
  return { state, log: log.lines };
}

// ---------- whose turn, and what it waits for

function turnOf(state: State): Turn {
  if (state.stage === 'over') return { kind: 'over' };
  if (state.stage === 'deploy') {
    const sides = state.sides.map((s) => s.id);
    return {
      kind: 'simultaneous',
      sides,
      waiting: sides.filter((s) => !state.deployed.includes(s)),
      prompt: 'Plot your squadrons\u2019 initial positions in secret',
    };
  }
  const name = sideName(state, state.active);
  const prompt =
    state.stage === 'orders'
      ? `Turn ${state.turn}: ${name}'s movement phase — order ships and groups (a command roll each), then end the movement`
      : state.stage === 'fire'
        ? `Turn ${state.turn}: ${name}'s missile fire`
        : `Turn ${state.turn}: ${name}'s close combat`;
  return { kind: 'side', side: state.active, prompt };
}

// ---------- the phases

function mustAttack(state: State, ship: ShipState): boolean {
  if (!afloat(ship) || ship.crippled) return false;
  if (ship.grappledWith) {
    const partner = shipById(state, ship.grappledWith);
    return partner !== undefined && afloat(partner) && !partner.crippled;
  }
  return enemiesInContactForward(state, ship).some((e) => !e.crippled);
}

/** Ships of the side that may make a close attack now (on anyone), and those that must. */
function mayAttack(state: State, ship: ShipState): boolean {
  if (!afloat(ship) || ship.crippled) return false;
  if (ship.grappledWith) return true;
  return enemiesInContactForward(state, ship).length > 0;
}

const anyFire = (state: State, side: string) => state.ships.some((s) => s.side === side && closestTargets(state, s).length > 0);
const anyCombat = (state: State, side: string) => state.ships.some((s) => s.side === side && mayAttack(state, s));
const canBeOrdered = (state: State, side: string) =>
  state.ships.some(
    (s) => s.side === side && afloat(s) && !s.crippled && !s.grappledWith && !s.ordered && !state.squadrons.find((q) => q.id === s.squadron)?.halted,
  );

/** Begins a side's player turn: its prizes are towed, the phase's start is noted, and empty phases are passed. */
function beginPlayerTurn(state: State, side: string, log: BattleLog): void {
  state.active = side;
  for (const q of state.squadrons) if (q.side === side) q.halted = false;
  for (const s of state.ships) if (s.side === side) s.ordered = false;
  towPrizes(state, side, log);
  state.phaseStart = {};
  for (const s of state.ships) if (afloat(s)) state.phaseStart[s.id] = { x: s.x, y: s.y, heading: s.heading, outOfFormation: s.outOfFormation };
  state.stage = 'orders';
  log.line(`Turn ${state.turn}: ${sideName(state, side)}'s player turn.`);
  if (!canBeOrdered(state, side)) advance(state, log);
}

/** The captor's prizes drift 2 cables straight towards its edge, as far as they can; off the table they are safe. */
function towPrizes(state: State, side: string, log: BattleLog): void {
  const home = state.sides.find((s) => s.id === side)?.home ?? 'south';
  for (const prize of state.ships.filter((s) => s.status === 'captured' && s.capturedBy === side)) {
    const b = baseOf(prize);
    const toward = home === 'north' ? 0 : 180;
    // Tow as a slant off the prize's heading so that it keeps its heading.
    const path = rigidPath([b], [{ kind: 'oblique', degrees: toward - b.heading, distance: RULES.movement.captureDrift }]);
    const clear = checkPath(state.table, path, obstaclesFor(state, new Set([prize.id])), { offTable: true });
    const frames = clear.ok ? path.frames : path.frames.slice(0, clear.frame);
    const end = frames[frames.length - 1][0];
    const moved = Math.hypot(end.x - b.x, end.y - b.y);
    prize.x = end.x;
    prize.y = end.y;
    if (!baseOnTable(state.table, end)) {
      prize.status = 'sunk';
      log.line(`${prize.name}, a prize of ${sideName(state, side)}, is towed off the table ${home}wards, out of the battle.`);
    } else if (moved > TOUCH) log.line(`${prize.name}, a prize of ${sideName(state, side)}, drifts ${cables(moved)} towards the ${home} edge.`);
  }
}

/** Moves to the next phase with something to do, or the next player turn. */
function advance(state: State, log: BattleLog): void {
  if (state.outcome) return;
  const side = state.active;
  if (state.stage === 'orders') {
    state.stage = 'fire';
    if (anyFire(state, side)) return;
  }
  if (state.stage === 'fire') {
    state.stage = 'combat';
    if (anyCombat(state, side)) return;
  }
  // The player turn is over.
  const first = state.first ?? state.sides[0].id;
  if (side === first) {
    beginPlayerTurn(state, enemyOf(state, side), log);
    return;
  }
  if (state.turn >= state.turnLimit) {
    endByTurns(state, log);
    return;
  }
  state.turn++;
  beginPlayerTurn(state, first, log);
}

function lossShare(state: State, side: string): number {
  return state.startValue[side] > 0 ? valueLost(state, side) / state.startValue[side] : 0;
}

/** Ends the battle if a side has lost its third (the larger share loses if both have). */
function checkVictory(state: State, log: BattleLog): void {
  if (state.outcome) return;
  const [a, b] = state.sides.map((s) => s.id);
  const broken = (s: string) => lossShare(state, s) >= state.lossFraction - 1e-9;
  const words = (s: string) => `${sideName(state, s)} has lost ${valueLost(state, s)} of ${state.startValue[s]}`;
  if (!broken(a) && !broken(b)) return;
  let winner: string | null;
  if (broken(a) && broken(b)) winner = lossShare(state, a) === lossShare(state, b) ? null : lossShare(state, a) < lossShare(state, b) ? a : b;
  else winner = broken(a) ? b : a;
  const reason = `${words(a)}, ${words(b)} (a side breaks at ${Math.round(state.lossFraction * 100)} %, flagships counted double)`;
  state.outcome = { winner, reason: winner ? `${sideName(state, winner)} wins: ${reason}.` : `Both break together: ${reason}.` };
  state.stage = 'over';
  log.line(state.outcome.reason);
}

function endByTurns(state: State, log: BattleLog): void {
  const [a, b] = state.sides.map((s) => s.id);
  const la = lossShare(state, a);
  const lb = lossShare(state, b);
  const winner = la === lb ? null : la < lb ? a : b;
  const share = (s: string, l: number) => `${sideName(state, s)} lost ${Math.round(l * 100)} %`;
  const reason = `after ${state.turnLimit} turns ${share(a, la)} and ${share(b, lb)} of its combat value`;
  state.outcome = { winner, reason: winner ? `${sideName(state, winner)} wins on losses ${reason}.` : `A draw: ${reason}.` };
  state.stage = 'over';
  log.line(state.outcome.reason);
}

// ---------- checks

function checkFire(state: State, side: string, attacks: Extract<Action, { kind: 'fire' }>['attacks']): Refusal | null {
  const firing = new Set<string>();
  const targets = new Set<string>();
  for (const a of attacks) {
    const ship = shipById(state, a.ship);
    if (!ship || ship.side !== side) return { code: 'not_your_ship', message: `${a.ship} is not a ship of this side.` };
    if (firing.has(ship.id)) return { code: 'fires_twice', message: `${ship.name} fires once.` };
    firing.add(ship.id);
    const closest = closestTargets(state, ship);
    if (!closest.length)
      return {
        code: 'cannot_fire',
        message: `${ship.name} has no target it may fire on (within ${RULES.missileRange} cables, forward, in sight, not held by a friend, and no enemy at its bow).`,
      };
    if (!closest.some((t) => t.id === a.target))
      return { code: 'not_closest', message: `${ship.name} must fire on the closest target: ${closest.map((t) => t.name).join(' or ')}.` };
    if (targets.has(a.target)) return { code: 'target_twice', message: `An enemy ship may be fired on by only one ship; the others support.` };
    targets.add(a.target);
  }
  return null;
}

function checkCombat(state: State, side: string, attacks: Extract<Action, { kind: 'combat' }>['attacks']): Refusal | null {
  const attackers = new Set<string>();
  const targets = new Set<string>();
  for (const a of attacks) {
    const ship = shipById(state, a.ship);
    const target = shipById(state, a.target);
    if (!ship || ship.side !== side) return { code: 'not_your_ship', message: `${a.ship} is not a ship of this side.` };
    if (!target || target.side === side || !afloat(target)) return { code: 'bad_target', message: `${a.target} is not an enemy ship afloat.` };
    if (!mayAttack(state, ship)) return { code: 'cannot_attack', message: `${ship.name} may not attack (crippled, or no enemy at its bow).` };
    if (attackers.has(ship.id)) return { code: 'attacks_twice', message: `${ship.name} attacks once.` };
    attackers.add(ship.id);
    if (targets.has(target.id)) return { code: 'target_twice', message: `${target.name} is attacked by one ship; the others in contact support.` };
    targets.add(target.id);
    if (ship.grappledWith) {
      if (ship.grappledWith !== target.id)
        return { code: 'grappled', message: `${ship.name} is grappled to ${shipById(state, ship.grappledWith)?.name}: it attacks that ship.` };
      if (a.attack !== 'board' && a.attack !== 'disengage')
        return { code: 'grappled', message: `${ship.name} is grappled: it must board or try to disengage.` };
    } else {
      if (!contactForward(ship, target)) return { code: 'not_in_contact', message: `${target.name} is not in contact with ${ship.name}'s bow.` };
      if (a.attack === 'disengage') return { code: 'not_grappled', message: `${ship.name} is not grappled: there is nothing to disengage from.` };
    }
  }
  // Every ship that must attack does, or supports an attack on an enemy at its bow.
  for (const ship of state.ships.filter((s) => s.side === side && mustAttack(state, s) && !attackers.has(s.id))) {
    const supports = !ship.grappledWith && enemiesInContactForward(state, ship).some((e) => targets.has(e.id));
    if (!supports)
      return {
        code: 'must_attack',
        message: ship.grappledWith
          ? `${ship.name} is grappled and must board or try to disengage.`
          : `${ship.name} has an enemy at its bow and must attack it (ram, rake or board) or support an attack on it.`,
      };
  }
  return null;
}

function check(state: State, side: string, action: Action): Refusal | null {
  if (state.stage === 'over') return { code: 'battle_over', message: 'The battle is over.' };
  if (!state.sides.some((s) => s.id === side)) return { code: 'no_such_side', message: `There is no side ${side} in this battle.` };
  if (action.kind === 'deploy') {
    if (state.stage !== 'deploy') return { code: 'not_now', message: 'Deployment is over.' };
    if (state.deployed.includes(side)) return { code: 'already_deployed', message: 'This side has already plotted its positions.' };
    return checkDeploy(state, side, action.placements);
  }
  if (state.stage === 'deploy') return { code: 'not_now', message: 'Both sides plot their positions first.' };
  if (state.active !== side) return { code: 'not_your_turn', message: `It is ${sideName(state, state.active)}'s player turn.` };
  const stageOf = { order: 'orders', 'end-movement': 'orders', fire: 'fire', combat: 'combat' } as const;
  if (stageOf[action.kind] !== state.stage)
    return {
      code: 'not_now',
      message: `That is not done now: this is the ${state.stage === 'orders' ? 'movement' : state.stage === 'fire' ? 'missile fire' : 'close combat'} phase.`,
    };
  if (action.kind === 'order') {
    const planned = planOrder(state, side, action.ships, action.formation, action.move);
    return planned.ok ? null : planned.refusal;
  }
  if (action.kind === 'fire') return checkFire(state, side, action.attacks);
  if (action.kind === 'combat') return checkCombat(state, side, action.attacks);
  return null;
}

// ---------- apply

function applyDeploy(state: State, side: string, action: Extract<Action, { kind: 'deploy' }>, log: BattleLog): void {
  state.deployments[side] = action.placements.map((p) => ({ ship: p.ship, x: p.x, y: p.y, heading: p.heading }));
  state.deployed.push(side);
  log.line(`${sideName(state, side)} hands in its plot of initial positions.`);
  if (state.deployed.length < state.sides.length) return;
  for (const list of Object.values(state.deployments))
    for (const p of list) {
      const ship = shipById(state, p.ship);
      if (ship) Object.assign(ship, { x: p.x, y: p.y, heading: p.heading });
    }
  state.deployments = {};
  log.line('Both plots are revealed and the ships placed.');
  let first = state.first;
  if (first === null) {
    const [a, b] = state.sides;
    for (let n = 0; n < 20 && first === null; n++) {
      const ra = log.roll(`${a.name} for first move`);
      const rb = log.roll(`${b.name} for first move`);
      if (ra !== rb) first = ra > rb ? a.id : b.id;
      log.line(
        ra === rb
          ? `Dice for first move: ${a.name} ${ra}, ${b.name} ${rb}: a tie, again.`
          : `Dice for first move: ${a.name} ${ra}, ${b.name} ${rb}: ${sideName(state, first ?? a.id)} moves first.`,
      );
    }
    state.first = first ?? a.id;
  } else log.line(`${sideName(state, first)} moves first, as the scenario says.`);
  beginPlayerTurn(state, state.first ?? state.sides[0].id, log);
}

function describeOrder(state: State, action: Extract<Action, { kind: 'order' }>): string {
  const names = action.ships.map((id) => shipById(state, id)?.name ?? id);
  const who = action.formation === 'single' ? names[0] : `${action.formation === 'abreast' ? 'the line abreast' : 'the line ahead'} ${names.join(', ')}`;
  const m = action.move;
  if (m.kind === 'change') return `${who}: change formation, turning 90° ${m.degrees > 0 ? 'right' : 'left'}`;
  if (m.kind === 'reform') return `${who}: reform`;
  const legs = m.legs.map((l) => {
    if (l.kind === 'ahead') return `ahead ${cables(l.distance)}`;
    if (l.kind === 'back') return `back ${cables(l.distance)}`;
    if (l.kind === 'oblique') return `${cables(l.distance)} at ${Math.abs(l.degrees)}° ${l.degrees >= 0 ? 'right' : 'left'}`;
    if (l.kind === 'turn') return `turn ${Math.abs(Math.round(l.degrees))}° ${l.degrees >= 0 ? 'right' : 'left'}`;
    return `wheel ${Math.abs(Math.round(l.degrees))}° ${l.degrees >= 0 ? 'right' : 'left'}`;
  });
  return `${who}: ${legs.join(', ')}${m.charge ? ', to contact' : ''}`;
}

function applyOrder(state: State, side: string, action: Extract<Action, { kind: 'order' }>, log: BattleLog): void {
  const planned = planOrder(state, side, action.ships, action.formation, action.move);
  if (!planned.ok) return;
  const plan = planned.plan;
  const squadron = state.squadrons.find((q) => q.id === plan.ships[0].squadron);
  const { rating, parts } = commandRating(state, plan.ships);
  const roll = log.roll(`${squadron?.name ?? 'squadron'} command`, RULES.command.die);
  for (const s of plan.ships) s.ordered = true;
  const order = describeOrder(state, action);
  const against = `rolled ${roll} against ${rating}${parts.length > 1 ? ` (${parts.join(', ')})` : ''}`;
  if (roll === RULES.command.blunderOn) {
    log.line(`${order}: command ${against}: a blunder!`, { name: 'Command', row: `${roll}: blunder` });
    blunder(state, plan, log);
    return;
  }
  if (roll > rating) {
    log.line(`${order}: command ${against}: the order is not obeyed, and they stay where they are.`, { name: 'Command', row: `${roll} > ${rating}: fails` });
    return;
  }
  carryOut(state, plan);
  const contact = plan.contact ? ` and contacts ${shipById(state, plan.contact)?.name}` : '';
  const what = plan.reform ? ': they form up again' : plan.outOfFormation ? ': done, and the long ships fall out of formation for a turn' : `: done${contact}`;
  log.line(`${order}: command ${against}${what}.`, { name: 'Command', row: `${roll} ≤ ${rating}: obeyed` });
}

function blunder(state: State, plan: Plan, log: BattleLog): void {
  const roll = log.roll('blunder table');
  const row = RULES.blunders[roll - 1];
  const effect = plan.formation === 'single' ? row.single : plan.formation === 'abreast' ? row.lineAbreast : row.lineAhead;
  const table = { name: 'Blunder table', row: `${roll}: ${row.text}` };
  const names = plan.ships.map((s) => s.name).join(', ');
  if (effect === 'halt-squadron') {
    const squadron = state.squadrons.find((q) => q.id === plan.ships[0].squadron);
    if (squadron) squadron.halted = true;
    log.line(`Blunder ${roll}: ${squadron?.name} may issue no further orders this turn.`, table);
    return;
  }
  if (effect === 'out-of-formation') {
    if (plan.formation === 'single') log.line(`Blunder ${roll}: ${names} is a single ship, with no formation to fall out of; it stays put.`, table);
    else {
      for (const s of plan.ships) s.outOfFormation = true;
      log.line(`Blunder ${roll}: ${names} fall out of formation.`, table);
    }
    return;
  }
  const forced = forcedMove(state, plan.ships, plan.formation, effect);
  const words = {
    back: 'back straight',
    'turn-away': 'turn away from the nearest enemy',
    'full-ahead': 'go full speed straight ahead',
    'towards-enemy': 'go full speed towards the nearest enemy',
  }[effect as 'back' | 'turn-away' | 'full-ahead' | 'towards-enemy'];
  if (!forced) {
    log.line(`Blunder ${roll}: ${names} would ${words}, but there is no enemy to steer by; they stay put.`, table);
    return;
  }
  const before = forced.ships.map((s) => ({ x: s.x, y: s.y }));
  carryOut(state, forced);
  const moved = Math.max(...forced.ships.map((s, i) => Math.hypot(s.x - before[i].x, s.y - before[i].y)));
  const contact = forced.contact ? `, into contact with ${shipById(state, forced.contact)?.name}` : '';
  log.line(`Blunder ${roll}: ${names} ${words} (${cables(moved)} as far as the way is clear${contact}).`, table);
}

function applyFire(state: State, side: string, action: Extract<Action, { kind: 'fire' }>, log: BattleLog): void {
  // Who may support what: the ships able to fire that do not fire, each on one attack whose target is among its closest.
  const firers = new Set(action.attacks.map((a) => a.ship));
  const eligible = state.ships.filter((s) => s.side === side && !firers.has(s.id) && closestTargets(state, s).length > 0);
  const closest = new Map(eligible.map((s) => [s.id, closestTargets(state, s).map((t) => t.id)]));
  const used = new Set<string>();
  const plans = action.attacks.map((a) => {
    const supporters = eligible.filter((s) => !used.has(s.id) && closest.get(s.id)?.includes(a.target));
    for (const s of supporters) used.add(s.id);
    return { ...a, supporters };
  });
  if (plans.length === 0) log.line(`${sideName(state, side)} holds its missile fire.`);
  for (const a of plans) {
    const ship = shipById(state, a.ship);
    const target = shipById(state, a.target);
    if (!ship || !target || !afloat(ship) || !afloat(target) || ship.crippled) continue;
    const r = rollAttack(state, ship, target, 'missile', a.supporters, log);
    if (r.result.on === 'defender') cripple(state, target, log);
    else if (r.result.on === 'attacker') {
      const victim = missileVictim(target, ship, a.supporters);
      if (victim) cripple(state, victim, log);
      else log.line(`${target.name} has none of its attackers in its arc and can do them no harm.`);
    }
  }
  checkVictory(state, log);
}

function applyCombat(state: State, side: string, action: Extract<Action, { kind: 'combat' }>, log: BattleLog): void {
  const attackers = new Set(action.attacks.map((a) => a.ship));
  const used = new Set<string>();
  if (action.attacks.length === 0) log.line(`${sideName(state, side)} makes no close attack.`);
  for (const a of action.attacks) {
    const ship = shipById(state, a.ship);
    const target = shipById(state, a.target);
    if (!ship || !target || !afloat(ship) || !afloat(target)) continue;
    if (ship.crippled) {
      log.line(`${ship.name}, crippled earlier this phase, cannot attack.`);
      continue;
    }
    const supporters =
      a.attack === 'disengage'
        ? []
        : state.ships.filter(
            (s) => s.side === side && !attackers.has(s.id) && !used.has(s.id) && afloat(s) && !s.crippled && !s.grappledWith && contactForward(s, target),
          );
    for (const s of supporters) used.add(s.id);
    const r = rollAttack(state, ship, target, a.attack, supporters, log);
    applyClose(state, ship, target, a.attack, r.result, log);
  }
  checkVictory(state, log);
}

function apply(input: State, side: string, action: Action, dice: Dice): Applied<State> {
  const refusal = check(input, side, action);
  if (refusal) return { ok: false, error: refusal };
  const log = new BattleLog(dice, input.rolls);
  const state: State = structuredClone(input);
  if (action.kind === 'deploy') applyDeploy(state, side, action, log);
  else if (action.kind === 'order') {
    applyOrder(state, side, action, log);
    if (!canBeOrdered(state, side)) advance(state, log);
  } else if (action.kind === 'end-movement') {
    log.line(`${sideName(state, side)} ends its movement.`);
    advance(state, log);
  } else if (action.kind === 'fire') {
    applyFire(state, side, action, log);
    advance(state, log);
  } else {
    applyCombat(state, side, action, log);
    advance(state, log);
  }
  state.rolls = log.rolls;
  return { ok: true, state, log: log.lines };
}

// ---------- legal actions

function legalActions(state: State, side: string): Action[] {
  if (state.stage === 'over') return [];
  if (state.stage === 'deploy') {
    if (state.deployed.includes(side)) return [];
    const own = state.ships.filter((s) => s.side === side);
    return [{ kind: 'deploy', placements: own.map((s) => ({ ship: s.id, x: s.x, y: s.y, heading: s.heading })) }];
  }
  if (state.active !== side) return [];
  if (state.stage === 'orders') return [...candidateOrders(state, side).filter((a) => check(state, side, a) === null), { kind: 'end-movement' }];
  if (state.stage === 'fire') return [defaultFire(state, side), { kind: 'fire', attacks: [] }];
  return combatChoices(state, side).filter((a) => check(state, side, a) === null);
}

function redact(state: State, viewer: string | null): State {
  const deployments: State['deployments'] = {};
  if (viewer !== null && state.deployments[viewer]) deployments[viewer] = state.deployments[viewer];
  return { ...state, deployments };
}

function describe(state: State, action: Action): string {
  switch (action.kind) {
    case 'deploy':
      return `plots the positions of ${action.placements.length} ships`;
    case 'order':
      return describeOrder(state, action);
    case 'end-movement':
      return 'ends the movement phase';
    case 'fire':
      return action.attacks.length
        ? action.attacks.map((a) => `${shipById(state, a.ship)?.name ?? a.ship} fires on ${shipById(state, a.target)?.name ?? a.target}`).join('; ')
        : 'holds fire';
    case 'combat':
      return action.attacks.length
        ? action.attacks
            .map(
              (a) =>
                `${shipById(state, a.ship)?.name ?? a.ship} ${a.attack === 'disengage' ? 'tries to disengage from' : `${a.attack}s`} ${shipById(state, a.target)?.name ?? a.target}`,
            )
            .join('; ')
        : 'makes no attack';
  }
}

const sidesOf = (setup: Setup): SideInfo[] => setup.sides.map((s) => ({ id: s.id, name: s.name }));

export const diadochiNaval: Ruleset<Setup, State, Action> = {
  id: 'diadochi-naval',
  title: 'Diadochi Naval Rules (W. L. Greene, 2018)',
  setupSchema: SetupSchema,
  actionSchema: ActionSchema,
  stateSchema: StateSchema,
  sides: sidesOf,
  start,
  turn: turnOf,
  legalActions,
  check,
  apply,
  outcome: (state: State): Outcome | null => state.outcome,
  redact,
  board: boardOf,
  describe,
  // Each phase of each player turn is one decision; deployment is one for both sides.
  decision: (state: State): string => (state.stage === 'deploy' ? 'deploy' : `turn ${state.turn}, ${state.active}, ${state.stage}`),
  opponent,
};
