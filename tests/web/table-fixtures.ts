/**
 * Table battles for the table board's tests, made by the real engines: a shipped scenario started with the seeded
 * dice and played for a few actions by each side's first legal action (the deployment as the scenario sets it, the
 * initiative), so the side to act stands at its movement; shaped as the server answers a battle (battleDetail).
 */
import type { BattleDetail } from '../../shared/api/battles.ts';
import type { BattleRecord } from '../../shared/naval/record.ts';
import { commitmentOf, streamDice } from '../../shared/naval/dice.ts';
import { RULESETS, scenarioOf } from '../../shared/naval/index.ts';
import { SALT, SEED, battleDetail } from './battles-fixtures.ts';

export type TableRuleset = 'diadochi-naval' | 'oi-navarcoi';

/** The scenario played to its first movement, the viewer seated as the side to move; `change` edits the state first. */
export function tableBattle(
  ruleset: TableRuleset,
  scenario: string,
  change: (state: never) => void = () => {},
): { detail: BattleDetail; side: string; record: BattleRecord } {
  const r = RULESETS[ruleset];
  const setup = r.setupSchema.parse(scenarioOf(ruleset, scenario)!.setup);
  const dice = streamDice(SEED, SALT);
  const started = r.start(setup, dice);
  let state = started.state;
  const actions: BattleRecord['actions'] = [];
  for (let i = 0; i < 6; i++) {
    const turn = r.turn(state);
    if (turn.kind === 'side' && (state.stage === 'orders' || state.phase === 'move')) break;
    if (turn.kind === 'over') throw new Error('the battle ended before its first movement');
    const side = turn.kind === 'side' ? turn.side : turn.waiting[0];
    const action = r.legalActions(state, side)[0];
    const applied = r.apply(state, side, action, dice);
    if (!applied.ok) throw new Error(applied.error.message);
    actions.push({ side, action, log: applied.log as BattleRecord['start'] });
    state = applied.state;
  }
  state = structuredClone(state);
  change(state as never);
  const turn = r.turn(state);
  if (turn.kind !== 'side') throw new Error('no side to move');
  const record: BattleRecord = {
    format: 'naval-battle/1',
    ruleset,
    setup,
    salt: SALT,
    commitment: commitmentOf(SEED),
    start: started.log as BattleRecord['start'],
    actions,
  };
  return { detail: battleDetail(ruleset, { record, state, states: [state] }, turn.side), side: turn.side, record };
}

/** The scenario just started: both sides still to hand in their deployment, the viewer seated as `side`. */
export function tableDeployment(ruleset: TableRuleset, scenario: string, side: string): { detail: BattleDetail; record: BattleRecord } {
  const r = RULESETS[ruleset];
  const setup = r.setupSchema.parse(scenarioOf(ruleset, scenario)!.setup);
  const started = r.start(setup, streamDice(SEED, SALT));
  const turn = r.turn(started.state);
  if (turn.kind !== 'simultaneous' || !turn.waiting.includes(side)) throw new Error(`${side} has no deployment to hand in`);
  const record: BattleRecord = {
    format: 'naval-battle/1',
    ruleset,
    setup,
    salt: SALT,
    commitment: commitmentOf(SEED),
    start: started.log as BattleRecord['start'],
    actions: [],
  };
  return { detail: battleDetail(ruleset, { record, state: started.state, states: [started.state] }, side), record };
}
