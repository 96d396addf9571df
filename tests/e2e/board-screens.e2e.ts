/**
 * The game board on the screens players use (a phone held upright, 1024×768, 1400×900, 1920×1080), in Debian's
 * Chromium against the real server: a Diadochi V game played through the API for a year (a head-to-head in Spring,
 * a centre taken in Fall, a fleet built in Winter), then looked at as Carthage's player. At every size the map fills
 * its frame and opens on all of Carthage's units; the head-to-head is two arrows side by side; Winter's results show
 * the fleet built; on the phone the results open with the map in view and the Move prompt stays in sight. The sandbox,
 * opened by a visitor at 1400×900 and on the phone, fills its frame too.
 * Screenshots in tests/e2e/screenshots/board-*.png (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Order } from '../../shared/index.ts';
import { CHROMIUM, hasChromium, launchBrowser, raiseSheet, sheetSettled } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';
import { currentPhase, startGame, submitAccepted, type StartedGame } from '../server/helpers/play.ts';

const shots = path.join(import.meta.dirname, 'screenshots');
const SIZES = [
  { name: 'phone', width: 375, height: 812 },
  { name: '1024', width: 1024, height: 768 },
  { name: '1400', width: 1400, height: 900 },
  { name: '1920', width: 1920, height: 1080 },
] as const;

if (!hasChromium) console.warn(`\n[e2e] SKIPPED: ${CHROMIUM} is missing. Install it with: apt-get install -y chromium\n`);

describe.skipIf(!hasChromium)('the board on every screen', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let game: StartedGame;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    game = await startGame(server.app, { name: 'Board on every screen' });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A page logged in as the player of `power` (the API's session cookie), at a size. */
  async function pageAs(power: string, size: { width: number; height: number }): Promise<Page> {
    const page = await browser.newPage(size);
    const sid = game.byPower.get(power)!.cookie!.replace(/^sid=/, '');
    await page.context().addCookies([{ name: 'sid', value: sid, url: server.url }]);
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url})`);
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    return page;
  }
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `board-${name}.png`) });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await browser.screenshotAll(shots, 'board-failed');
  });
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });

  /** Every power that must order says it is ready (with `orders` for some): the phase is processed at once. */
  async function playPhase(orders: Record<string, Order[]>) {
    const phase = await currentPhase(game.master, game.gameId);
    for (const p of phase.powers.filter((x) => x.mustOrder))
      await submitAccepted(game.byPower.get(p.power)!, game.gameId, phase.index, orders[p.power] ?? [], true);
  }

  /** Where the map's frame is, what it shows of the drawing, and where Carthage's counters are on screen. */
  function measure(page: Page) {
    return page.evaluate(() => {
      const svg = document.querySelector('svg.dmap') as SVGSVGElement;
      const pane = document.querySelector('.map-pane')!.getBoundingClientRect();
      const frame = svg.getBoundingClientRect();
      const [x, y, w, h] = svg.getAttribute('viewBox')!.split(' ').map(Number);
      const sheet = document.querySelector('aside.side')!.getBoundingClientRect();
      const counters = Array.from(svg.querySelectorAll('g.unit'))
        .filter((u) => u.getAttribute('aria-label')!.startsWith('Carthaginian'))
        .map((u) => {
          const r = u.getBoundingClientRect();
          return { unit: u.getAttribute('data-unit'), left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        });
      return {
        pane: { left: pane.left, right: pane.right, top: pane.top, bottom: pane.bottom, width: pane.width, height: pane.height },
        frame: { left: frame.left, right: frame.right, top: frame.top, bottom: frame.bottom },
        view: { x, y, w, h },
        sheetTop: sheet.top,
        counters,
        fullNames: svg.querySelectorAll('text.map-label.full').length,
      };
    });
  }

  test('a year of play through the API, Winter watched on a phone: results open on the map, with the built fleet', async () => {
    // Spring: Carthage's armies in Gades and New Carthage each try the other's place (a head-to-head: both bounce);
    // its fleet sails for Numidia, which it holds in Fall and so takes.
    await playPhase({
      Carthage: [
        { kind: 'move', unit: { type: 'army', at: 'Gad' }, to: 'New', viaConvoy: false },
        { kind: 'move', unit: { type: 'army', at: 'New' }, to: 'Gad', viaConvoy: false },
        { kind: 'move', unit: { type: 'fleet', at: 'Car' }, to: 'Num', viaConvoy: false },
      ],
    });
    await playPhase({});
    const winter = await currentPhase(game.master, game.gameId);
    expect(winter.name).toBe('Winter 240 BC Adjustment');

    const phone = await pageAs('Carthage', SIZES[0]);
    await phone.goto(`${server.url}/games/${game.gameId}`);
    await phone.locator('svg.dmap g.unit').first().waitFor();
    // The panel raised (to read the orders, say) when the phase is processed.
    await phone.getByRole('button', { name: 'Raise the panel' }).tap();
    await phone.getByRole('button', { name: 'Lower the panel' }).waitFor();
    await playPhase({ Carthage: [{ kind: 'build', unitType: 'fleet', at: 'Car' }] });
    await phone.getByText('Results of Winter 240 BC Adjustment').waitFor();
    // The results open with the sheet down and the map above it, showing the outcome: the fleet built in Carthage.
    await phone.getByRole('button', { name: 'Raise the panel' }).waitFor();
    await sheetSettled(phone);
    const m = await measure(phone);
    expect(m.sheetTop).toBeGreaterThan(SIZES[0].height * 0.45);
    await phone.locator('svg.dmap g.unit[data-unit="Car"]').waitFor();
    await expect(phone.locator('svg.dmap .glyph.mark .build-ring').count()).resolves.toBe(1);
    // The built fleet is shown itself, not veiled by the outline of the counter to come.
    await expect(phone.locator('svg.dmap .glyph.mark .build-ghost').count()).resolves.toBe(0);
    await expect(phone.getByRole('button', { name: 'After' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await shot(phone, 'phone-winter-results');

    // On to Spring: a unit tapped, Move chosen: the sheet goes down for the map, and what to do stays in sight.
    await phone.getByRole('button', { name: /Orders for Spring 239 BC Movement/ }).tap();
    await phone.getByRole('heading', { name: 'Spring 239 BC Movement' }).waitFor();
    // The player had raised the sheet and read down to the foot of the panel, then lowered it.
    await raiseSheet(phone);
    await phone.locator('aside.side').evaluate((side) => (side.scrollTop = side.scrollHeight));
    await phone.getByRole('button', { name: 'Lower the panel' }).tap();
    await phone.getByRole('button', { name: 'Raise the panel' }).waitFor();
    await sheetSettled(phone);
    await phone.locator('svg.dmap g.unit[data-unit="Had"]').tap();
    await phone.getByRole('button', { name: /Move/ }).tap();
    const hint = phone.locator('.order-panel .hint');
    await hint.waitFor();
    // Judged where the sheet comes to rest, not on the way down.
    await sheetSettled(phone);
    await eventually(() =>
      hint.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const atCentre = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.top >= 0 && r.bottom <= window.innerHeight && !!atCentre && el.contains(atCentre);
      }),
    ).toBe(true);
    await shot(phone, 'phone-move-prompt');
    await phone.close();
  });

  for (const size of SIZES) {
    test(`at ${size.width}×${size.height}: the map fills its frame and opens on all of Carthage's units`, async () => {
      const page = await pageAs('Carthage', size);
      await page.goto(`${server.url}/games/${game.gameId}`);
      await page.getByRole('heading', { name: 'Spring 239 BC Movement' }).waitFor();
      await page.locator('svg.dmap g.unit').first().waitFor();
      await page.locator('svg.dmap text.map-label').first().waitFor();
      await page.waitForTimeout(300);
      const m = await measure(page);
      // The frame takes the whole pane, and what it shows is all map: no empty band of desk above, below or beside it.
      expect(m.frame.right - m.frame.left).toBeCloseTo(m.pane.width, 0);
      expect(m.frame.bottom - m.frame.top).toBeCloseTo(m.pane.height, 0);
      expect(m.view.x).toBeGreaterThanOrEqual(-0.5);
      expect(m.view.y).toBeGreaterThanOrEqual(-0.5);
      expect(m.view.x + m.view.w).toBeLessThanOrEqual(1600.5);
      expect(m.view.y + m.view.h).toBeLessThanOrEqual(900.5);
      // Every one of Carthage's units (five, with the fleet built) inside the frame, above the sheet on a phone.
      expect(m.counters.map((c) => c.unit).sort()).toEqual(['Car', 'Gad', 'Had', 'New', 'Num']);
      for (const c of m.counters) {
        expect(c.left, c.unit!).toBeGreaterThanOrEqual(m.pane.left);
        expect(c.right, c.unit!).toBeLessThanOrEqual(m.pane.right);
        expect(c.top, c.unit!).toBeGreaterThanOrEqual(m.pane.top);
        expect(c.bottom, c.unit!).toBeLessThanOrEqual(size.width < 500 ? Math.min(m.pane.bottom, m.sheetTop) : m.pane.bottom);
      }
      // Names written in full where they fit.
      expect(m.fullNames).toBeGreaterThan(15);
      await shot(page, `${size.name}-open`);
      await page.close();
    });
  }

  for (const size of [SIZES[2], SIZES[1], SIZES[0]]) {
    test(`at ${size.width}×${size.height} the game master (no units of their own) opens on the whole board, the bands around it drawn`, async () => {
      const page = await browser.newPage(size);
      await page.context().addCookies([{ name: 'sid', value: game.master.cookie!.replace(/^sid=/, ''), url: server.url }]);
      page.on('pageerror', (e) => consoleErrors.push(String(e)));
      await page.goto(`${server.url}/games/${game.gameId}`);
      await page.locator('svg.dmap g.unit').first().waitFor();
      if (size.width < 500) await page.getByRole('button', { name: 'Show the whole map' }).click();
      await page.waitForTimeout(300);
      const m = await page.evaluate(() => {
        const svg = document.querySelector('svg.dmap') as SVGSVGElement;
        const pane = document.querySelector('.map-pane')!.getBoundingClientRect();
        const frame = svg.getBoundingClientRect();
        const [x, y, w, h] = svg.getAttribute('viewBox')!.split(' ').map(Number);
        const sea = svg.querySelector<SVGGraphicsElement>('#surroundings .beyond-sea')?.getBBox();
        const land = svg.querySelector<SVGGraphicsElement>('#surroundings .beyond-land')?.getBBox();
        return {
          pane: [pane.width, pane.height],
          frame: [frame.width, frame.height],
          view: { x, y, w, h },
          sea: sea && { x: sea.x, y: sea.y, w: sea.width, h: sea.height },
          land: !!land && land.width > 0,
        };
      });
      expect(m.frame[0]).toBeCloseTo(m.pane[0], 0);
      expect(m.frame[1]).toBeCloseTo(m.pane[1], 0);
      // The whole board: its frame, 1600×900, inside the view.
      expect(m.view.x).toBeLessThanOrEqual(0.5);
      expect(m.view.y).toBeLessThanOrEqual(0.5);
      expect(m.view.x + m.view.w).toBeGreaterThanOrEqual(1599.5);
      expect(m.view.y + m.view.h).toBeGreaterThanOrEqual(899.5);
      // What the view shows beyond the board is the drawing's surroundings (sea and land), not an empty band.
      expect(m.land).toBe(true);
      expect(m.sea).toBeDefined();
      if (m.view.y < 0) {
        expect(m.sea!.y).toBeLessThanOrEqual(m.view.y);
        expect(m.sea!.y + m.sea!.h).toBeGreaterThanOrEqual(m.view.y + m.view.h);
      }
      if (m.view.x < 0) {
        expect(m.sea!.x).toBeLessThanOrEqual(m.view.x);
        expect(m.sea!.x + m.sea!.w).toBeGreaterThanOrEqual(m.view.x + m.view.w);
      }
      await shot(page, `${size.name}-game-master-whole`);
      // Zoomed in and dragged far beyond the board, the view stops at the board's edges.
      await page.locator('svg.dmap').hover();
      for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -200);
      const box = (await page.locator('svg.dmap').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 5, box.y + box.height - 5, { steps: 8 });
      await page.mouse.up();
      const dragged = await page.evaluate(() => document.querySelector('svg.dmap')!.getAttribute('viewBox')!.split(' ').map(Number));
      const [dx, dy, dw, dh] = dragged;
      expect(dw).toBeLessThan(m.view.w);
      expect(dx).toBeGreaterThanOrEqual(Math.min(0, (1600 - dw) / 2) - 0.5);
      expect(dy).toBeGreaterThanOrEqual(Math.min(0, (900 - dh) / 2) - 0.5);
      await page.close();
    });
  }

  test('at 1400×900: the head-to-head is two arrows side by side, each with its reason on hover; Winter shows the fleet built', async () => {
    const page = await pageAs('Carthage', { width: 1400, height: 900 });
    await page.goto(`${server.url}/games/${game.gameId}`);
    await page.getByRole('heading', { name: 'Spring 239 BC Movement' }).waitFor();
    for (const name of ['Winter 240 BC Adjustment', 'Fall 240 BC Movement', 'Spring 240 BC Movement']) {
      await page.getByRole('button', { name: 'Previous phase' }).click();
      await page.getByRole('heading', { name: `${name} results` }).waitFor();
    }
    const bounced = page.locator('svg.dmap .glyph.arrow.failure');
    await eventually(() => bounced.count()).toBe(2);
    // The two shafts, on screen: parallel, and apart by more than a shaft's width, so neither hides the other.
    const apart = await page.evaluate(() => {
      const svg = document.querySelector('svg.dmap') as SVGSVGElement;
      const ctm = svg.getScreenCTM()!;
      const ends = Array.from(svg.querySelectorAll('.glyph.arrow.failure line.shaft')).map((l) => {
        const get = (a: string) => Number(l.getAttribute(a));
        const from = new DOMPoint(get('x1'), get('y1')).matrixTransform(ctm);
        const to = new DOMPoint(get('x2'), get('y2')).matrixTransform(ctm);
        return { from, to, width: Number.parseFloat(getComputedStyle(l).strokeWidth) * ctm.a };
      });
      const [a, b] = ends;
      const len = Math.hypot(a.to.x - a.from.x, a.to.y - a.from.y);
      const off = (p: DOMPoint) => Math.abs((p.x - a.from.x) * (a.to.y - a.from.y) - (p.y - a.from.y) * (a.to.x - a.from.x)) / len;
      return { gap: Math.min(off(b.from), off(b.to)), width: a.width };
    });
    expect(apart.gap).toBeGreaterThan(apart.width * 1.5);
    // A reason on hover, beside the arrow, without opening the list.
    await bounced.first().hover();
    await eventually(() => page.locator('.map-frame .tooltip').textContent()).toMatch(/Carthage: A (Gad - New|New - Gad)\./);
    await shot(page, '1400-head-to-head');

    // Winter: the outcome shows the fleet built in Carthage; Before shows the site waiting, the fleet to come outlined.
    for (const name of ['Fall 240 BC Movement', 'Winter 240 BC Adjustment']) {
      await page.getByRole('button', { name: 'Next phase' }).click();
      await page.getByRole('heading', { name: `${name} results` }).waitFor();
    }
    await page.locator('svg.dmap g.unit[data-unit="Car"]').waitFor();
    await expect(page.locator('svg.dmap g.unit[data-unit="Car"]').getAttribute('aria-label')).resolves.toMatch(/Carthaginian fleet/);
    // Numidia, taken in Fall, is Carthage's.
    await shot(page, '1400-winter-after');
    await page.getByRole('button', { name: 'Before' }).click();
    await eventually(() => page.locator('svg.dmap g.unit[data-unit="Car"]').count()).toBe(0);
    await expect(page.locator('svg.dmap .glyph.mark .build-ghost').count()).resolves.toBe(1);
    await page.locator('svg.dmap .glyph.mark.success').first().hover();
    await eventually(() => page.locator('.map-frame .tooltip').textContent()).toMatch(/F Car/);
    await shot(page, '1400-winter-before');
    await page.close();
  });

  for (const size of [SIZES[2], SIZES[0]]) {
    test(`the sandbox opened by a visitor at ${size.width}×${size.height}: the map fills its frame`, async () => {
      const page = await browser.newPage(size);
      page.on('pageerror', (e) => consoleErrors.push(String(e)));
      await page.goto(`${server.url}/sandbox`);
      await page.locator('svg.dmap g.unit').first().waitFor();
      await page.waitForTimeout(300);
      const m = await page.evaluate(() => {
        const svg = document.querySelector('svg.dmap') as SVGSVGElement;
        const pane = document.querySelector('.map-pane')!.getBoundingClientRect();
        const frame = svg.getBoundingClientRect();
        const [x, y, w, h] = svg.getAttribute('viewBox')!.split(' ').map(Number);
        return { pane: [pane.width, pane.height], frame: [frame.width, frame.height], view: { x, y, w, h } };
      });
      expect(m.frame[0]).toBeCloseTo(m.pane[0], 0);
      expect(m.frame[1]).toBeCloseTo(m.pane[1], 0);
      expect(m.view.x).toBeGreaterThanOrEqual(-0.5);
      expect(m.view.y).toBeGreaterThanOrEqual(-0.5);
      expect(m.view.x + m.view.w).toBeLessThanOrEqual(1600.5);
      expect(m.view.y + m.view.h).toBeLessThanOrEqual(900.5);
      await shot(page, `${size.name}-sandbox`);
      await page.close();
    });
  }

  test('the API docs load without a content-security-policy error', async () => {
    const page = await pageAs('Carthage', { width: 1400, height: 900 });
    const before = consoleErrors.length;
    await page.goto(`${server.url}/api/docs`);
    await page.locator('.swagger-ui .info').waitFor();
    await page.waitForTimeout(500);
    expect(consoleErrors.slice(before)).toEqual([]);
    await page.close();
  });

  test('nothing went wrong in any page', () => {
    expect(consoleErrors).toEqual([]);
  });
});
