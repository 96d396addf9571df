/**
 * The web client end to end, in Debian's Chromium against the real server and
 * a real database:
 * 1. a player's first evening: sign up, log out, log in, create a game, the
 *    lobby, a sandbox phase (orders clicked on the map and typed, adjudicated);
 * 2. a whole Diadochi V table: five players sign up and seat themselves, orders
 *    by clicking and by typing, a refusal explained, a draft kept across a
 *    reload, ready, early processing, arrows; press private and public, live;
 *    the supply panel and a loan; the game master's deadline change seen by
 *    all; the history slider; my games in the lobby; a phone-width pass; the
 *    game master, who plays Rome, asks to process Fall now and the others agree
 *    on their boards; a draw by votes, the game re-opened and ended by the game
 *    master with the players' consent, its result made final; the archive.
 * Screenshots of the main screens go to tests/e2e/screenshots/ (git-ignored).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ConsoleMessage, Page } from 'playwright-core';
import { CHROMIUM, PHONE, hasChromium, launchBrowser, provincePoint, raiseSheet, sheetSettled, signUpThroughForm, tickReady } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';
import { startGame } from '../server/helpers/play.ts';

const shots = path.join(import.meta.dirname, 'screenshots');
const PASSWORD = 'a long and winding road';

if (!hasChromium) console.warn(`\n[e2e] SKIPPED: ${CHROMIUM} is missing. Install it with: apt-get install -y chromium\n`);

describe.skipIf(!hasChromium)('in the browser', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    rmSync(shots, { recursive: true, force: true }); // only this run's screens
    mkdirSync(shots, { recursive: true });
    // As in production, an ended game's result becomes final a day later: until then the game master may re-open it.
    // The test provokes refusals (422, and 403 to a wrong current password) on purpose: the browser logs those
    // responses, the page expects them. Nothing else: a visitor's who-am-I is answered (not refused), and a game
    // still forming is not asked for a phase it has not got.
    const expected = (m: ConsoleMessage) =>
      m.text().includes('status of 422') || (m.text().includes('status of 403') && m.location().url.endsWith('/api/auth/password'));
    [server, browser] = await Promise.all([startServer(undefined, { finalAfterMs: 24 * 3600_000 }), launchBrowser({ expected })]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const newPage = (viewport?: { width: number; height: number }) => browser.newPage(viewport);

  /**
   * Each of `players` agrees, on their own board, to what the game master (who also plays) asked: the request is
   * shown to each as a notice with Agree / Refuse. The last agreement carries it out.
   */
  async function agreeAll(players: Page[], asked: string) {
    for (const page of players) {
      const notice = page.locator('.notice.ask');
      await notice.getByText(`The game master (who also plays) asks to ${asked}.`).waitFor();
      await notice.getByRole('button', { name: 'Agree' }).click();
      await notice.waitFor({ state: 'detached' });
    }
  }
  /** The page catches up in its own time, more slowly under load: poll instead of reading once. */
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`) });
  /** Every open page, when a test fails: what each player saw (tests/e2e/screenshots/failed-*.png). */
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await browser.screenshotAll(shots, 'failed');
  });

  async function signUp(page: Page, username: string) {
    await signUpThroughForm(page, server.url, username, PASSWORD);
  }

  /** Log in on the log-in page (the caller waits for what it expects next). */
  async function logIn(page: Page, username: string, password = PASSWORD) {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  /** Log out from the header, then in again as `username`. */
  async function logOutAndIn(page: Page, username: string, password = PASSWORD) {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).first().waitFor();
    await logIn(page, username, password);
    await page.locator('.who').waitFor();
  }

  /** Click a province on the map where it is visible (not under a counter or a label), as a player would. */
  async function clickProvinceOnMap(page: Page, province: string) {
    const point = await provincePoint(page, province);
    await page.mouse.click(point.x, point.y);
  }

  test('sign up, log in, lobby, sandbox orders by click and by typing, adjudicate, arrows', async () => {
    const page = await newPage();
    const username = `e2e_${Date.now().toString(36)}`;
    await signUp(page, username);
    await eventually(() => page.locator('.who').textContent()).toBe(username);

    // Log out, then log in again.
    await logOutAndIn(page, username);

    // The account page, from the name in the header: a new password (after a wrong current one), and an API token shown once.
    const newPassword = 'the new passphrase';
    await page.locator('.who').click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('New password again').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Current password is wrong.').waitFor();
    // The refused field has the focus, its error read out with it.
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('currentPassword');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed.').waitFor();
    await page.getByLabel("New token's name").fill('my bot');
    await page.getByRole('button', { name: 'Create token' }).click();
    // The new token takes the focus, selected, ready to copy.
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('The new API token');
    const token = await page.getByLabel('The new API token').inputValue();
    expect(token).toMatch(/^dip_/);
    const asBot = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await asBot.json()).user.username).toBe(username);
    await page.getByRole('cell', { name: 'my bot', exact: true }).waitFor();
    await page.getByLabel('The new API token').scrollIntoViewIfNeeded();
    await shot(page, 'account');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke my bot' }).click();
    await page.getByText('You have no API tokens.').waitFor();
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('token-name');
    expect((await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    // The new password is the one that logs in now.
    await logOutAndIn(page, username, newPassword);

    // Create a game with a few settings changed, then see it in the lobby.
    await page.getByRole('link', { name: 'New game' }).click();
    // Every variant the client draws is offered (tests/e2e/standard.e2e.ts plays Standard).
    await page.locator('option', { hasText: 'Diadochi V' }).waitFor({ state: 'attached' });
    await eventually(() => page.locator('option', { hasText: 'Standard' }).isDisabled()).toBe(false);
    await page.getByLabel('Name', { exact: true }).fill("The Successors' War");
    await page.getByLabel('Public only').check();
    await page.getByLabel("By players' preferences").check();
    await page.getByRole('button', { name: 'Macedonia' }).click();
    await page.getByRole('button', { name: 'Create the game' }).click();
    await page.getByRole('heading', { name: "The Successors' War" }).waitFor();
    await eventually(() => page.getByText('Public press only').count()).toBeGreaterThan(0);

    // A Standard game, started through the API: its own board, with Standard's 22 units (not the Diadochi map).
    const classic = await startGame(server.app, { variant: 'standard', name: 'Classic by API' });
    await page.goto(`${server.url}/games/${classic.gameId}`);
    await page.getByRole('heading', { name: 'Spring 1901 Movement' }).waitFor();
    await eventually(() => page.locator('svg.dmap g.unit').count()).toBe(22);

    // The sandbox: the initial position of Diadochi V.
    await page.getByRole('link', { name: 'Sandbox', exact: true }).click();
    await page.getByRole('heading', { name: 'Spring 240 BC Movement' }).waitFor();
    await page.locator('svg.dmap g.unit').first().waitFor();
    await eventually(() => page.locator('svg.dmap g.unit').count()).toBe(17);

    // The drawing's own lines (coasts, rivers, passages, coast ticks) take no clicks: a click on one reaches the province beneath.
    const caught = await page.evaluate(() => {
      let hits = 0;
      let samples = 0;
      for (const shape of Array.from(
        document.querySelectorAll<SVGGeometryElement>('svg.dmap .static-over :is(path, line, polyline, polygon, circle, ellipse, rect)'),
      )) {
        const toScreen = shape.getScreenCTM();
        if (!toScreen) continue;
        const length = shape.getTotalLength();
        for (let k = 0; k < 4; k++) {
          const point = shape.getPointAtLength((length * (k + 0.5)) / 4).matrixTransform(toScreen);
          if (point.x < 0 || point.y < 0 || point.x >= innerWidth || point.y >= innerHeight) continue;
          samples++;
          if (document.elementFromPoint(point.x, point.y)?.closest('.static-over')) hits++;
        }
      }
      return { hits, samples };
    });
    expect(caught.samples).toBeGreaterThan(50);
    expect(caught.hits).toBe(0);

    // By clicking: the Roman army in Ravenna moves to Cisalpina.
    await page.locator('svg.dmap g.unit[data-unit="Rav"]').click();
    await page.getByRole('button', { name: /Move/ }).click();
    await eventually(() => page.locator('.target-outline').count()).toBeGreaterThan(0);
    await clickProvinceOnMap(page, 'Cis');
    await eventually(() => page.locator('#orders-text').inputValue()).toBe('A Rav - Cis');

    // By keyboard: focus the army in Brudisium, M, and the first target in the list gets the focus; Enter picks it.
    await page.locator('svg.dmap g.unit[data-unit="Bru"]').focus();
    await page.keyboard.press('m');
    await expect(page.evaluate(() => document.activeElement?.closest('.targets') !== null)).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await eventually(() => page.locator('#orders-text').inputValue()).toBe('A Rav - Cis\nA Bru - Ben');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-unit'))).resolves.toBe('Bru');

    // By typing: Carthage's army in Hadrumetum to Numidia, and a bad line that is explained.
    await page.getByRole('button', { name: /^Carthage/ }).click();
    await page.locator('#orders-text').fill('A Had - Num\nA Gad - Rom');
    await page.locator('.order-list li.bad .reason').waitFor();
    await eventually(() => page.locator('svg.dmap .glyph.arrow').count()).toBe(3);

    await page.getByRole('button', { name: 'Adjudicate' }).click();
    await page.locator('.results').waitFor();
    await eventually(() => page.locator('svg.dmap .glyph.arrow.success').count()).toBe(3);
    await page.getByRole('button', { name: /Moved\s+A Rav - Cis/ }).click();
    await page.locator('.results .reason').getByText('Moved to Cisalpine Gaul.').waitFor();
    await shot(page, 'sandbox');

    await page.getByRole('button', { name: /Continue/ }).click();
    await page.getByRole('heading', { name: 'Fall 240 BC Movement' }).waitFor();
    await page.locator('svg.dmap g.unit[data-unit="Cis"]').waitFor();

    await page.setViewportSize(PHONE);
    await sheetSettled(page);
    await shot(page, 'phone-sandbox');
    await page.context().close();
    expect(browser.consoleErrors).toEqual([]);
  });

  test('five players play a Diadochi V phase: orders, ready, results, press, supply and a loan, the game master, history, phone', async () => {
    const tag = Date.now().toString(36).slice(-5);
    const powers = ['Rome', 'Carthage', 'Egypt', 'Macedonia', 'Syria'] as const;
    const pages = {} as Record<(typeof powers)[number], Page>;
    const name = `Diadochi ${tag}`;

    // Five players sign up, each in their own browser profile.
    await Promise.all(
      powers.map(async (power) => {
        pages[power] = await newPage();
        await signUp(pages[power], `${power.slice(0, 4).toLowerCase()}_${tag}`);
      }),
    );

    // Rome's player creates the game (and masters it), wanting Rome; powers by preference.
    const rome = pages.Rome;
    await rome.getByRole('link', { name: 'New game' }).click();
    await rome.getByLabel('Name', { exact: true }).fill(name);
    await rome.getByLabel("By players' preferences").check();
    await rome.getByRole('button', { name: 'Rome' }).click();
    await rome.getByRole('button', { name: 'Create the game' }).click();
    await rome.getByRole('heading', { name }).waitFor();
    const gameUrl = rome.url().replace(/\?.*$/, '');

    // The others find it in the lobby and take a seat, each asking for their power.
    for (const power of powers.slice(1)) {
      const page = pages[power];
      await page.goto(`${server.url}/?tab=open`); // the lobby opens on my games; the new game is under Open to join
      await page.getByRole('link', { name }).click();
      await page.getByRole('button', { name: power, exact: true }).click();
      await page.getByRole('button', { name: 'Join this game' }).click();
      if (power !== 'Syria') await page.getByRole('button', { name: 'Leave the game' }).waitFor();
    }

    // The last seat started the game: everyone is on the board of Spring 240 BC.
    await Promise.all(
      powers.map(async (power) => {
        const page = pages[power];
        if (!page.url().startsWith(gameUrl) || !(await page.locator('svg.dmap').count())) await page.goto(gameUrl);
        await page.getByRole('heading', { name: 'Spring 240 BC Movement' }).waitFor();
        await page.locator('svg.dmap g.unit').first().waitFor();
        await eventually(() => page.locator('.eyebrow .you').textContent()).toContain(power);
      }),
    );
    // Opening the board again: the page's three first reads are each asked for once (sent by the first,
    // tiny script, before the app's own script has arrived), and scripts come brotli-compressed, kept for good.
    {
      const egypt = pages.Egypt;
      const scripts: Record<string, string>[] = [];
      const onResponse = async (r: { url(): string; allHeaders(): Promise<Record<string, string>> }) => {
        if (/\/assets\/.*\.js$/.test(r.url())) scripts.push(await r.allHeaders());
      };
      egypt.on('response', onResponse);
      await egypt.goto(gameUrl);
      await egypt.waitForFunction(() => performance.getEntriesByName('map-interactive').length > 0);
      egypt.off('response', onResponse);
      const gamePath = new URL(gameUrl).pathname.replace('/games/', '/api/games/');
      const firstReads = ['/api/auth/me', gamePath, `${gamePath}/phases/current`];
      // The new document's own resource timings, in the order asked: the page being left may still read (its tabs'
      // data, or its game again on a live event about another player's move) and the browser may report those
      // requests after the new page commits, but they are never in this document's timings.
      const apiReads = await egypt.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((r) => new URL(r.name).pathname.startsWith('/api/'))
          .sort((a, b) => a.startTime - b.startTime)
          .map((r) => ({ path: new URL(r.name).pathname, start: r.startTime })),
      );
      const firstThree = apiReads.slice(0, 3).map((r) => r.path);
      expect(firstThree.sort()).toEqual([...firstReads].sort());
      // Each asked for once before the map is up (the reads started before the page's mark); the board reads the
      // game and its phase once more after it, once the server listens for the page (an event between the first read
      // and the subscription is not lost).
      const mark = await egypt.evaluate(() => performance.getEntriesByName('map-interactive')[0].startTime);
      const readBeforeMap = apiReads.filter((r) => r.start < mark).map((r) => r.path);
      for (const read of firstReads)
        expect(
          readBeforeMap.filter((p) => p === read),
          read,
        ).toHaveLength(1);
      const big = scripts.filter((h) => h['content-encoding']);
      expect(big.length).toBeGreaterThan(0);
      for (const headers of big) {
        expect(headers['content-encoding']).toBe('br');
        expect(headers['cache-control']).toContain('immutable');
      }
      // The first script is named by index.html, not by its content: checked again on every visit, like index.html.
      const preload = await egypt.request.get(`${server.url}/preload-board.js`);
      expect(preload.status()).toBe(200);
      expect(preload.headers()['cache-control']).toBe('no-cache');
      expect(await egypt.evaluate(() => Array.from(document.scripts, (s) => new URL(s.src).pathname)[0])).toBe('/preload-board.js');
      // The scripts the map waits for leave zod out (about 95 KB the browser would compile and run first): the
      // board takes the server's positions as typed, and the schemas load later with the tabs that need them.
      const beforeMap = await egypt.evaluate(() => {
        const shown = performance.getEntriesByName('map-interactive')[0].startTime;
        return performance
          .getEntriesByType('resource')
          .filter((e) => e.startTime < shown && new URL(e.name).pathname.endsWith('.js'))
          .map((e) => new URL(e.name).pathname);
      });
      expect(beforeMap.length).toBeGreaterThan(2);
      for (const script of beforeMap)
        expect((await (await egypt.request.get(`${server.url}${script}`)).text()).includes('ZodObject'), `zod in ${script}`).toBe(false);
    }

    // The deadline in the player's own time (a weekday and a clock time), then the time left.
    await eventually(() => rome.locator('.deadline').textContent()).toMatch(/Orders due \S.*\d\d:\d\d.* \(.* left\)/);

    // Rome orders by clicking on the map: the army in Ravenna to Cisalpine Gaul.
    await rome.locator('svg.dmap g.unit[data-unit="Rav"]').click();
    await rome.getByRole('button', { name: /Move/ }).click();
    await clickProvinceOnMap(rome, 'Cis');
    await eventually(() => rome.locator('#orders-text').inputValue()).toBe('A Rav - Cis');
    // … and by keyboard: the army in Brudisium holds.
    await rome.locator('svg.dmap g.unit[data-unit="Bru"]').focus();
    await rome.keyboard.press('h');
    await eventually(() => rome.locator('#orders-text').inputValue()).toBe('A Rav - Cis\nA Bru H');
    await rome.getByText('Unsaved changes').waitFor();
    await rome.getByRole('button', { name: 'Save orders' }).click();
    // One list of the orders, each line marked saved; no second copy of them under the box.
    await eventually(() => rome.locator('.order-list li.saved').count()).toBe(2);
    await expect(rome.locator('.verdict').count()).resolves.toBe(0);
    await shot(rome, 'map-with-orders');

    // Carthage types, and the server refuses an order it cannot carry out, saying why under the line.
    const carthage = pages.Carthage;
    await carthage.locator('#orders-text').fill('A Had - Num\nA Gad - Rom');
    await carthage.getByRole('button', { name: 'Save orders' }).click();
    await carthage.locator('.verdict').getByText('Refused: nothing was saved').waitFor();
    await eventually(() => carthage.locator('.verdict li.bad .reason').textContent()).toMatch(/Rome/);
    // The draft survives a reload, and says so.
    await carthage.locator('#orders-text').fill('A Had - Num');
    await carthage.reload();
    await carthage.getByText('Your unsaved draft from before was restored.').waitFor();
    await eventually(() => carthage.locator('#orders-text').inputValue()).toBe('A Had - Num');
    await carthage.getByRole('button', { name: 'Save orders' }).click();
    await eventually(() => carthage.locator('.order-list li.saved').count()).toBe(1);

    // Everyone sees who has ordered (never what); Rome's status reached the others live.
    await pages.Egypt.locator('.statuses li', { hasText: 'Rome' }).getByText('orders in').waitFor();

    // Press: Rome writes privately to Carthage; Carthage sees an unread badge, live, and answers in public.
    await rome.getByRole('tab', { name: /Press/ }).click();
    await rome.getByRole('button', { name: '+ New conversation' }).click();
    await rome.locator('.picker').getByLabel('Carthage').check();
    await rome.getByRole('button', { name: 'Open', exact: true }).click();
    await rome.locator('#press-body').fill('Shall we divide Sicily between us?');
    await rome.getByRole('button', { name: 'Send' }).click();
    await rome.locator('.messages li.own').getByText('Shall we divide Sicily').waitFor();
    await carthage.getByRole('tab', { name: /Press.*1 unread/ }).waitFor();
    await carthage.getByRole('tab', { name: /Press/ }).click();
    await carthage.locator('.conversations').getByRole('button', { name: /Rome/ }).click();
    await carthage.locator('.messages').getByText('Shall we divide Sicily between us?').waitFor();
    await carthage
      .locator('.conversations')
      .getByRole('button', { name: /Public/ })
      .click();
    await carthage.locator('#press-body').fill('Carthage wishes all of you a calm spring.');
    await carthage.getByRole('button', { name: 'Send' }).click();
    await pages.Syria.getByRole('tab', { name: /Press.*unread/ }).waitFor();
    await pages.Syria.getByRole('tab', { name: /Press/ }).click();
    await pages.Syria.locator('.messages').getByText('calm spring').waitFor();
    await expect(pages.Syria.locator('.conversations button:not(.new)').allTextContents()).resolves.toEqual([expect.stringMatching(/^\s*Public: everyone/)]);
    // Egypt was not in the private conversation: only the public message reached it.
    await pages.Egypt.getByRole('tab', { name: /Press.*1 unread/ }).waitFor();
    await pages.Egypt.getByRole('tab', { name: /Press/ }).click();
    await pages.Egypt.locator('.messages').getByText('calm spring').waitFor();
    await eventually(() => pages.Egypt.getByText('Shall we divide Sicily').count()).toBe(0);
    await shot(rome, 'press');

    // The supply panel, and a loan: refused with the rules' reason before anything is sent, then one made.
    await rome.getByRole('tab', { name: 'Supply' }).click();
    await eventually(() => rome.locator('.supply tbody tr', { hasText: 'Rome' }).locator('td').nth(1).textContent()).toBe('6');
    await rome.getByLabel('Lend the centre').selectOption('Rom');
    await rome.getByLabel('to', { exact: true }).selectOption('Carthage');
    await rome
      .locator('#lend-refusal')
      .getByText(/^Not possible: Rome would keep supply for \d+ units but has \d+/)
      .waitFor();
    await expect(rome.getByRole('button', { name: 'Lend', exact: true }).isDisabled()).resolves.toBe(true);
    await rome.getByLabel('Lend the centre').selectOption('Nea');
    await rome.locator('#lend-refusal').waitFor({ state: 'detached' });
    await rome.getByRole('button', { name: 'Lend', exact: true }).click();
    // A loan is made on a second click, once what it does is said.
    await rome.getByText(/^Lend Neapolis to Carthage\? From the next adjustment/).waitFor();
    await rome.getByRole('button', { name: 'Lend it' }).click();
    await rome.getByText('Lent Neapolis to Carthage').waitFor();
    // Ending a loan asks first; kept, it stays.
    await rome.getByRole('button', { name: 'End this loan… (Neapolis, Rome to Carthage)' }).click();
    await rome.getByText('End it now?').waitFor();
    await rome.getByRole('button', { name: 'Keep it' }).click();
    await rome.getByRole('button', { name: 'End this loan… (Neapolis, Rome to Carthage)' }).waitFor();
    await rome.getByRole('button', { name: 'Rome', exact: true }).click();
    await rome.getByText(/Lent out:.*Neapolis → Carthage/).waitFor();
    // The table's marks are explained under it.
    await rome.getByText(/Loans: ↗ centres lent out, ↙ centres borrowed/).waitFor();
    await expect(rome.locator('.supply tbody tr', { hasText: 'Rome' }).locator('.loans').textContent()).resolves.toContain('↗1');
    await shot(rome, 'supply-panel');

    // The game master (Rome's player) extends the deadline, with a confirmation; everyone is told.
    await rome.getByRole('tab', { name: 'Game' }).click();
    await rome.getByRole('button', { name: 'Change the deadline…' }).click();
    await rome.getByRole('button', { name: 'Confirm' }).click();
    await rome
      .locator('.log [data-action="change-deadline"]')
      .getByText(/Moved the deadline of Spring 240 BC Movement 1 day later/)
      .waitFor();
    await pages.Macedonia.locator('.notice.warn').getByText('The deadline changed').waitFor();
    await pages.Macedonia.getByRole('tab', { name: 'Game' }).click();
    await pages.Macedonia.locator('.log [data-action="change-deadline"]').first().waitFor();
    await eventually(() => pages.Macedonia.getByRole('button', { name: 'Process now…' }).count()).toBe(0);
    // A draw vote, public: Macedonia sees it at once.
    await rome.getByRole('button', { name: 'Vote for a draw…' }).click();
    await rome.getByText(/^Vote for a draw shared by every survivor \(Carthage, Egypt, Macedonia, Rome, Syria\)\?/).waitFor();
    await rome.getByRole('button', { name: 'Yes, vote for a draw' }).click();
    await rome.getByRole('button', { name: 'Withdraw my draw vote' }).waitFor();
    await pages.Macedonia.getByText('For a draw: Rome (1 of 5)').waitFor();
    await rome.evaluate(() => document.querySelector('.gm')?.scrollIntoView({ block: 'start' }));
    await shot(rome, 'gm-view');

    const phaseApi = `${new URL(gameUrl).pathname.replace('/games/', '/api/games/')}/phases/current`;
    const onServer = (power: string) =>
      rome.evaluate(async ([url, p]) => (await (await fetch(url)).json()).powers.find((line: { power: string }) => line.power === p), [
        phaseApi,
        power,
      ] as const);
    // Carthage ticks Ready with an order the server refuses: nothing is saved, and the box does not stay ticked.
    await carthage.getByRole('tab', { name: /Orders/ }).click();
    await carthage.locator('#orders-text').fill('A Had - Num\nA Gad - Rom');
    await carthage.getByLabel('Ready').click();
    await carthage.locator('.verdict').getByText('Refused: nothing was saved').waitFor();
    await eventually(() => carthage.getByLabel('Ready').isChecked()).toBe(false);
    await expect(onServer('Carthage')).resolves.toMatchObject({ ready: false });
    await carthage.locator('#orders-text').fill('A Had - Num');
    // Egypt is ready, then changes its orders: the edit withdraws Ready at once, so the phase cannot go ahead without them.
    const egypt = pages.Egypt;
    await egypt.getByRole('tab', { name: /Orders/ }).click();
    await egypt.getByLabel('Ready').click();
    await eventually(() => onServer('Egypt')).toMatchObject({ ready: true });
    await egypt.locator('#orders-text').fill('F Alx H');
    await egypt.getByText('you are no longer ready').waitFor();
    await eventually(() => onServer('Egypt')).toMatchObject({ ready: false });
    await expect(egypt.getByLabel('Ready').isChecked()).resolves.toBe(false);
    // The game master plays Rome: a player first, who enters no orders for other powers, and is told why.
    await rome.locator('#gm-no-orders').getByText('You play Rome in this game, so you enter no orders for other powers').waitFor();
    await expect(rome.getByRole('button', { name: 'Enter orders…' }).count()).resolves.toBe(0);

    // Everyone is ready: the phase is processed at once, and every board shows the results.
    for (const power of powers) {
      const page = pages[power];
      await page.getByRole('tab', { name: /Orders/ }).click();
      await tickReady(page, 'Spring 240 BC Movement');
    }
    await Promise.all(powers.map((power) => pages[power].getByText('Results of Spring 240 BC Movement').waitFor()));
    // The last to tick Ready had the focus on the box, which went with the orders: the heading of the results has it.
    await eventually(() => pages[powers.at(-1)!].evaluate(() => document.activeElement?.textContent)).toBe('Spring 240 BC Movement results');
    // With the results, when the next orders are due.
    // Inside the live region: a screen reader announces it.
    await expect(rome.locator('.notices[role="status"] .notice.next').textContent()).resolves.toMatch(
      /Orders for Fall 240 BC Movement ▸\s*Due .+ \(.+ left\)\./,
    );
    await eventually(() => rome.locator('svg.dmap .glyph.arrow.success').count()).toBe(2);
    await rome.locator('svg.dmap .glyph.arrow.success').first().click();
    await rome.locator('.results .reason').first().waitFor();
    await shot(rome, 'results');
    // The phase as a DATC case, made in the browser by the engine from what the server recorded.
    const [download] = await Promise.all([rome.waitForEvent('download'), rome.getByRole('button', { name: 'This phase as a DATC case' }).click()]);
    const datc = await readFile((await download.path())!, 'utf8');
    expect(datc).toMatch(/Spring 240 BC, Movement/);
    expect(datc).toMatch(/Rome: A Rav - Cis/);

    // On to Fall: the army stands in Cisalpine Gaul, orders are due again.
    await rome.getByRole('button', { name: /Orders for Fall 240 BC Movement/ }).click();
    await rome.getByRole('heading', { name: 'Fall 240 BC Movement' }).waitFor();
    // The button went with the notice: the focus is on the heading naming the phase now shown, not lost to the page.
    await eventually(() => rome.evaluate(() => document.activeElement?.textContent)).toBe('Fall 240 BC Movement');
    await rome.locator('svg.dmap g.unit[data-unit="Cis"]').waitFor();
    await eventually(() => rome.locator('#orders-text').inputValue()).toBe('');
    // The game master moves Fall's deadline: every open board stays on Fall (it went back to the phase it was opened on).
    await carthage.getByRole('button', { name: /Orders for Fall 240 BC Movement/ }).click();
    await carthage.getByRole('heading', { name: 'Fall 240 BC Movement' }).waitFor();
    await rome.getByRole('tab', { name: 'Game' }).click();
    await rome.getByRole('button', { name: 'Change the deadline…' }).click();
    await rome.getByRole('button', { name: 'Confirm' }).click();
    await carthage.locator('.notice.warn').getByText('The deadline changed').last().waitFor();
    await carthage.waitForTimeout(500);
    for (const page of [rome, carthage]) {
      await expect(page.getByRole('heading', { name: 'Spring 240 BC Movement' }).count()).resolves.toBe(0);
      await page.getByRole('heading', { name: 'Fall 240 BC Movement' }).waitFor();
    }
    await rome.getByRole('tab', { name: /Orders/ }).click();
    // Log out with unsaved orders asks first; Cancel keeps the player logged in, on the board.
    await carthage.getByRole('tab', { name: /Orders/ }).click();
    await carthage.locator('#orders-text').fill('A Had H');
    carthage.once('dialog', (dialog) => void dialog.dismiss());
    await carthage.getByRole('button', { name: 'Log out' }).click();
    await carthage.waitForTimeout(300);
    await expect(carthage.evaluate(async () => (await (await fetch('/api/auth/me')).json()).user !== null)).resolves.toBe(true);
    await carthage.getByRole('button', { name: 'Log out' }).waitFor();
    await carthage.locator('#orders-text').fill('');

    // The open phase's orders lead back to the results before it; the history slider replays the first phase:
    // its position and its arrows.
    await rome.getByRole('button', { name: '◂ Results of Spring 240 BC Movement' }).click();
    await rome.getByRole('heading', { name: /Spring 240 BC Movement/ }).waitFor();
    await eventually(() => rome.evaluate(() => document.activeElement?.textContent)).toBe('Spring 240 BC Movement results');
    await rome.getByRole('button', { name: 'Next phase' }).click();
    await rome.getByRole('heading', { name: 'Fall 240 BC Movement' }).waitFor();
    // At the last phase the button is unavailable but keeps the focus, which a disabled button would drop.
    await expect(rome.getByRole('button', { name: 'Next phase' }).getAttribute('aria-disabled')).resolves.toBe('true');
    await eventually(() => rome.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Next phase');
    await rome.getByRole('button', { name: 'Previous phase' }).click();
    await rome.getByRole('heading', { name: /Spring 240 BC Movement/ }).waitFor();
    // Results show the position the phase led to (Ravenna's army in Cisalpina), and Before the one it began from.
    await rome.locator('svg.dmap g.unit[data-unit="Cis"]').waitFor();
    await rome.getByRole('button', { name: 'Before', exact: true }).click();
    await rome.locator('svg.dmap g.unit[data-unit="Rav"]').waitFor();
    await rome.getByRole('button', { name: 'After', exact: true }).click();
    await rome.locator('svg.dmap g.unit[data-unit="Cis"]').waitFor();
    await eventually(() => rome.locator('svg.dmap .glyph.arrow.success').count()).toBe(2);
    // A click on a unit there opens the result of its order, with the reason.
    const held = rome.locator('.results').getByText('Held.', { exact: true });
    await expect(held.count()).resolves.toBe(0);
    await rome.locator('svg.dmap g.unit[data-unit="Bru"]').click();
    await held.waitFor();
    await rome.getByRole('slider', { name: 'Phase' }).fill('1');
    await rome.getByRole('heading', { name: 'Fall 240 BC Movement' }).waitFor();

    // My games: orders are due in this game, so it says so first.
    await rome.goto(`${server.url}/?tab=mine`);
    await rome.locator('.game.due').getByText('Orders due').waitFor();
    await shot(rome, 'lobby');

    // A phone held upright: the board with its bottom sheet.
    const phone = await newPage(PHONE);
    await logIn(phone, `egyp_${tag}`);
    await phone.locator('.who').waitFor({ state: 'attached' });
    await phone.goto(gameUrl);
    await phone.locator('svg.dmap g.unit').first().waitFor();
    await phone.locator('svg.dmap g.unit[data-unit="Alx"]').tap();
    // The sheet rises with the unit's actions, on screen without scrolling; the order given, it goes down again.
    const hold = phone.getByRole('button', { name: /Hold/ });
    await eventually(async () => {
      const box = await hold.boundingBox();
      return box !== null && box.y + box.height <= PHONE.height;
    }).toBe(true);
    await hold.tap();
    await phone.getByRole('button', { name: 'Raise the panel' }).waitFor();
    await eventually(() => phone.locator('#orders-text').inputValue()).toBe('F Alx H');
    // The sheet's lowering is animated: the picture waits for it to settle.
    await sheetSettled(phone);
    await shot(phone, 'phone-game');
    await raiseSheet(phone);
    await phone.getByRole('tab', { name: 'Supply' }).tap();
    await sheetSettled(phone);
    await shot(phone, 'phone-supply');

    // On to an adjustment. The game master plays Rome, so processing Fall now needs the others' consent: asked,
    // each agrees on their own board, and the last agreement processes it (units hold). Then builds in Winter 240 BC.
    await rome.goto(gameUrl);
    await rome.getByRole('heading', { name: 'Fall 240 BC Movement' }).waitFor();
    await rome.getByRole('tab', { name: 'Game' }).click();
    await rome.getByRole('button', { name: 'Ask the other players to process now…' }).click();
    await rome.getByText(/Nothing is done yet: Carthage, Egypt, Macedonia and Syria are asked/).waitFor();
    await rome.getByRole('button', { name: 'Ask them' }).click();
    await rome.locator('.gm .request').getByText('Still to answer: Carthage, Egypt, Macedonia and Syria.').waitFor();
    // The request, as the players see it on the board: at desktop width, and on Egypt's phone.
    await pages.Egypt.locator('.notice.ask').waitFor();
    await shot(pages.Egypt, 'consent-asked');
    await phone.locator('.notice.ask').waitFor();
    await sheetSettled(phone);
    await shot(phone, 'phone-consent-asked');
    const others = [pages.Carthage, pages.Egypt, pages.Macedonia, pages.Syria];
    await agreeAll(others.slice(0, 1), 'process Fall 240 BC Movement now');
    await pages.Carthage.getByText('You agreed to let the game master process Fall 240 BC Movement now; it waits for Egypt, Macedonia and Syria.').waitFor();
    await rome.locator('.gm .request').getByText('Agreed: Carthage. Still to answer: Egypt, Macedonia and Syria.').waitFor();
    await agreeAll(others.slice(1), 'process Fall 240 BC Movement now');
    await Promise.all([
      ...powers.map((power) => pages[power].getByText('Results of Fall 240 BC Movement').waitFor()),
      phone.getByText('Results of Fall 240 BC Movement').waitFor(),
    ]);
    await pages.Egypt.getByText("All the players asked agreed: the game master's request to process Fall 240 BC Movement now was carried out.").waitFor();
    await rome.getByText('Every other player agreed: your request to process Fall 240 BC Movement now was carried out.').waitFor();
    await shot(pages.Egypt, 'consent-carried-out');
    await eventually(() => rome.locator('.log [data-action="process-now"]').first().textContent()).toMatch(
      /^Processed Fall 240 BC Movement before its deadline; Winter 240 BC Adjustment began \(agreed by Carthage, Egypt, Macedonia and Syria\)\.$/,
    );
    await phone.close();
    for (const power of powers) await pages[power].getByRole('button', { name: 'Orders for Winter 240 BC Adjustment ▸' }).click();
    await rome.getByRole('heading', { name: 'Winter 240 BC Adjustment' }).waitFor();
    await rome.getByRole('tab', { name: /Orders/ }).click();
    // Rome builds in Ravenna, left free in spring: a click on the centre, then what to build there.
    await clickProvinceOnMap(rome, 'Rav');
    const army = rome.getByRole('button', { name: 'Army in Ravenna' });
    if (await army.count()) await army.click();
    await eventually(() => rome.locator('#orders-text').inputValue()).toBe('Build A Rav');
    await shot(rome, 'adjustment');
    // Those with builds due (and a free home centre to build on) must order; the rest have nothing to do.
    // Every page is read before anyone ticks Ready: the last tick has the phase processed, and the pages move on.
    const building: (typeof powers)[number][] = [];
    for (const power of powers) {
      const page = pages[power];
      // Wait until the orders panel has rendered one way or the other before deciding.
      const ready = page.getByLabel('Ready');
      const idle = page.getByText(new RegExp(`^${power} .*nothing to (order|build or remove) in this phase\\.$`));
      await ready.or(idle).first().waitFor();
      if (await ready.count()) building.push(power);
    }
    expect(building).toContain('Rome');
    for (const power of building) await tickReady(pages[power], 'Winter 240 BC Adjustment');
    await Promise.all(powers.map((power) => pages[power].getByText('Results of Winter 240 BC Adjustment').waitFor()));
    await rome.getByRole('button', { name: 'Orders for Spring 239 BC Movement ▸' }).click();
    await rome.locator('svg.dmap g.unit[data-unit="Rav"]').waitFor();

    // Every survivor votes for a draw: the game ends, and every board says so.
    for (const power of powers) {
      const page = pages[power];
      await page.getByRole('tab', { name: 'Game' }).click();
      const vote = page.getByRole('button', { name: 'Vote for a draw…' });
      await vote
        .or(page.getByRole('button', { name: 'Withdraw my draw vote' }))
        .or(page.locator('.deadline').getByText('Game over'))
        .first()
        .waitFor();
      if (await vote.count()) {
        await vote.click();
        // Asked first; the last vote needed says it ends the game (tests/web/game-panel.test.ts).
        await page.getByText(/^(Every other survivor has voted for a draw|Vote for a draw shared by every survivor)/).waitFor();
        await page.getByRole('button', { name: 'Yes, vote for a draw' }).click();
      }
      await page.getByRole('button', { name: 'Withdraw my draw vote' }).or(page.locator('.deadline').getByText('Game over')).first().waitFor();
    }
    await pages.Egypt.locator('.deadline').getByText('Game over:').waitFor();
    await eventually(() => pages.Egypt.locator('.deadline').textContent()).toMatch(/Game over: Draw among Carthage, Egypt, Macedonia, Rome and Syria/);

    // Not final yet: the result says until when the game master may re-open the game, and what stays hidden.
    await eventually(() => pages.Egypt.locator('.final-note').textContent()).toMatch(
      /^The result becomes final on .+: until then the game master may re-open the game, and private messages stay hidden\.$/,
    );
    // The game master re-opens the game where it ended (every open board goes on), then ends it from the panel, as a
    // draw between every survivor: each with the other players' consent.
    await rome.getByRole('tab', { name: 'Game' }).click();
    await rome
      .locator('#gm-rollback-until')
      .getByText(/^Possible until .+, when the result becomes final\.$/)
      .waitFor();
    await rome.getByRole('combobox', { name: 'Roll back to' }).selectOption({ label: 'Spring 239 BC Movement (where the game ended)' });
    await rome.getByRole('button', { name: 'Ask to roll back…' }).click();
    await rome.getByRole('button', { name: 'Ask them' }).click();
    await agreeAll(others, 're-open the game at Spring 239 BC Movement');
    await pages.Egypt.getByText('The game master re-opened the game at Spring 239 BC Movement: it goes on.').waitFor();
    await eventually(() => pages.Egypt.getByText('Game over:').count()).toBe(0);
    await rome.locator('.deadline').getByText('Orders due').waitFor();
    await rome.getByRole('button', { name: 'Ask to end the game…' }).click();
    await rome.getByRole('button', { name: 'Ask them' }).click();
    await agreeAll(others, 'end the game now as a draw between Carthage, Egypt, Macedonia, Rome and Syria');
    await pages.Egypt.locator('.deadline').getByText('Game over:').waitFor();
    await pages.Egypt.locator('section[aria-labelledby="votes-h"]')
      .getByText('The game is over: Draw among Carthage, Egypt, Macedonia, Rome and Syria.')
      .waitFor();
    await eventually(() => rome.locator('.log [data-action="end-game"]').first().textContent()).toMatch(
      /^Ended the game in Spring 239 BC Movement as a draw between Carthage, Egypt, Macedonia, Rome and Syria \(agreed by Carthage, Egypt, Macedonia and Syria\)\.$/,
    );
    // The result made final now, with the players' consent: its private press is public, and nothing re-opens it.
    await rome.getByRole('button', { name: 'Ask to make the result final now…' }).click();
    await rome
      .getByText(/^Make the result final now\? The private messages between powers are published, and the game can then no longer be re-opened/)
      .waitFor();
    await rome.getByRole('button', { name: 'Ask them' }).click();
    await agreeAll(others, 'make the result final now, publishing the private press');
    await rome.getByText('The game has ended, and its result is final: it can no longer be re-opened.').waitFor();
    await eventually(() => pages.Egypt.locator('.final-note').count()).toBe(0);

    // The archive: a visitor, not logged in, finds the finished game and replays it.
    const visitor = await newPage();
    await visitor.goto(`${server.url}/?tab=finished`);
    await visitor.getByRole('link', { name }).click();
    await visitor.locator('svg.dmap g.unit').first().waitFor();
    // The game ended by agreement in Spring 239 BC, before it was adjudicated; the slider goes back to the first phase.
    await visitor.getByText('The game ended before this phase was adjudicated').waitFor();
    await visitor.getByRole('slider', { name: 'Phase' }).fill('0');
    await visitor.getByRole('heading', { name: /Spring 240 BC Movement/ }).waitFor();
    await eventually(() => visitor.locator('svg.dmap .glyph.arrow.success').count()).toBe(2);
    await visitor.getByRole('tab', { name: 'Game' }).click();
    await expect(visitor.getByRole('link', { name: 'Download the game (JSON)' }).getAttribute('href')).resolves.toMatch(/\/api\/games\/.+\/export$/);
    const exported = await visitor.evaluate(
      async (href) => (await fetch(href!)).json(),
      await visitor.getByRole('link', { name: 'Download the game (JSON)' }).getAttribute('href'),
    );
    expect(exported).toMatchObject({ format: 'diadochi-online/game', complete: true, game: { status: 'finished', outcome: { kind: 'draw' } } });
    await visitor.getByRole('tab', { name: 'Orders' }).click();
    await shot(visitor, 'archive');

    // A player's public page, from the Game tab: the game drawn, and every deadline kept (the phases were
    // processed early, everyone ready).
    await visitor.getByRole('tab', { name: 'Game' }).click();
    const egyptsPlayer = visitor.locator('.game-panel .players li', { hasText: 'Egypt' }).getByRole('link');
    const egyptName = (await egyptsPlayer.textContent())!;
    await egyptsPlayer.click();
    await visitor.getByRole('heading', { level: 1, name: egyptName }).waitFor();
    await visitor.getByText('1 finished: 0 won, 1 drawn, 0 lost').waitFor();
    await expect(visitor.getByText(/^Kept \d+ of \d+ deadlines/).textContent()).resolves.toMatch(/^Kept (\d+) of \1 deadlines \(100\u00a0%\)$/);
    await visitor.getByRole('link', { name }).waitFor();
    await shot(visitor, 'player');

    expect(browser.consoleErrors).toEqual([]);
  });
});
