/**
 * The ship-to-ship rules of 2007 as a Ruleset: secret simultaneous plotting, the turn resolved inside the
 * `apply` of the last side to plot, and the repulsed boarders' choice asked of the defender between turns.
 */
import type { Dice } from '../dice.ts';
import type { Applied, BoardView, Counter, LogLine, Outcome, Refusal, Ruleset, SideInfo, Turn } from '../ruleset.ts';
import { type Action, ActionSchema } from './actions.ts';
import { BattleLog } from '../battle-log.ts';
import { opponent } from './opponent.ts';
import { checkShipPlot, legalPlots } from './plot.ts';
import { resolveTurn } from './resolve.ts';
import { RULES } from './rules.ts';
import { type Setup, SetupSchema } from './setup.ts';
import { type ShipPlot, type ShipState, type State, StateSchema, active, fightOf, statsOf } from './state.ts';
import { facingName, hexName, shipName } from './words.ts';
import { plural } from '../../text/plural.ts';

function start(setup: Setup, dice: Dice): { state: State; log: LogLine[] } {
  const ships: ShipState[] = setup.ships.map((s) => {
    const crew = RULES.shipTypes[s.type].crews[s.nation];
    // The set-up schema refuses a ship its nation does not have; an empty crew only if the table says so.
    const c = crew ?? { marines: { class: 'medium' as const, count: 0 }, bows: 0, catapults: 0, stoneThrowers: 0 };
    return {
      id: s.id,
      name: s.name,
      side: s.side,
      type: s.type,
      nation: s.nation,
      crew: s.crew,
      corvus: s.corvus,
      hex: { ...s.hex },
      facing: s.facing as ShipState['facing'],
      status: 'afloat',
      speed: s.speed,
      wentMax: false,
      maxTurnsUsed: 0,
      sinceTurn: 10,
      damage: 0,
      holes: 0,
      plugged: 0,
      marines: { light: 0, medium: 0, heavy: 0, [c.marines.class]: c.marines.count },
      bows: c.bows,
      catapults: c.catapults,
      stoneThrowers: c.stoneThrowers,
      raked: 0,
      rakedBy: [],
      afterRam: 'none',
      pivot: 'none',
      takenBy: null,
    };
  });
  const startHull: Record<string, number> = {};
  for (const side of setup.sides) startHull[side.id] = ships.filter((s) => s.side === side.id).reduce((n, s) => n + statsOf(s).hull, 0);
  const state: State = {
    title: setup.title,
    sides: setup.sides.map((s) => ({ ...s })),
    sea: setup.sea,
    turn: 1,
    turnLimit: setup.turnLimit,
    breakBelow: setup.breakBelow,
    stage: 'plot',
    ships,
    wrecks: [],
    fights: [],
    repulses: [],
    plots: {},
    plotted: [],
    startHull,
    rolls: 0,
    outcome: null,
  };
  const log = new BattleLog(dice, 0);
  log.line(`${setup.title}${setup.source ? ` (${setup.source})` : ''}: ${setup.turnLimit} turns at most.`);
  for (const side of setup.sides) {
    const fleet = ships
      .filter((s) => s.side === side.id)
      .map((s) => `${shipName(s)} (${s.crew} crew${s.corvus ? ', corvus' : ''}) at ${hexName(s.hex)} facing ${facingName(s.facing)}`);
    log.line(`${side.name}: ${fleet.join('; ')}.`);
  }
  return { state, log: log.lines };
}

/** The sides that still plot: those with a ship afloat. */
const plottingSides = (state: State): string[] => state.sides.filter((s) => state.ships.some((ship) => ship.side === s.id && active(ship))).map((s) => s.id);

function turnOf(state: State): Turn {
  if (state.stage === 'over') return { kind: 'over' };
  if (state.stage === 'repulse') {
    const fight = state.repulses[0];
    const defender = state.ships.find((s) => s.id === fight.defender);
    const attacker = state.ships.find((s) => s.id === fight.attacker);
    return {
      kind: 'side',
      side: defender?.side ?? '',
      prompt: `${defender?.name} threw back ${attacker?.name}'s boarders: cut the grapples or counter-board ${attacker?.name}?`,
    };
  }
  const sides = plottingSides(state);
  return {
    kind: 'simultaneous',
    sides,
    waiting: sides.filter((s) => !state.plotted.includes(s)),
    prompt: `Turn ${state.turn} of ${state.turnLimit}: plot every ship's move, fire and boarding orders`,
  };
}

function legalActions(state: State, side: string): Action[] {
  const t = turnOf(state);
  if (t.kind === 'side' && t.side === side) {
    const ship = state.repulses[0].defender;
    return [
      { kind: 'repulse', ship, choice: 'cut' },
      { kind: 'repulse', ship, choice: 'counter-board' },
    ];
  }
  if (t.kind !== 'simultaneous' || !t.waiting.includes(side)) return [];
  return state.ships.filter((s) => s.side === side && active(s)).flatMap((ship) => legalPlots(state, ship).map((p): Action => ({ kind: 'plot', plots: [p] })));
}

function check(state: State, side: string, action: Action): Refusal | null {
  if (state.stage === 'over') return { code: 'battle_over', message: 'The battle is over.' };
  if (!state.sides.some((s) => s.id === side)) return { code: 'no_such_side', message: `There is no side ${side} in this battle.` };
  const t = turnOf(state);
  if (action.kind === 'repulse') {
    if (t.kind !== 'side') return { code: 'not_now', message: 'No repulsed boarders wait for a choice now.' };
    if (t.side !== side) return { code: 'not_your_turn', message: 'The other side chooses what its repulsing ship does.' };
    if (action.ship !== state.repulses[0].defender)
      return { code: 'wrong_ship', message: `The choice is ${state.repulses[0].defender}'s, not ${action.ship}'s.` };
    return null;
  }
  if (t.kind !== 'simultaneous') return { code: 'not_now', message: 'Plots are not taken now: a repulsed boarding waits for its defender.' };
  if (!t.sides.includes(side)) return { code: 'no_ships', message: 'This side has no ship afloat to plot.' };
  if (!t.waiting.includes(side)) return { code: 'already_plotted', message: `This side has already plotted turn ${state.turn}.` };
  const ships = state.ships.filter((s) => s.side === side && active(s));
  const seen = new Set<string>();
  for (const plot of action.plots) {
    const ship = ships.find((s) => s.id === plot.ship);
    if (!ship) return { code: 'not_your_ship', message: `${plot.ship} is not a ship of this side afloat.` };
    if (seen.has(ship.id)) return { code: 'plotted_twice', message: `${ship.name} is plotted twice.` };
    seen.add(ship.id);
    const refusal = checkShipPlot(state, ship, plot);
    if (refusal) return refusal;
  }
  const missing = ships.filter((s) => !seen.has(s.id));
  if (missing.length)
    return {
      code: 'unplotted_ship',
      message: `Every ship must be plotted: ${missing.map((s) => s.name).join(', ')} ${missing.length === 1 ? 'has' : 'have'} no plot.`,
    };
  return null;
}

function apply(input: State, side: string, action: Action, dice: Dice): Applied<State> {
  const refusal = check(input, side, action);
  if (refusal) return { ok: false, error: refusal };
  const log = new BattleLog(dice, input.rolls);
  let state: State = structuredClone(input);
  const sideName = state.sides.find((s) => s.id === side)?.name ?? side;
  if (action.kind === 'repulse') {
    const fight = state.repulses.shift();
    if (!fight) return { ok: false, error: { code: 'not_now', message: 'No repulsed boarders wait for a choice now.' } };
    const defender = state.ships.find((s) => s.id === fight.defender);
    const attacker = state.ships.find((s) => s.id === fight.attacker);
    if (action.choice === 'cut') {
      for (const s of [defender, attacker]) if (s) s.pivot = 'any';
      log.line(`${defender?.name} cuts the grapples: ${attacker?.name} and ${defender?.name} are free to move off next turn from a standstill.`);
    } else {
      state.fights.push({ attacker: fight.defender, defender: fight.attacker, rounds: fight.rounds });
      log.line(`${defender?.name} counter-boards ${attacker?.name}: the fight goes on with ${defender?.name}'s marines attacking.`);
    }
    if (state.repulses.length === 0) state.stage = 'plot';
  } else {
    state.plots[side] = action.plots;
    state.plotted.push(side);
    log.line(`${sideName} hands in its plot for turn ${state.turn}.`);
    const t = turnOf(state);
    if (t.kind === 'simultaneous' && t.waiting.length === 0) state = resolveTurn(state, log);
  }
  state.rolls = log.rolls;
  return { ok: true, state, log: log.lines };
}

function redact(state: State, viewer: string | null): State {
  const plots: State['plots'] = {};
  if (viewer !== null && state.plots[viewer]) plots[viewer] = state.plots[viewer];
  return { ...state, plots };
}

function marksOf(state: State, s: ShipState): string[] {
  const stats = statsOf(s);
  const marks: string[] = [`${s.crew} crew`];
  if (s.corvus) marks.push('corvus');
  if (s.status === 'surrendered') marks.push(`surrendered to ${state.sides.find((x) => x.id === s.takenBy)?.name ?? s.takenBy}`);
  if (s.status === 'sunk') marks.push('sunk');
  if (s.damage) marks.push(`damage ${s.damage}/${stats.hull}`);
  if (s.holes) marks.push(plural(s.holes, 'open hole'));
  if (s.plugged) marks.push(`${s.plugged} plugged`);
  const fight = fightOf(state, s.id);
  if (fight) marks.push(fight.attacker === s.id ? 'grappled, boarding' : 'grappled, boarded');
  if (s.raked) marks.push(s.raked === 1 ? 'oars raked' : `oars raked ${s.raked}×`);
  const crew = [
    ...(['heavy', 'medium', 'light'] as const).filter((c) => s.marines[c]).map((c) => `${s.marines[c]} ${c}`),
    s.bows ? `${s.bows} bow` : '',
    s.catapults ? `${s.catapults} cat` : '',
    s.stoneThrowers ? `${s.stoneThrowers} stone` : '',
  ].filter(Boolean);
  if (s.status !== 'sunk') marks.push(`crew ${crew.join(', ') || 'none'}`);
  if (s.status === 'afloat') {
    marks.push(s.speed < 0 ? 'went astern' : `speed ${s.speed}`);
    const left = Math.max(0, RULES.maxSpeedTurnsPerGame - s.maxTurnsUsed);
    marks.push(s.raked ? 'no maximum speed' : `maximum speed ${left} left`);
    if (s.afterRam === 'must-back') marks.push('must back off');
  }
  return marks;
}

function board(state: State): BoardView {
  const counters: Counter[] = state.ships.map((s) => ({
    id: s.id,
    name: s.name,
    side: s.side,
    type: statsOf(s).name,
    hex: s.hex,
    facing: s.facing,
    marks: marksOf(state, s),
    ...(s.status === 'sunk' ? { sunk: true } : {}),
  }));
  return { sea: state.sea, counters, wrecks: state.wrecks };
}

function describePlot(state: State, p: ShipPlot): string {
  const ship = state.ships.find((s) => s.id === p.ship);
  const name = ship?.name ?? p.ship;
  const move =
    p.steps === 'B'
      ? 'one hex astern'
      : p.steps === ''
        ? 'holds'
        : `${p.steps} (speed ${p.steps.length}${ship && p.steps.length > statsOf(ship).cruisingSpeed ? ', maximum' : ''})`;
  const pivot = p.pivot ? `turns ${plural(Math.abs(p.pivot), 'hexside')} ${p.pivot > 0 ? 'right' : 'left'} in place, ` : '';
  const fire =
    p.fire === 'hold'
      ? 'holds fire'
      : `fires ${p.fire === 'close' ? 'at short range' : 'at first chance'}${p.targets.length ? ` at ${p.targets.join(', ')} first` : ''}`;
  const extras = [p.board ? 'boards' : '', p.rake ? 'rakes' : ''].filter(Boolean);
  return `${name}: ${pivot}${move}, ${fire}${extras.length ? `, ${extras.join(', ')}` : ''}`;
}

function describe(state: State, action: Action): string {
  if (action.kind === 'repulse') {
    const ship = state.ships.find((s) => s.id === action.ship)?.name ?? action.ship;
    return action.choice === 'cut' ? `${ship} cuts the grapples` : `${ship} counter-boards`;
  }
  return action.plots.map((p) => describePlot(state, p)).join('; ');
}

function sidesOf(setup: Setup): SideInfo[] {
  return setup.sides.map((s) => ({ id: s.id, name: s.name }));
}

export const shipToShip: Ruleset<Setup, State, Action> = {
  id: 'ship-to-ship',
  title: 'Ship-to-ship rules (2007)',
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
  board,
  describe,
  // Each turn's plotting (both sides' plots), and each choice a repulsed boarding leaves.
  decision: (state: State): string => {
    const turn = turnOf(state);
    return `turn ${state.turn}, ${state.stage}${turn.kind === 'side' ? `, ${turn.side}, ${state.repulses.length}` : ''}`;
  },
  opponent,
};
