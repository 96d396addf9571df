/**
 * The battle page sends the state as the viewer's seat may see it and no list of legal actions: the browser asks
 * the same ruleset engine (web/src/battles/legal-actions.ts). That is right only if the redacted state holds
 * everything a side's legal actions depend on. For every registered ruleset and every shipped scenario, over
 * seeded battles (WALKS), at every decision: each side to act gets the same legal
 * actions, in the same words, from the state as it sees it as from the whole state, and the engine's verdict on the
 * action it takes is the same from both; an onlooker's redaction leaves it nothing to do. And the page itself:
 * `yourTurn` without the list, the list only when asked for, and the server still refuses an action outside it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BATTLE_RULESET_IDS } from '../../shared/api/battles.ts';
import { streamDice } from '../../shared/naval/dice.ts';
import { RULESET_IDS, RULESETS, type RulesetId, SCENARIOS } from '../../shared/naval/index.ts';
import { mulberry32 } from '../../shared/random.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';

/** Decisions looked at per battle: enough to reach the fighting in every scenario, few enough for fleet battles. */
const DECISIONS = 30;
/**
 * How each ruleset's battles are walked. The hex rulesets: twice, the computer choosing for both sides, up to 4 s a
 * battle. The measured-table rulesets: their opponents think for a second or more a decision on a fleet and their
 * legal actions take up to a second to list, so once and briefly, a side taking one of its legal actions at random
 * (the property is of the state and the engine, whichever action is taken); this file stays under half a minute.
 */
type Walk = { runs: number; budgetMs: number; atLeast: number; chooser: 'computer' | 'random legal' };
const HEX_WALK: Walk = { runs: 2, budgetMs: 4_000, atLeast: 6, chooser: 'computer' };
const TABLE_WALK: Walk = { runs: 1, budgetMs: 600, atLeast: 2, chooser: 'random legal' };
const WALKS: Record<RulesetId, Walk> = { classis: HEX_WALK, 'ship-to-ship': HEX_WALK, 'diadochi-naval': TABLE_WALK, 'oi-navarcoi': TABLE_WALK };

test('every registered ruleset is offered by the API', () => {
  expect([...BATTLE_RULESET_IDS].sort()).toEqual([...RULESET_IDS].sort());
});

const cases = RULESET_IDS.flatMap((ruleset) => SCENARIOS[ruleset].map((scenario) => [ruleset, scenario.id] as const));

describe.each(cases)('%s, %s: legal actions from the state as the side sees it', (rulesetId, scenarioId) => {
  test('are the legal actions of the whole state, in the same words', { timeout: 120_000 }, () => {
    const ruleset = RULESETS[rulesetId];
    const setup = ruleset.setupSchema.parse(SCENARIOS[rulesetId].find((scenario) => scenario.id === scenarioId)!.setup);
    const walk = WALKS[rulesetId];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        const dice = streamDice(`legal-in-browser-${seed}-padding-for-length`, `${rulesetId}:${scenarioId}`);
        const random = mulberry32(seed);
        let state = ruleset.start(setup, dice).state;
        const started = performance.now();
        for (let decision = 0; decision < DECISIONS && (decision < walk.atLeast || performance.now() - started < walk.budgetMs); decision++) {
          const turn = ruleset.turn(state);
          if (turn.kind === 'over') break;
          const sides = turn.kind === 'side' ? [turn.side] : [...turn.waiting];
          const legalOf = new Map<string, unknown[]>();
          for (const side of sides) {
            const seen = ruleset.redact(state, side);
            const legal = ruleset.legalActions(state, side);
            legalOf.set(side, legal);
            expect(legal.length, `${side} has something to do`).toBeGreaterThan(0);
            expect(ruleset.legalActions(seen, side)).toEqual(legal);
            expect(legal.map((action) => ruleset.describe(seen, action))).toEqual(legal.map((action) => ruleset.describe(state, action)));
          }
          // An onlooker, or the other sides: nothing to do on the state they see.
          for (const other of ruleset.sides(setup).map((side) => side.id))
            if (!sides.includes(other)) expect(ruleset.legalActions(ruleset.redact(state, other), other)).toEqual([]);
          const side = sides[0];
          const legal = legalOf.get(side)!;
          const action = walk.chooser === 'computer' ? ruleset.opponent(state, side, random) : legal[Math.floor(random() * legal.length)];
          expect(ruleset.check(ruleset.redact(state, side), side, action)).toEqual(ruleset.check(state, side, action));
          const applied = ruleset.apply(state, side, action, dice);
          if (!applied.ok) throw new Error(`${rulesetId}: the computer's action was refused: ${applied.error.message}`);
          state = applied.state;
        }
      }),
      { numRuns: walk.runs, seed: 20261127 },
    );
  });
});

describe('the battle page', () => {
  let testApp: TestApp;
  let player: Browser;
  beforeAll(async () => {
    testApp = await startTestApp();
    player = await new Browser(testApp.app).register();
  }, 60_000);
  afterAll(() => testApp?.close(), 60_000);

  // The first computer move of an app starts its worker thread (server/battles/computer-pool.ts): seconds on a loaded machine.
  test('says whose turn it is without the list; lists the legal actions only when asked; refuses an action outside them', { timeout: 60_000 }, async () => {
    const created = await player.request('POST', '/api/battles', {
      title: 'Tyre, by the engine in the browser',
      ruleset: 'ship-to-ship',
      scenario: 'tyre-314',
      seats: [{ side: 'tyre', player: 'computer' }],
      join: 'antigonus',
    });
    expect(created.statusCode, created.body).toBe(201);
    const battle = created.json();
    expect(battle).toMatchObject({ yourTurn: true, you: { side: 'antigonus' } });
    expect(battle).not.toHaveProperty('legalActions');

    const page = await player.request('GET', `/api/battles/${battle.id}`);
    expect(page.json()).toMatchObject({ yourTurn: true });
    expect(page.json()).not.toHaveProperty('legalActions');
    // The whole page is the state, the board and the set-up: tens of kilobytes, not hundreds.
    expect(page.body.length).toBeLessThan(40_000);

    const listed = await player.request('GET', `/api/battles/${battle.id}?legalActions=true`);
    const legal = listed.json().legalActions as { side: string; action: unknown; text: string }[];
    expect(legal.length).toBeGreaterThan(100);
    // What the browser computes from the page is what the server lists.
    const ruleset = RULESETS['ship-to-ship'];
    expect(ruleset.legalActions(page.json().state, 'antigonus')).toEqual(legal.map((l) => l.action));
    expect((await player.request('GET', `/api/battles/${battle.id}?legalActions=maybe`)).statusCode).toBe(400);

    // A whole plot, every ship its first legal move, but one ship rowing six hexes ahead from its standing start:
    // no legal plot of it, and the server refuses it (the rules' own check), nothing changing.
    type Plot = { kind: 'plot'; plots: { ship: string; steps: string }[] };
    const firsts = new Map<string, Plot['plots'][number]>();
    for (const l of legal) for (const one of (l.action as Plot).plots) if (!firsts.has(one.ship)) firsts.set(one.ship, one);
    const plots = [...firsts.values()].map((one) => ({ ...one }));
    plots[0].steps = 'FFFFFF';
    expect(legal.some((l) => JSON.stringify((l.action as Plot).plots[0]) === JSON.stringify(plots[0]))).toBe(false);
    const refused = await player.request('POST', `/api/battles/${battle.id}/actions`, { action: { kind: 'plot', plots }, expected: battle.actionCount });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error.code).toBe('action_refused');
    // …while the same plot with that ship's first legal move is taken.
    plots[0] = { ...firsts.get(plots[0].ship)! };
    expect(ruleset.check(page.json().state, 'antigonus', { kind: 'plot', plots } as never)).toBeNull();
    expect((await player.request('GET', `/api/battles/${battle.id}`)).json().actionCount).toBe(battle.actionCount);

    // An onlooker is told it is not their turn.
    const onlooker = await new Browser(testApp.app).register();
    expect((await onlooker.request('GET', `/api/battles/${battle.id}`)).json()).toMatchObject({ yourTurn: false });
  });
});
