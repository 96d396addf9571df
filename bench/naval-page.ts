/**
 * The battle page's size: GET /api/battles/:id as the side to act sees it at the start of each shipped scenario of
 * the rulesets the API offers, against the real app (in-memory database), with and without the list of
 * legal actions (`legalActions=true`, which the web client does not ask for: it computes them), and the time the
 * engine takes to compute that list from the page's state as the browser does (web/src/battles/legal-actions.ts).
 */
import { BATTLE_RULESET_IDS } from '../shared/api/battles.ts';
import { RULESETS, SCENARIOS } from '../shared/naval/index.ts';
import { Browser, startTestApp } from '../tests/server/helpers/app.ts';

/** One figure, as bench/naval.ts prints them (its NavalFigure; written out here so the two files do not import each other). */
type PageFigure = { ruleset: string; name: string; value: number; unit: string };

export async function benchBattlePages(): Promise<PageFigure[]> {
  const figures: PageFigure[] = [];
  const testApp = await startTestApp();
  try {
    const player = await new Browser(testApp.app).register();
    for (const id of BATTLE_RULESET_IDS) {
      const ruleset = RULESETS[id];
      for (const scenario of SCENARIOS[id]) {
        const sides = ruleset.sides(ruleset.setupSchema.parse(scenario.setup)).map((side) => side.id);
        // The player takes whichever side acts first (in Classis the chits decide): the computer has the other.
        let page: { body: string; json: () => { id: string; yourTurn: boolean; state: unknown; you: { side: string } } } | null = null;
        for (const [mine, theirs] of [sides, [...sides].reverse()]) {
          const created = await player.request('POST', '/api/battles', {
            title: `Page size, ${scenario.id}`,
            ruleset: id,
            scenario: scenario.id,
            seats: [{ side: theirs, player: 'computer' }],
            join: mine,
          });
          if (created.statusCode !== 201) throw new Error(`${id}: creating the battle failed: ${created.body}`);
          page = await player.request('GET', `/api/battles/${created.json().id}`);
          if (page.json().yourTurn) break;
        }
        const detail = page!.json();
        const listed = await player.request('GET', `/api/battles/${detail.id}?legalActions=true`);
        const t0 = performance.now();
        const rounds = 5;
        for (let i = 0; i < rounds; i++) {
          const legal = ruleset.legalActions(detail.state, detail.you.side);
          legal.map((action) => ruleset.describe(detail.state, action));
        }
        const ms = (performance.now() - t0) / rounds;
        figures.push({ ruleset: id, name: `battle page, ${scenario.id} (the state only)`, value: page!.body.length / 1024, unit: 'KB' });
        figures.push({ ruleset: id, name: `battle page, ${scenario.id}, with legalActions=true`, value: listed.body.length / 1024, unit: 'KB' });
        figures.push({ ruleset: id, name: `legal actions and their words from the page's state, ${scenario.id}`, value: ms, unit: 'ms' });
      }
    }
  } finally {
    await testApp.close();
  }
  return figures;
}
