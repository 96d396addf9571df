/**
 * Standard, seven powers, end to end in Debian's Chromium against the real server: Austria's player creates the game
 * from the New game form (Standard offered with its power count and description), six others find it in the lobby
 * and take their seats, each enters an order by clicking on the map (Russia's player on a phone, through the bottom
 * sheet), everyone ticks Ready and the phase is processed: the results are on every board with their reasons (a
 * bounce in Galicia). Press goes privately from England to France and publicly from Russia's phone, the recipient
 * choices naming the six others; the supply panel lists seven powers; the sandbox plays Standard. Screenshots of
 * each screen at desktop and phone sizes go outside the repository (STANDARD_E2E_SHOTS, by default
 * /tmp/standard-e2e-screens).
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, LAPTOP, PHONE, hasChromium, launchBrowser, provincePoint, raiseSheet, sheetSettled, signUpThroughForm, tickReady } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const shots = process.env.STANDARD_E2E_SHOTS ?? '/tmp/standard-e2e-screens';
const PASSWORD = 'seven seas and seven powers';
const POWERS = ['Austria', 'England', 'France', 'Germany', 'Italy', 'Russia', 'Turkey'] as const;
type Power = (typeof POWERS)[number];
/** Russia's player plays on a phone held upright; the others at a laptop. */
const ON_PHONE: Power = 'Russia';

/** One order each, clicked on the map: a unit, Move, its target. Austria and Russia both go for Galicia and bounce. */
const MOVES: Record<Power, { unit: string; to: string; text: string }> = {
  Austria: { unit: 'vie', to: 'gal', text: 'A vie - gal' },
  England: { unit: 'lon', to: 'nth', text: 'F lon - nth' },
  France: { unit: 'par', to: 'bur', text: 'A par - bur' },
  Germany: { unit: 'mun', to: 'ruh', text: 'A mun - ruh' },
  Italy: { unit: 'rom', to: 'apu', text: 'A rom - apu' },
  Russia: { unit: 'war', to: 'gal', text: 'A war - gal' },
  Turkey: { unit: 'ank', to: 'bla', text: 'F ank - bla' },
};

if (!hasChromium) console.warn(`\n[e2e] SKIPPED: ${CHROMIUM} is missing. Install it with: apt-get install -y chromium\n`);

describe.skipIf(!hasChromium)('Standard in the browser, seven powers', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    rmSync(shots, { recursive: true, force: true });
    mkdirSync(shots, { recursive: true });
    // STANDARD_E2E_WEB_DIST: a client built elsewhere than the suite's dist/e2e-web (a run beside other suites').
    [server, browser] = await Promise.all([startServer(process.env.STANDARD_E2E_WEB_DIST || undefined), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const newPage = (viewport: { width: number; height: number } = LAPTOP) => browser.newPage(viewport);

  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000 });
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`) });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await browser.screenshotAll(shots, 'failed');
  });

  async function signUp(page: Page, username: string) {
    await signUpThroughForm(page, server.url, username, PASSWORD);
  }

  test('created from the New game form, seven players order on the map, results, press, supply, sandbox; desktop and phone', async () => {
    const tag = Date.now().toString(36).slice(-5);
    const name = `Table of seven ${tag}`;
    const pages = {} as Record<Power, Page>;
    await Promise.all(
      POWERS.map(async (power) => {
        pages[power] = await newPage(power === ON_PHONE ? PHONE : LAPTOP);
        await signUp(pages[power], `${power.slice(0, 4).toLowerCase()}_${tag}`);
      }),
    );

    // Austria's player creates the game: Standard is offered with its seven powers and its description.
    const austria = pages.Austria;
    await austria.getByRole('link', { name: 'New game' }).click();
    const standard = austria.locator('option', { hasText: /^\s*Standard — 7 powers\s*$/ });
    await standard.waitFor({ state: 'attached' });
    await expect(standard.isDisabled()).resolves.toBe(false);
    await austria.getByLabel('Variant').selectOption('standard');
    await austria
      .locator('#variant-about')
      .getByText(/seven powers/)
      .waitFor();
    await austria.getByLabel('Name', { exact: true }).fill(name);
    await austria.getByLabel("By players' preferences").check();
    // The seven powers to prefer, each a button on one screen.
    for (const power of POWERS) await austria.getByRole('button', { name: power, exact: true }).waitFor();
    await austria.getByRole('button', { name: 'Austria', exact: true }).click();
    await shot(austria, 'new-game-form');
    await austria.getByRole('button', { name: 'Create the game' }).click();
    await austria.getByRole('heading', { name }).waitFor();
    await austria.getByText(/^\s*Standard · waiting for players/).waitFor();
    const gameUrl = austria.url().replace(/\?.*$/, '');

    // The six others find it in the lobby's open games and take a seat, each asking for their power.
    for (const power of POWERS.slice(1)) {
      const page = pages[power];
      await page.goto(`${server.url}/?tab=open`);
      const card = page.locator('li.game', { hasText: name });
      await card.getByText(/Standard/).waitFor();
      if (power === 'England') await shot(page, 'lobby-open-games');
      await page.getByRole('link', { name }).click();
      await page.getByRole('button', { name: power, exact: true }).click();
      if (power === 'Turkey') await shot(page, 'game-page-six-seated');
      await page.getByRole('button', { name: 'Join this game' }).click();
      if (power !== 'Turkey') await page.getByRole('button', { name: 'Leave the game' }).waitFor();
    }

    // The seventh seat started the game: its page turns into the board. Then every board shows Spring 1901 with its
    // own power, 22 units on the map (each page opened once the game has started, one after another: seven boards
    // loading at once on a 2-core machine is a test of the machine, not of the product).
    await pages.Turkey.getByRole('heading', { name: 'Spring 1901 Movement' }).waitFor({ timeout: 60_000 });
    for (const power of POWERS) {
      const page = pages[power];
      if (!page.url().startsWith(gameUrl) || !(await page.locator('svg.dmap').count())) await page.goto(gameUrl);
      await page.getByRole('heading', { name: 'Spring 1901 Movement' }).waitFor({ timeout: 60_000 });
      await page.locator('svg.dmap g.unit').first().waitFor();
      await eventually(() => page.locator('svg.dmap g.unit').count()).toBe(22);
      await eventually(() => page.locator('.eyebrow .you').textContent()).toContain(power);
    }
    // Seven powers' statuses, each power named once.
    await eventually(() => austria.locator('.statuses li').count()).toBe(7);
    for (const power of POWERS) await expect(austria.locator('.statuses li', { hasText: power }).count()).resolves.toBe(1);
    await shot(austria, 'board-start');

    // Each orders on the map at a laptop: the unit, Move, the province.
    for (const power of POWERS.filter((p) => p !== ON_PHONE)) {
      const page = pages[power];
      const move = MOVES[power];
      await page.locator(`svg.dmap g.unit[data-unit="${move.unit}"]`).click();
      await page.getByRole('button', { name: /Move/ }).click();
      await eventually(() => page.locator('.target-outline').count()).toBeGreaterThan(0);
      const at = await provincePoint(page, move.to);
      await page.mouse.click(at.x, at.y);
      await eventually(() => page.locator('#orders-text').inputValue()).toBe(move.text);
      await page.getByRole('button', { name: 'Save orders' }).click();
      await eventually(() => page.locator('.order-list li.saved').count()).toBe(1);
      if (power === 'England') await shot(page, 'board-orders-desktop');
    }

    // Russia's player, on a phone: the board opens on Russia's own units; a tap on the army in Warsaw raises the
    // sheet with its actions, Move lowers it for the targets on the map, a tap on Galicia gives the order.
    const russia = pages.Russia;
    await sheetSettled(russia);
    await shot(russia, 'phone-board');
    for (const unit of ['mos', 'war', 'sev']) {
      const box = await russia.locator(`svg.dmap g.unit[data-unit="${unit}"]`).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, `Russia's unit in ${unit} in view`).toBe(true);
    }
    await russia.locator('svg.dmap g.unit[data-unit="war"]').tap();
    const move = russia.getByRole('button', { name: /Move/ });
    await eventually(async () => {
      const box = await move.boundingBox();
      return box !== null && box.y + box.height <= PHONE.height;
    }).toBe(true);
    await move.tap();
    await russia.getByRole('button', { name: 'Raise the panel' }).waitFor();
    await sheetSettled(russia);
    const galicia = await provincePoint(russia, 'gal');
    await russia.touchscreen.tap(galicia.x, galicia.y);
    await eventually(() => russia.locator('#orders-text').inputValue()).toBe(MOVES.Russia.text);
    await sheetSettled(russia);
    await shot(russia, 'phone-order-given');
    // Saved once the sheet is up and still, as a player taps it: not at the place the button is passing through.
    await raiseSheet(russia);
    await russia.getByRole('button', { name: 'Save orders' }).tap();
    await eventually(() => russia.locator('.order-list li.saved').count()).toBe(1);

    // Press before the phase ends: England writes privately to France, choosing among the six others.
    const england = pages.England;
    await england.getByRole('tab', { name: /Press/ }).click();
    await england.getByRole('button', { name: '+ New conversation' }).click();
    const choices = await england
      .locator('.picker input[type="checkbox"]')
      .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).labels?.[0]?.textContent?.trim() ?? ''));
    // The six other powers, and the private line to the game master every game has.
    expect(choices.map((c) => c.replace(/\s+/g, ' '))).toEqual([
      ...POWERS.filter((p) => p !== 'England').map((p) => expect.stringContaining(p)),
      'Game master',
    ]);
    await shot(england, 'press-recipients');
    await england.locator('.picker').getByLabel('France').check();
    await england.getByRole('button', { name: 'Open', exact: true }).click();
    await england.locator('#press-body').fill('The Channel stays empty this spring?');
    await england.getByRole('button', { name: 'Send' }).click();
    await england.locator('.messages li.own').getByText('The Channel stays empty').waitFor();
    const france = pages.France;
    await france.getByRole('tab', { name: /Press.*1 unread/ }).waitFor();
    await france.getByRole('tab', { name: /Press/ }).click();
    await france
      .locator('.conversations')
      .getByRole('button', { name: /England/ })
      .click();
    await france.locator('.messages').getByText('The Channel stays empty this spring?').waitFor();
    // Russia, on the phone, writes to everyone; Turkey reads it, and nothing of England's private line.
    await russia.getByRole('tab', { name: /Press/ }).tap();
    await russia
      .locator('.conversations')
      .getByRole('button', { name: /Public/ })
      .tap();
    await russia.locator('#press-body').fill('Russia wants peace in the Black Sea.');
    await russia.getByRole('button', { name: 'Send' }).tap();
    await russia.locator('.messages li.own').getByText('peace in the Black Sea').waitFor();
    await sheetSettled(russia);
    await shot(russia, 'phone-press');
    const turkey = pages.Turkey;
    await turkey.getByRole('tab', { name: /Press.*unread/ }).waitFor();
    await turkey.getByRole('tab', { name: /Press/ }).click();
    await turkey.locator('.messages').getByText('Russia wants peace in the Black Sea.').waitFor();
    await expect(turkey.getByText('The Channel stays empty').count()).resolves.toBe(0);
    await shot(england, 'press');

    // The supply panel: seven powers, three centres each but Russia's four.
    await austria.getByRole('tab', { name: 'Supply' }).click();
    await eventually(() => austria.locator('.supply tbody tr').count()).toBe(7);
    for (const power of POWERS)
      await eventually(() => austria.locator('.supply tbody tr', { hasText: power }).locator('td').nth(1).textContent()).toBe(power === 'Russia' ? '4' : '3');
    await shot(austria, 'supply-panel');
    await russia.getByRole('tab', { name: 'Supply' }).tap();
    await sheetSettled(russia);
    await shot(russia, 'phone-supply');

    // Everyone is ready: the phase is processed at once, and every board shows the results.
    for (const power of POWERS) {
      const page = pages[power];
      await page.getByRole('tab', { name: /Orders/ }).click();
      await tickReady(page, 'Spring 1901 Movement');
    }
    await Promise.all(POWERS.map((power) => pages[power].getByText('Results of Spring 1901 Movement').waitFor()));
    // Five moves succeeded; Austria's and Russia's armies bounced in Galicia, and say why.
    await eventually(() => austria.locator('svg.dmap .glyph.arrow.success').count()).toBe(5);
    await austria.locator('.results').getByRole('button', { name: 'Bounced A vie - gal' }).click();
    await austria.locator('.results .reason').getByText("Bounced: attack strength 1 against 1 from Russia's army in Warsaw.").waitFor();
    await shot(austria, 'results-desktop');
    await sheetSettled(russia);
    await shot(russia, 'phone-results');

    // The next phase's units stand where the results put them.
    await austria.getByRole('button', { name: 'After' }).waitFor();
    await eventually(() => austria.locator('svg.dmap g.unit[data-unit="nth"]').count()).toBe(1);
    await eventually(() => austria.locator('svg.dmap g.unit[data-unit="vie"]').count()).toBe(1);

    // The lobby lists the game, in Standard, among my games.
    await austria.goto(`${server.url}/?tab=mine`);
    await austria
      .locator('li.game', { hasText: name })
      .getByText(/Standard/)
      .waitFor();
    await shot(austria, 'lobby-my-games');

    // The sandbox plays Standard: its 22 units, and a move adjudicated.
    await austria.getByRole('link', { name: 'Sandbox', exact: true }).click();
    await austria.getByRole('combobox', { name: 'Map', exact: true }).selectOption('standard');
    await austria.getByRole('heading', { name: 'Spring 1901 Movement' }).waitFor();
    await eventually(() => austria.locator('svg.dmap g.unit').count()).toBe(22);
    await austria.locator('#orders-text').fill('A vie - gal');
    await austria.getByRole('button', { name: 'Adjudicate' }).click();
    await eventually(() => austria.locator('svg.dmap .glyph.arrow.success').count()).toBe(1);
    await shot(austria, 'sandbox');
    await austria.setViewportSize(PHONE);
    await sheetSettled(austria);
    await shot(austria, 'phone-sandbox');

    expect(browser.consoleErrors).toEqual([]);
  });
});
