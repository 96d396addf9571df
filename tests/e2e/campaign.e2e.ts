/**
 * Campaign play end to end in Debian's Chromium against the real server: a game master creates a Diadochi V game
 * from the New game form with its sea battles fought out (Classis), five players take its seats (through the API),
 * Rome's and Macedonia's fleets both sail into the Ionian Sea, and the phase is held: the game master's board says it
 * awaits sea battles, lists the Ionian Sea with its two sides and marks it on the map (at 1400×900 and on a phone);
 * the odds of the sea's battle come in as the computer fights it, then the game master decides the sea for Rome after
 * its question, and the results come with the sea's outcome.
 * Screenshots go outside the repository (CAMPAIGN_E2E_SHOTS, by default /tmp/campaign-e2e-screens).
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchBrowser, signUpThroughForm } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';
import { registeredBrowsers } from '../server/helpers/app.ts';

const shots = process.env.CAMPAIGN_E2E_SHOTS ?? '/tmp/campaign-e2e-screens';
const DESKTOP = { width: 1400, height: 900 };
const PHONE = { width: 375, height: 812 };

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

  test('created from the form with sea battles, two fleets meet in the Ionian Sea, the phase is held, the game master decides it, the results follow', async () => {
    const tag = Date.now().toString(36).slice(-5);
    const name = `Actium ${tag}`;
    const gm = await browser.newPage(DESKTOP);
    await signUpThroughForm(gm, server.url, `gm_${tag}`, 'a campaign of many seas');

    // The New game form: sea battles fought out, Classis, 24 hours, Rome's fleet with a hexeres more.
    await gm.getByRole('link', { name: 'New game' }).click();
    await gm.getByLabel('Name', { exact: true }).fill(name);
    await gm.getByLabel('I take a seat myself').uncheck();
    await gm.getByLabel(/Sea battles fought out/).check();
    await gm.locator('input[name="campaign-ruleset"][value="classis"]').check();
    await gm.locator('input[data-field="campaign.battleHours"]').fill('24');
    const rome = gm.getByRole('group', { name: "Rome's fleet" });
    await rome.getByLabel("Add a ship class to Rome's fleet").selectOption('hexeres');
    await expect(rome.getByText('9 ships a fleet').isVisible()).resolves.toBe(true);
    await rome.scrollIntoViewIfNeeded();
    await shot(gm, 'new-game-sea-battles');
    await gm.getByRole('button', { name: 'Create the game' }).click();
    await gm.getByRole('heading', { name }).waitFor();
    await expect
      .poll(async () => (await gm.locator('.campaign-card').textContent())?.replace(/\s+/g, ' '), { timeout: 20_000 })
      .toMatch(/fought out under Classis; a phase's battles have 24 hours.*Rome\s*2 trieres, 6 penteres, 1 hexeres/s);
    const gameId = gm.url().replace(/\?.*$/, '').split('/').pop()!;

    // Five players take the seats (the API); the game starts once every seat is taken.
    const players = await registeredBrowsers(server.app, 5);
    for (const player of players) expect((await player.request('POST', `/api/games/${gameId}/join`, {})).statusCode).toBe(200);
    const byPower = new Map<string, (typeof players)[number]>();
    for (const player of players) {
      const detail = (await player.request('GET', `/api/games/${gameId}`)).json();
      byPower.set(detail.players.find((s: { isYou: boolean }) => s.isYou).power, player);
    }
    expect(byPower.size).toBe(5);
    const campaign = (await players[0].request('GET', `/api/games/${gameId}`)).json().campaign;
    expect(campaign.fleets.Rome).toEqual([
      { class: 'trieres', count: 2 },
      { class: 'penteres', count: 6 },
      { class: 'hexeres', count: 1 },
    ]);

    // Rome's fleet from Neapolis and Macedonia's from Corinth both sail into the Ionian Sea; everyone is ready.
    const orders: Record<string, string> = { Rome: 'F Nea - ION', Macedonia: 'F Kor - ION' };
    for (const [power, player] of byPower) {
      const saved = await player.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: orders[power] ?? '', ready: true });
      expect(saved.statusCode, saved.body).toBe(200);
    }

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
    const phone = await browser.newPage(PHONE);
    const egypt = byPower.get('Egypt')!;
    // Egypt's player's session (signed up through the API) in the phone's browser.
    const [, sid] = /^sid=(.*)$/.exec(egypt.cookie!)!;
    await phone.context().addCookies([{ name: 'sid', value: sid, url: server.url }]);
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
});
