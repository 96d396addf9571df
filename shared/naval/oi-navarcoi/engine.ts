/**
 * Oi Navarcoi! as a Ruleset: the secret deployment with the signals written down, then turn by turn the event
 * phase, initiative, each side's movement one squadron at a time, and the melee and morale phases resolved in the
 * `apply` that ends the second side's movement.
 */
import { type Edge, edgesReached } from '../table/index.ts';
import { plural } from '../../text/plural.ts';
import type { Dice } from '../dice.ts';
import type { Applied, LogLine, Outcome, Refusal, Ruleset, SideInfo, Turn } from '../ruleset.ts';
import { type Action, ActionSchema } from './actions.ts';
import { beginMovement, beginTurn, endMovement, launch } from './flow.ts';
import { carryOut, giveOrder, landMoves } from './land.ts';
import { checkMove, endRefusal, legalActions, phalanxRefusal, signalFor, signalRefusal } from './legal.ts';
import { BattleLog, inches } from './log.ts';
import { diekplous, contactMade, periplous } from './melee.ts';
import { canMove, planMove } from './movement.ts';
import { opponent } from './opponent.ts';
import { RULES } from './rules.ts';
import { type Setup, SetupSchema } from './setup.ts';
import { applyDeploy, checkDeploy, initialState } from './start.ts';
import { type State, StateSchema, body, sideOf, squadronOf } from './state.ts';
import { manoeuvreTest, worsen } from './tests.ts';
import { boardOf } from './view.ts';

function start(setup: Setup, dice: Dice): { state: State; log: LogLine[] } {
  const state = initialState(setup);
  const log = new BattleLog(dice, 0);
  log.line(
    `${setup.title}${setup.source ? ` (${setup.source})` : ''}: a table of ${setup.table.width}" by ${setup.table.depth}", ${setup.turnLimit} turns at most (then night falls: a fleet that has lost half its squadrons or more leaves the field).`,
  );
  for (const side of state.sides) {
    const mine = state.squadrons.filter((q) => q.side === side.id);
    log.line(
      `${side.name} (fleet ${side.fleet === 'alpha' ? 'α' : 'β'}, ${side.role}): ${mine
        .map(
          (q) =>
            `${q.name}${q.strategos ? ' (strategos)' : ''}${q.freighters ? ' (freighters)' : ''} ${q.quality.replace('-', ' ')}, ${q.morale.replace('-', ' ')}, ${q.ships} ships`,
        )
        .join('; ')}.`,
    );
  }
  state.rolls = log.rolls;
  return { state, log: log.lines };
}

function turnOf(state: State): Turn {
  if (state.phase === 'over') return { kind: 'over' };
  if (state.phase === 'deploy') {
    const sides = state.sides.map((s) => s.id);
    return {
      kind: 'simultaneous',
      sides,
      waiting: state.sides.filter((s) => !s.deployed).map((s) => s.id),
      prompt: 'Deploy your squadrons in secret and write down the signals each will obey',
    };
  }
  const side = state.acting!;
  const name = sideOf(state, side).name;
  if (state.phase === 'initiative') return { kind: 'side', side, prompt: `Turn ${state.turn}: ${name} won the initiative: move first or second?` };
  if (state.phase === 'launch') return { kind: 'side', side, prompt: `Turn ${state.turn}: ${name} launches a squadron from the beach` };
  return { kind: 'side', side, prompt: `Turn ${state.turn}: ${name} moves its squadrons, one at a time` };
}

function check(state: State, side: string, action: Action): Refusal | null {
  if (state.phase === 'over') return { code: 'battle_over', message: 'The battle is over.' };
  if (!state.sides.some((s) => s.id === side)) return { code: 'no_such_side', message: `There is no side ${side} in this battle.` };
  if (state.phase === 'deploy') {
    if (action.kind !== 'deploy') return { code: 'not_now', message: 'Both sides deploy first.' };
    if (sideOf(state, side).deployed) return { code: 'already_deployed', message: 'This side has already deployed.' };
    const refused = checkDeploy(state, side, action);
    return refused ? { code: 'bad_deployment', message: refused } : null;
  }
  if (state.acting !== side) return { code: 'not_your_turn', message: `It is ${sideOf(state, state.acting!).name}'s turn.` };
  switch (action.kind) {
    case 'deploy':
      return { code: 'not_now', message: 'The deployment is over.' };
    case 'initiative':
      return state.phase === 'initiative' ? null : { code: 'not_now', message: 'Initiative is not being chosen now.' };
    case 'launch': {
      if (state.phase !== 'launch') return { code: 'not_now', message: 'No squadron is launched now.' };
      if (action.squadron === null) return null;
      const q = state.squadrons.find((x) => x.id === action.squadron);
      if (!q || q.side !== side || q.status !== 'anchored')
        return { code: 'not_anchored', message: `${action.squadron} is not a squadron of this side at anchor.` };
      return q.engaged.length ? { code: 'in_melee', message: `${q.name} is fighting a melee on the beach and cannot be launched.` } : null;
    }
    default:
      break;
  }
  if (state.phase !== 'move') return { code: 'not_now', message: 'Launch first.' };
  switch (action.kind) {
    case 'signal':
      return signalRefusal(state, side, action.signal);
    case 'end-movement':
      return endRefusal(state, side);
    case 'phalanx':
      return phalanxRefusal(state, side, action);
    case 'move':
      return checkMove(state, side, action);
  }
}

/** Carries out a checked move: the squadron placed, its test, the contact and any diekplous or periplous. */
function move(state: State, action: Extract<Action, { kind: 'move' }>, log: BattleLog): void {
  const q = squadronOf(state, action.squadron);
  let signal = signalFor(state, q);
  let plan = planMove(state, q, action, signal);
  if (!plan.ok && signal === 5) {
    signal = null;
    plan = planMove(state, q, action, null);
  }
  if (!plan.ok) throw new Error(plan.message);
  const before = body(q);
  q.formation = plan.formation;
  q.x = plan.frame.x;
  q.y = plan.frame.y;
  q.heading = plan.frame.heading;
  q.moved = true;
  q.stationary = plan.stationary;
  q.signalled = null;
  void before;
  log.line(`${signal !== null && signal !== 5 ? `${q.name} obeys signal ${signal} (${RULES.signals.list[signal - 1].name}), untested. ` : ''}${plan.words}.`);
  if (plan.crossedFlotsam && !q.disordered) {
    q.disordered = true;
    log.line(`${q.name} crosses the flotsam at half speed: disordered.`);
  }
  if (plan.test) manoeuvreTest(state, q, plan.contact ? 'engaging the enemy' : 'manoeuvring', log);
  // Freighters that reach their exit edge (within a tenth of an inch) sail off it.
  if (q.freighters && state.convoyExit && edgesReached(state.table, body(q), 0.1).includes(state.convoyExit as Edge)) {
    q.status = 'gone';
    q.exit = state.convoyExit;
    log.line(`${q.name} sails off by the ${state.convoyExit} edge: safe.`);
  }
  if (!plan.contact) return;
  const target = squadronOf(state, plan.contact.target);
  const manoeuvre = action.attack?.manoeuvre ?? 'melee';
  if (manoeuvre === 'diekplous' && !q.disordered) diekplous(state, q, target, log);
  else if (manoeuvre === 'periplous' && !q.disordered) periplous(state, q, target, log);
  else {
    if (manoeuvre !== 'melee') log.line(`${q.name} is disordered now and cannot attempt the ${manoeuvre}: it attacks plainly.`);
    contactMade(state, q, target, plan.contact.side, log);
  }
}

function apply(input: State, side: string, action: Action, dice: Dice): Applied<State> {
  const refusal = check(input, side, action);
  if (refusal) return { ok: false, error: refusal };
  const log = new BattleLog(dice, input.rolls);
  const state: State = structuredClone(input);
  switch (action.kind) {
    case 'deploy': {
      state.pending[side] = action;
      sideOf(state, side).deployed = true;
      log.line(`${sideOf(state, side).name} hands in its deployment and signals.`);
      if (state.sides.every((s) => s.deployed)) {
        for (const s of state.sides) applyDeploy(state, s.id, state.pending[s.id] as Extract<Action, { kind: 'deploy' }>, log);
        state.pending = {};
        beginTurn(state, log);
      }
      break;
    }
    case 'initiative': {
      const other = state.sides.find((s) => s.id !== side)!.id;
      const first = action.first ? side : other;
      log.line(`${sideOf(state, side).name} chooses to move ${action.first ? 'first' : 'second'}.`);
      state.second = first === side ? other : side;
      beginMovement(state, first, log);
      break;
    }
    case 'launch':
      launch(state, side, action.squadron, log);
      break;
    case 'signal': {
      const s = sideOf(state, side);
      s.signalsLeft--;
      s.signalTurn = state.turn;
      const obeying = state.squadrons.filter((q) => q.side === side && q.signals.includes(action.signal) && canMove(q));
      for (const q of obeying) q.signalled = action.signal;
      log.line(
        `${s.name} signals ${action.signal}: ${RULES.signals.list[action.signal - 1].name}, to ${obeying.map((q) => q.name).join(', ')} (${plural(s.signalsLeft, 'signal')} left).`,
      );
      break;
    }
    case 'phalanx': {
      const p = state.phalanxes.find((x) => x.id === action.phalanx)!;
      giveOrder(state, p, action.order, action.target);
      log.line(`${p.name} is ordered to ${action.order}${action.target ? ` (${action.target})` : ''}.`);
      p.marched = true;
      carryOut(state, p, log);
      break;
    }
    case 'move':
      landMoves(state, side, log);
      move(state, action, log);
      if (!state.squadrons.some((q) => q.side === side && canMove(q))) endMovement(state, log);
      break;
    case 'end-movement':
      endMovement(state, log);
      break;
  }
  state.rolls = log.rolls;
  return { ok: true, state, log: log.lines };
}

function redact(state: State, viewer: string | null): State {
  const pending: State['pending'] = {};
  if (viewer !== null && state.pending[viewer]) pending[viewer] = state.pending[viewer];
  // The signals each side wrote down before the battle are its own secret.
  const squadrons = state.squadrons.map((q) => (q.side === viewer ? q : { ...q, signals: [] }));
  return { ...state, pending, squadrons };
}

/** "hand in the deployment (1 squadron re-placed) and 4 squadrons' signals"; without signals, says so. */
function describeDeployment(replaced: number, signalled: number): string {
  const placed = replaced > 0 ? ` (${plural(replaced, 'squadron')} re-placed)` : '';
  const signals = signalled === 0 ? ', with no signals written' : ` and ${plural(signalled, 'squadron')}${signalled === 1 ? "'s" : "'"} signals`;
  return `hand in the deployment${placed}${signals}`;
}

function describe(state: State, action: Action): string {
  const name = (id: string) => state.squadrons.find((q) => q.id === id)?.name ?? id;
  switch (action.kind) {
    case 'deploy':
      return describeDeployment(action.placements.length, action.signals.filter((s) => s.signals.length).length);
    case 'initiative':
      return action.first ? 'move first' : 'move second';
    case 'launch':
      return action.squadron ? `launch ${name(action.squadron)}` : 'launch none by choice';
    case 'signal':
      return `signal ${action.signal}: ${RULES.signals.list[action.signal - 1].name}`;
    case 'end-movement':
      return 'end the movement';
    case 'phalanx':
      return `${state.phalanxes.find((p) => p.id === action.phalanx)?.name ?? action.phalanx}: ${action.order}${action.target ? ` ${action.target}` : ''}`;
    case 'move': {
      const o = action.order;
      const attack = action.attack
        ? `, attacking ${name(action.attack.target)}${action.attack.manoeuvre !== 'melee' ? ` by ${action.attack.manoeuvre}` : ''}`
        : '';
      const what =
        o.type === 'hold'
          ? 'holds'
          : o.type === 'advance'
            ? `${o.wheel ? `wheels ${Math.abs(o.wheel)}° ${o.wheel > 0 ? 'right' : 'left'}, ` : ''}${o.turn ? `turns ${Math.abs(o.turn)}° ${o.turn > 0 ? 'right' : 'left'} after ${inches(o.turnAfter)}, ` : ''}${action.attack ? 'runs in' : `advances ${inches(o.distance)}`}`
            : o.type === 'back'
              ? `backs water ${inches(o.distance)}`
              : o.type === 'about-face'
                ? 'about faces'
                : o.type === 'change-front'
                  ? `changes front to the ${o.toward}`
                  : o.type === 'form'
                    ? `forms ${RULES.formations[o.formation].name} to the ${o.toward}${o.method === 'turn' ? ' by turning' : ''}`
                    : `follow me! heading ${Math.round(o.heading)}°${action.attack ? '' : `, ${inches(o.distance)}`}`;
      return `${name(action.squadron)} ${what}${attack}`;
    }
  }
}

const sidesOf = (setup: Setup): SideInfo[] => setup.sides.map((s) => ({ id: s.id, name: s.name }));

export const oiNavarcoi: Ruleset<Setup, State, Action> = {
  id: 'oi-navarcoi',
  title: 'Oi Navarcoi! (fleet battles on a measured table)',
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
  // The deployment, each initiative choice, and each side's movement in a turn.
  decision: (state: State): string => `turn ${state.turn}, ${state.phase}, ${state.acting ?? ''}`,
  opponent,
};

export { worsen };
