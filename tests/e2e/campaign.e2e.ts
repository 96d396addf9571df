/**
 * Campaign play end to end in Debian's Chromium against the real server: a game master creates a Diadochi V game
 * from the New game form with its sea battles fought out (Classis), five players take its seats (through the API),
 * and Rome's and Macedonia's fleets both sail into the Ionian Sea, so the phase is held.
 * 1. Decided: the game master's board says the phase awaits sea battles, lists the Ionian Sea with its two sides
 *    and marks it on the map (at 1400×900 and on a phone); the odds of the sea's battle come in as the computer
 *    fights it, then the game master decides the sea for Rome after its question, and the results come with it.
 * 2. Fought: the game master has the sea fought out; the board shows it being fought with the battle's link, opened
 *    in a tab of its own (the umpire's view); Rome's player moves a ship on the battle page, and the two players
 *    fight the rest through the API with the computer opponent's choices. The game master's board, never reloaded,
 *    then shows the results: the sea decided in battle with the battle's link, and the winner's fleet in the sea on
 *    the map (or both fleets at home on a draw).
 * Screenshots go outside the repository (CAMPAIGN_E2E_SHOTS, by default /tmp/campaign-e2e-screens).
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { type ClassisAction, type ClassisState, classis } from '../../shared/naval/classis/index.ts';
import { mulberry32 } from '../../shared/random.ts';
import { sideColour } from '../../web/src/battles/sea-drawing.ts';
import { CHROMIUM, hasChromium, launchBrowser, signUpThroughForm } from './browser.ts';
import { battleSeat } from './battle-seat.ts';
import { startServer, type RunningServer } from './server.ts';
import { type Browser as ApiClient, registeredBrowsers } from '../server/helpers/app.ts';

const shots = process.env.CAMPAIGN_E2E_SHOTS ?? '/tmp/campaign-e2e-screens';
const DESKTOP = { width: 1400, height: 900 };
const PHONE = { width: 375, height: 812 };
/** A "#rrggbb" colour as the browser computes it ("rgb(r, g, b)"). */
const rgbOf = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

if (!hasChromium) console.warn(`\n[e2e] SKIPPED: ${CHROMIUM} is missing. Install it with: apt-get install -y chromium\n`);

describe.skipIf(!hasChromium)('a campaign game in the browser', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    rmSync(shots, { recursive: true, force: true });
    mkdirSync(shots, { recursive: true });
    [server, browser] = await Promise.all([startServer(process.env.CAMPAIGN_E2E_WEB_DIST || undefined), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`) });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await browser.screenshotAll(shots, 'failed');
  });

  /**
   * The game master signs up and creates the game on the New game form (sea battles fought out under Classis, 24
   * hours for a phase's battles; `fleetEdit` changes the fleet lists first, and the game's card then says `fleets`);
   * five players take the seats through the API. Returns the game master's page on the game, the game's id and the players by power.
   */
  async function campaignGame(name: string, tag: string, fleetEdit?: (gm: Page) => Promise<void>, fleets = /Rome/) {
    const gm = await browser.newPage(DESKTOP);
    await signUpThroughForm(gm, server.url, `gm_${tag}`, 'a campaign of many seas');
    await gm.getByRole('link', { name: 'New game' }).click();
    await gm.getByLabel('Name', { exact: true }).fill(name);
    await gm.getByLabel('I take a seat myself').uncheck();
    await gm.getByLabel(/Sea battles fought out/).check();
    await gm.locator('input[name="campaign-ruleset"][value="classis"]').check();
    await gm.locator('input[data-field="campaign.battleHours"]').fill('24');
    await fleetEdit?.(gm);
    await gm.getByRole('button', { name: 'Create the game' }).click();
    await gm.getByRole('heading', { name }).waitFor();
    await expect
      .poll(async () => (await gm.locator('.campaign-card').textContent())?.replace(/\s+/g, ' '), { timeout: 20_000 })
      .toMatch(new RegExp(`fought out under Classis; a phase's battles have 24 hours.*${fleets.source}`, 's'));
    const gameId = gm.url().replace(/\?.*$/, '').split('/').pop()!;

    // Five players take the seats (the API); the game starts once every seat is taken.
    const players = await registeredBrowsers(server.app, 5);
    for (const player of players) expect((await player.request('POST', `/api/games/${gameId}/join`, {})).statusCode).toBe(200);
    const byPower = new Map<string, ApiClient>();
    for (const player of players) {
      const detail = (await player.request('GET', `/api/games/${gameId}`)).json();
      byPower.set(detail.players.find((s: { isYou: boolean }) => s.isYou).power, player);
    }
    expect(byPower.size).toBe(5);
    return { gm, gameId, byPower };
  }

  /** Rome's fleet from Neapolis and Macedonia's from Corinth both sail into the Ionian Sea; everyone is ready. */
  async function meetInIonian(gameId: string, byPower: ReadonlyMap<string, ApiClient>) {
    const orders: Record<string, string> = { Rome: 'F Nea - ION', Macedonia: 'F Kor - ION' };
    for (const [power, player] of byPower) {
      const saved = await player.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: orders[power] ?? '', ready: true });
      expect(saved.statusCode, saved.body).toBe(200);
    }
  }

  /** A player's session (signed up through the API) in a browser page of its own. */
  async function pageOf(player: ApiClient, viewport: { width: number; height: number }) {
    const page = await browser.newPage(viewport);
    const [, sid] = /^sid=(.*)$/.exec(player.cookie!)!;
    await page.context().addCookies([{ name: 'sid', value: sid, url: server.url }]);
    return page;
  }

  test('created from the form with sea battles, two fleets meet in the Ionian Sea, the phase is held, the game master decides it, the results follow', async () => {
    const tag = Date.now().toString(36).slice(-5);
    const name = `Actium ${tag}`;
    // Rome's fleet with a hexeres more.
    const { gm, gameId, byPower } = await campaignGame(
      name,
      tag,
      async (page) => {
        const rome = page.getByRole('group', { name: "Rome's fleet" });
        await rome.getByLabel("Add a ship class to Rome's fleet").selectOption('hexeres');
        await expect(rome.getByText('9 ships a fleet').isVisible()).resolves.toBe(true);
        await rome.scrollIntoViewIfNeeded();
        await shot(page, 'new-game-sea-battles');
      },
      /Rome\s*2 trieres, 6 penteres, 1 hexeres/,
    );
    const campaign = (await byPower.get('Rome')!.request('GET', `/api/games/${gameId}`)).json().campaign;
    expect(campaign.fleets.Rome).toEqual([
      { class: 'trieres', count: 2 },
      { class: 'penteres', count: 6 },
      { class: 'hexeres', count: 1 },
    ]);
    await meetInIonian(gameId, byPower);

    // The game master's board: the phase awaits its sea battle, the Ionian Sea listed and marked on the map.
    await gm.goto(`${server.url}/games/${gameId}`);
    await gm.getByText('Awaiting sea battles').waitFor();
    const ionian = gm.locator('li.sea[data-sea="ION"]');
    await ionian.waitFor();
    await expect(ionian.textContent()).resolves.toMatch(/Rome against Macedonia|Macedonia against Rome/);
    const mark = gm.locator('g.sea-mark[data-sea="ION"]');
    await mark.waitFor();
    await expect(mark.getAttribute('aria-label')).resolves.toMatch(/^Sea battle in Ionian Sea: .*; awaiting the game master\.$/);
    await expect(gm.getByText(/Orders due/).count()).resolves.toBe(0);
    await shot(gm, 'held-desktop');

    // A player on a phone sees the same: the mark on the map, a tap on it picks the sea in the list.
    const phone = await pageOf(byPower.get('Egypt')!, PHONE);
    await phone.goto(`${server.url}/games/${gameId}`);
    await phone.getByText('Awaiting sea battles').waitFor();
    await phone.locator('g.sea-mark[data-sea="ION"]').waitFor();
    await shot(phone, 'held-phone');
    await phone.locator('g.sea-mark[data-sea="ION"]').tap();
    await phone.locator('li.sea.selected[data-sea="ION"]').waitFor();
    await shot(phone, 'held-phone-sea-picked');

    // The odds before deciding: the computer fights the sea's battle on seeded dice, the count shown as it goes.
    await ionian.getByRole('button', { name: 'Estimate the odds' }).click();
    await ionian
      .locator('.odds')
      .getByText(/^[\d,]+ of 1,000 battles: (Macedonia|Rome) \d+ %, (Macedonia|Rome) \d+ %, drawn \d+ %$/)
      .waitFor({ timeout: 90_000 });
    await shot(gm, 'odds');

    // The game master decides the sea for Rome, after its question.
    await ionian.getByLabel('Winner of Ionian Sea').selectOption('Rome');
    await ionian.getByRole('button', { name: 'Decide' }).click();
    await ionian.getByText('Decide Ionian Sea for Rome?').waitFor();
    await shot(gm, 'decide-question');
    await ionian.getByRole('button', { name: 'Confirm' }).click();

    // The phase is adjudicated with the sea decided: the results list the sea and how it was decided.
    const results = gm.locator('.sea-results');
    await results.waitFor({ timeout: 30_000 });
    await expect(results.textContent()).resolves.toMatch(/Ionian Sea: .*Rome won by the game master\./);
    await shot(gm, 'results-desktop');
    await phone.locator('.sea-results').waitFor({ timeout: 30_000 });
    await shot(phone, 'results-phone');
    expect(browser.consoleErrors).toEqual([]);
  });

  test('the game master has the sea fought out: the battle on its page, fought to its end, decides the sea, and the board shows the results without a reload', async () => {
    const tag = Date.now().toString(36).slice(-5);
    const { gm, gameId, byPower } = await campaignGame(`Ecnomus ${tag}`, `f${tag}`);
    await meetInIonian(gameId, byPower);
    await gm.goto(`${server.url}/games/${gameId}`);
    const ionian = gm.locator('li.sea[data-sea="ION"]');
    await ionian.waitFor();

    // Fight it out: the battle's clock asked first (by correspondence, the default), then the battle opened.
    await ionian.getByRole('button', { name: 'Fight it out' }).click();
    await ionian.getByRole('group', { name: "Fight it out: the battle's clock" }).waitFor();
    await shot(gm, 'fight-clock');
    await ionian.getByRole('button', { name: 'Open the battle' }).click();
    await ionian.locator('.status').getByText('being fought').waitFor();
    const watch = ionian.getByRole('link', { name: 'Watch the battle' });
    const href = (await watch.getAttribute('href'))!;
    expect(href).toMatch(/^\/battles\/[^/?]+$/);
    const battle = href.split('/').pop()!;
    await expect(gm.locator('g.sea-mark[data-sea="ION"]').getAttribute('aria-label')).resolves.toMatch(/; being fought\.$/);
    // Neither fought again nor auto-resolved while it is fought (the game master may still decide it or waive it).
    await expect(ionian.getByRole('button', { name: 'Fight it out' }).count()).resolves.toBe(0);
    await expect(ionian.getByRole('button', { name: 'Auto-resolve' }).count()).resolves.toBe(0);
    await shot(gm, 'fighting-desktop');

    // The link opens the battle in a tab of its own: the game master is its umpire, the board drawn.
    const [tab] = await Promise.all([gm.context().waitForEvent('page'), watch.click({ modifiers: ['ControlOrMeta'] })]);
    tab.on('pageerror', (e) => browser.consoleErrors.push(String(e)));
    await tab.getByRole('heading', { name: 'Umpire' }).waitFor();
    await tab.locator('svg .counter').first().waitFor();
    await shot(tab, 'battle-umpire');

    // The sides' players: Rome's on its battle page, Macedonia's through the API.
    const rome = byPower.get('Rome')!;
    const macedonia = byPower.get('Macedonia')!;
    const romePage = await pageOf(rome, DESKTOP);
    await romePage.goto(`${server.url}${href}`);
    await romePage.locator('svg .counter').first().waitFor();
    const romeSeat = await battleSeat(romePage, server.url);
    // Each side's ships in its power's colour on the map (shaded for the counters' letters), not by the set-up's order
    // (which lists Macedonia first): Rome's red, Macedonia's blue.
    const { sides } = await romeSeat.get(battle);
    for (const [side, name] of [
      ['rome', 'Rome'],
      ['macedonia', 'Macedonia'],
    ] as const) {
      const fill = await romePage
        .locator(`g.counter[aria-label^="${name} "] path.body`)
        .first()
        .evaluate((body) => getComputedStyle(body).fill);
      expect(fill, name).toBe(rgbOf(sideColour(sides, side)));
    }
    expect(sides.map((s: { colour?: string }) => s.colour)).toEqual(['#0077BB', '#CC3311']);
    const seats: Record<string, ApiClient> = { rome, macedonia };

    // Rome's first move clicked on its page (a ship of the squadron, the farthest highlighted hex, Move); every other
    // action the computer opponent's choice for the side whose turn it is, so that the battle ends soon.
    const random = mulberry32(20261127);
    let clicked = false;
    let detail = await romeSeat.get(battle);
    for (let n = 0; n < 600 && detail.status === 'active'; n++) {
      if (detail.turn?.kind !== 'side') throw new Error(`Classis waits for one side at a time, not ${JSON.stringify(detail.turn)}`);
      const side = detail.turn.side;
      const mine = side === 'rome' ? await romeSeat.get(battle) : (await seats[side].request('GET', `/api/battles/${battle}?legalActions=true`)).json();
      const move = (mine.legalActions ?? []).map((l: { action: ClassisAction }) => l.action).find((a: ClassisAction) => a.kind === 'move');
      if (side === 'rome' && !clicked && move) {
        await romePage.locator(`.battle-log li[data-index="${mine.actionCount}"]`).waitFor();
        const panel = romePage.locator('.classis-panel');
        const shipName = mine.board.counters.find((c: { id: string }) => c.id === move.ship).name;
        await panel.getByRole('group', { name: 'Ships of the activated squadron' }).getByRole('button', { name: shipName, exact: true }).click();
        const targets = romePage.locator('svg polygon.target');
        await targets.first().waitFor();
        await targets.nth((await targets.count()) - 1).click();
        const facings = panel.getByRole('group', { name: 'Facing at the end of the move' });
        if (await facings.count()) await facings.getByRole('button').first().click();
        await shot(romePage, 'battle-rome-move');
        await panel.getByRole('button', { name: 'Move', exact: true }).click();
        await romePage.locator(`.battle-log li[data-index="${mine.actionCount + 1}"]`).waitFor();
        clicked = true;
      } else {
        const action = classis.opponent(mine.state as ClassisState, side, random);
        const acted = await seats[side].request('POST', `/api/battles/${battle}/actions`, { action, expected: mine.actionCount });
        expect(acted.statusCode, acted.body).toBe(200);
      }
      detail = await romeSeat.get(battle);
    }
    expect(clicked, "Rome's player moved a ship on the battle page").toBe(true);
    expect(detail.status).toBe('finished');
    const winnerSide = detail.outcome!.winner;
    const winner = winnerSide === null ? null : winnerSide === 'rome' ? 'Rome' : 'Macedonia';
    console.info(`the Ionian Sea fought out: ${detail.actionCount} actions, ${winner ?? 'nobody'} won`);

    // The umpire's tab sees the end as it comes.
    await expect
      .poll(() => tab.locator('.outcome').textContent(), { timeout: 20_000 })
      .toContain(winner ? `${detail.sides.find((s) => s.id === winnerSide)!.name} won` : 'Nobody won');
    await tab.locator('.battle-log li').last().scrollIntoViewIfNeeded();
    await tab.evaluate(() => window.scrollTo(0, 0));
    await shot(tab, 'battle-end');

    // The game master's board, never reloaded: the phase processed with the sea decided in battle, the battle's link
    // in the results, and on the map the winner's fleet in the sea (on a draw both fleets where they were).
    const results = gm.locator('.sea-results');
    await results.waitFor({ timeout: 30_000 });
    await expect(results.textContent()).resolves.toMatch(new RegExp(`Ionian Sea: .*${winner ? `${winner} won in battle` : 'A standoff in battle'}\\.`));
    await expect(results.getByRole('link', { name: 'The battle' }).getAttribute('href')).resolves.toBe(href);
    const unitAt = (at: string) => gm.locator(`svg.dmap g.unit[data-unit="${at}"]`);
    if (winner) {
      await expect(unitAt('ION').getAttribute('aria-label')).resolves.toBe(`${winner === 'Rome' ? 'Roman' : 'Macedonian'} fleet in Ionian Sea`);
      await expect(unitAt(winner === 'Rome' ? 'Nea' : 'Kor').count()).resolves.toBe(0);
    } else {
      await expect(unitAt('ION').count()).resolves.toBe(0);
      await expect(unitAt('Nea').getAttribute('aria-label')).resolves.toMatch(/^Roman fleet in /);
      await expect(unitAt('Kor').getAttribute('aria-label')).resolves.toMatch(/^Macedonian fleet in /);
    }
    await gm.locator('g.sea-mark[data-sea="ION"]').scrollIntoViewIfNeeded();
    // The sea's mark stands beside the fleet in the sea, not over it.
    const markBox = (await gm.locator('g.sea-mark[data-sea="ION"]').boundingBox())!;
    const fleetBox = (await unitAt(winner ? 'ION' : 'Nea').boundingBox())!;
    const apart =
      markBox.x >= fleetBox.x + fleetBox.width ||
      fleetBox.x >= markBox.x + markBox.width ||
      markBox.y >= fleetBox.y + fleetBox.height ||
      fleetBox.y >= markBox.y + markBox.height;
    expect(apart, `mark ${JSON.stringify(markBox)} over the fleet ${JSON.stringify(fleetBox)}`).toBe(true);
    await shot(gm, 'fought-results-desktop');

    // On a phone too, Macedonia's player sees the sea's result.
    const phone = await pageOf(macedonia, PHONE);
    await phone.goto(`${server.url}/games/${gameId}`);
    await phone.getByRole('button', { name: /Results of/ }).click();
    await phone.locator('.sea-results').waitFor({ timeout: 30_000 });
    await shot(phone, 'fought-results-phone');
    expect(browser.consoleErrors).toEqual([]);
  });
});
