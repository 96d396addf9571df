/**
 * Ancient Mediterranean, five powers, end to end in Debian's Chromium against the real server, as a new visitor
 * meets it: Rome's player creates the game from the New game form (offered with its power count and description),
 * four others find it in the lobby and take their seats, each orders on the map (Greece's player on a phone, through
 * the bottom sheet), and the variant's own geography is played: Egypt's fleet sails up the Nile from Alexandria to
 * Memphis as its army leaves Memphis for Cyrene by land, Rome's fleet crosses the Strait of Messina, Greece's army
 * marches into Byzantium. Everyone ticks Ready, the phase is processed, every board shows the results; the map of
 * the processed phase is downloaded from the game page's buttons, as a PNG of the drawing's size with the units
 * where they moved and as an SVG with each order and its result; the game's link carries the card a chat shows.
 * The supply panel lists the five powers, and the sandbox plays the variant.
 * Screenshots go outside the repository (ANCMED_E2E_SHOTS, by default /tmp/ancient-mediterranean-e2e-screens).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { getVariant } from '../../shared/variants.ts';
import { locationPoint } from '../../shared/drawing/overlay.ts';
import { BAND_HEIGHT, drawingSize } from '../../shared/drawing/map-image.ts';
import { projectRoot } from '../../server/settings.ts';
import { colourNear, decodePng } from '../server/map-images-png.ts';
import { CHROMIUM, LAPTOP, PHONE, hasChromium, launchBrowser, provincePoint, raiseSheet, sheetSettled, signUpThroughForm, tickReady } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const shots = process.env.ANCMED_E2E_SHOTS ?? '/tmp/ancient-mediterranean-e2e-screens';
const PASSWORD = 'five powers round one sea';
const POWERS = ['Rome', 'Carthage', 'Egypt', 'Greece', 'Persia'] as const;
type Power = (typeof POWERS)[number];
/** Greece's player plays on a phone held upright; the others at a laptop. */
const ON_PHONE: Power = 'Greece';

const variant = getVariant('ancient-mediterranean')!;
const colourOf = (power: Power) => variant.data.powers.find((p) => p.id === power)!.colour;
/** The picture is the drawing a pixel per unit with the band under it: 1600 × 1008 and 44, so 1600 × 1052. */
const drawn = drawingSize(readFileSync(path.join(projectRoot, 'maps', 'ancient-mediterranean', 'map.svg'), 'utf8'));
const PICTURE = { width: drawn.width, height: drawn.height + BAND_HEIGHT };

/**
 * The orders each power clicks on the map, in order: a unit, Move, its target. Egypt's fleet goes up the Nile into
 * Memphis (a canal link of the variant: no sea touches Memphis), which its army leaves by the army-only border to
 * Cyrene; Rome's fleet crosses the Strait of Messina; Greece's army enters Byzantium, which straddles the straits.
 */
const MOVES: Record<Power, { unit: string; to: string; text: string }[]> = {
  Rome: [{ unit: 'nea', to: 'sic', text: 'F nea - sic' }],
  Carthage: [{ unit: 'cir', to: 'num', text: 'A cir - num' }],
  Egypt: [
    { unit: 'mem', to: 'cyr', text: 'A mem - cyr' },
    { unit: 'ale', to: 'mem', text: 'F ale - mem' },
  ],
  Greece: [{ unit: 'mac', to: 'byz', text: 'A mac - byz' }],
  Persia: [{ unit: 'dam', to: 'ara', text: 'A dam - ara' }],
};

if (!hasChromium) console.warn(`\n[e2e] SKIPPED: ${CHROMIUM} is missing. Install it with: apt-get install -y chromium\n`);

describe.skipIf(!hasChromium)('Ancient Mediterranean in the browser, five powers', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    rmSync(shots, { recursive: true, force: true });
    mkdirSync(shots, { recursive: true });
    // ANCMED_E2E_WEB_DIST: a client built elsewhere than the suite's dist/e2e-web (a run beside other suites').
    [server, browser] = await Promise.all([startServer(process.env.ANCMED_E2E_WEB_DIST || undefined), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000 });
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`) });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await browser.screenshotAll(shots, 'failed');
  });

  /** Downloads what the link named `name` on the Game tab points to, as the browser saves it. */
  async function download(page: Page, name: string): Promise<{ file: string; body: Buffer }> {
    const [saved] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
    const at = await saved.path();
    if (!at) throw new Error(`the download of "${name}" failed: ${await saved.failure()}`);
    return { file: saved.suggestedFilename(), body: await readFile(at) };
  }

  test('created from the New game form, five players order on the map (the Nile, Messina, Byzantium), results, the map as a PNG, supply, sandbox; desktop and phone', async () => {
    const tag = Date.now().toString(36).slice(-5);
    const name = `Mare Nostrum ${tag}`;
    // One page after another: five boards loading at once on a loaded 2-core machine test the machine, not the product.
    const pages = {} as Record<Power, Page>;
    for (const power of POWERS) {
      pages[power] = await browser.newPage(power === ON_PHONE ? PHONE : LAPTOP);
      await signUpThroughForm(pages[power], server.url, `${power.slice(0, 4).toLowerCase()}_${tag}`, PASSWORD);
    }

    // Rome's player creates the game: Ancient Mediterranean is offered with its five powers and its description.
    const rome = pages.Rome;
    await rome.getByRole('link', { name: 'New game' }).click();
    const offered = rome.locator('option', { hasText: /^\s*Ancient Mediterranean — 5 powers\s*$/ });
    await offered.waitFor({ state: 'attached' });
    await expect(offered.isDisabled()).resolves.toBe(false);
    await rome.getByLabel('Variant').selectOption('ancient-mediterranean');
    await rome
      .locator('#variant-about')
      .getByText(/Don Hessong/)
      .waitFor();
    await rome.getByLabel('Name', { exact: true }).fill(name);
    await rome.getByLabel("By players' preferences").check();
    for (const power of POWERS) await rome.getByRole('button', { name: power, exact: true }).waitFor();
    await rome.getByRole('button', { name: 'Rome', exact: true }).click();
    await shot(rome, 'new-game-form');
    await rome.getByRole('button', { name: 'Create the game' }).click();
    await rome.getByRole('heading', { name }).waitFor();
    await rome.getByText(/^\s*Ancient Mediterranean · waiting for players/).waitFor();
    const gameUrl = rome.url().replace(/\?.*$/, '');

    // The four others find it in the lobby's open games and take a seat, each asking for their power.
    for (const power of POWERS.slice(1)) {
      const page = pages[power];
      await page.goto(`${server.url}/?tab=open`);
      await page
        .locator('li.game', { hasText: name })
        .getByText(/Ancient Mediterranean/)
        .waitFor();
      if (power === 'Carthage') await shot(page, 'lobby-open-games');
      await page.getByRole('link', { name }).click();
      await page.getByRole('button', { name: power, exact: true }).click();
      await page.getByRole('button', { name: 'Join this game' }).click();
      if (power !== POWERS.at(-1)) await page.getByRole('button', { name: 'Leave the game' }).waitFor();
    }

    // The fifth seat started the game: every board shows Spring 1 AD with its own power and the fifteen units.
    for (const power of POWERS) {
      const page = pages[power];
      if (!page.url().startsWith(gameUrl) || !(await page.locator('svg.dmap').count())) await page.goto(gameUrl);
      await page.getByRole('heading', { name: 'Spring 1 AD Movement' }).waitFor({ timeout: 60_000 });
      await eventually(() => page.locator('svg.dmap g.unit').count()).toBe(15);
      await eventually(() => page.locator('.eyebrow .you').textContent()).toContain(power);
    }
    await eventually(() => rome.locator('.statuses li').count()).toBe(5);
    await shot(rome, 'board-start');

    // At a laptop: each order clicked on the map, the unit, Move, the province; then saved.
    for (const power of POWERS.filter((p) => p !== ON_PHONE)) {
      const page = pages[power];
      for (const [i, move] of MOVES[power].entries()) {
        await page.locator(`svg.dmap g.unit[data-unit="${move.unit}"]`).click();
        await page.getByRole('button', { name: /Move/ }).click();
        await eventually(() => page.locator('.target-outline').count()).toBeGreaterThan(0);
        const at = await provincePoint(page, move.to);
        await page.mouse.click(at.x, at.y);
        await eventually(async () => (await page.locator('#orders-text').inputValue()).split('\n').filter(Boolean)).toEqual(
          MOVES[power].slice(0, i + 1).map((m) => m.text),
        );
      }
      await page.getByRole('button', { name: 'Save orders' }).click();
      await eventually(() => page.locator('.order-list li.saved').count()).toBe(MOVES[power].length);
      if (power === 'Egypt') await shot(page, 'board-orders-nile');
    }

    // Greece's player, on a phone: the board opens on Greece's own units; a tap on the army in Macedonia raises the
    // sheet with its actions, Move lowers it for the targets, a tap on Byzantium gives the order.
    const greece = pages.Greece;
    await sheetSettled(greece);
    await shot(greece, 'phone-board');
    for (const unit of ['ath', 'spa', 'mac']) {
      const box = await greece.locator(`svg.dmap g.unit[data-unit="${unit}"]`).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, `Greece's unit in ${unit} in view`).toBe(true);
    }
    await greece.locator('svg.dmap g.unit[data-unit="mac"]').tap();
    const move = greece.getByRole('button', { name: /Move/ });
    await eventually(async () => {
      const box = await move.boundingBox();
      return box !== null && box.y + box.height <= PHONE.height;
    }).toBe(true);
    await move.tap();
    await greece.getByRole('button', { name: 'Raise the panel' }).waitFor();
    await sheetSettled(greece);
    const byzantium = await provincePoint(greece, 'byz');
    await greece.touchscreen.tap(byzantium.x, byzantium.y);
    await eventually(() => greece.locator('#orders-text').inputValue()).toBe(MOVES.Greece[0].text);
    await sheetSettled(greece);
    await shot(greece, 'phone-order-given');
    // Saved once the sheet is up and still, as a player taps it: not at the place the button is passing through.
    await raiseSheet(greece);
    await greece.getByRole('button', { name: 'Save orders' }).tap();
    await eventually(() => greece.locator('.order-list li.saved').count()).toBe(1);

    // The supply panel: five powers, three centres each.
    await rome.getByRole('tab', { name: 'Supply' }).click();
    await eventually(() => rome.locator('.supply tbody tr').count()).toBe(5);
    for (const power of POWERS) await eventually(() => rome.locator('.supply tbody tr', { hasText: power }).locator('td').nth(1).textContent()).toBe('3');
    await shot(rome, 'supply-panel');
    await rome.getByRole('tab', { name: /Orders/ }).click();

    // Everyone is ready: the phase is processed at once, and every board shows the results.
    for (const power of POWERS) await tickReady(pages[power], 'Spring 1 AD Movement');
    for (const power of POWERS) await pages[power].getByText('Results of Spring 1 AD Movement').waitFor();
    // Every move succeeded, the fleet up the Nile among them.
    await eventually(() => rome.locator('svg.dmap .glyph.arrow.success').count()).toBe(6);
    await eventually(() => rome.locator('svg.dmap .glyph.arrow.failure').count()).toBe(0);
    const egypt = pages.Egypt;
    await egypt.locator('.results').getByRole('button', { name: 'Moved F ale - mem' }).waitFor();
    await shot(egypt, 'results-desktop');
    await sheetSettled(greece);
    await shot(greece, 'phone-results');
    // The next phase's units stand where the results put them: a fleet in Memphis, an army in Cyrene.
    await eventually(() => egypt.locator('svg.dmap g.unit[data-unit="mem"]').count()).toBe(1);
    await eventually(() => egypt.locator('svg.dmap g.unit[data-unit="cyr"]').count()).toBe(1);
    await eventually(() => egypt.locator('svg.dmap g.unit[data-unit="ale"]').count()).toBe(0);

    // The map of the processed phase, downloaded from the Game tab as the shown phase's picture.
    await egypt.getByRole('tab', { name: 'Game' }).click();
    await egypt.getByText(/Spring 1 AD Movement, as the history slider shows it: the position after it, with every order and its result/).waitFor();
    await egypt.getByRole('link', { name: 'Download the map (PNG)' }).scrollIntoViewIfNeeded();
    await shot(egypt, 'game-tab-picture');
    const png = await download(egypt, 'Download the map (PNG)');
    expect(png.file).toMatch(/\.png$/);
    writeFileSync(path.join(shots, 'downloaded-map.png'), png.body);
    const image = decodePng(png.body);
    expect([image.width, image.height]).toEqual([PICTURE.width, PICTURE.height]);
    // The units where the phase put them, each in its power's colour: Egypt's army in Cyrene (empty before), Rome's
    // fleet in Sicilia, Greece's army in Byzantium.
    for (const [power, province] of [
      ['Egypt', 'cyr'],
      ['Rome', 'sic'],
      ['Greece', 'byz'],
    ] as const) {
      const [x, y] = locationPoint(variant, province)!;
      expect(colourNear(image, x, y, colourOf(power)), `${power}'s unit in ${province} on the picture`).toBe(true);
    }
    const svg = (await download(egypt, 'As SVG')).body.toString('utf8');
    expect(svg).toMatch(/<g class="glyph arrow success"><title>Egypt: F ale - mem\./);
    expect(svg).toMatch(/<g class="glyph arrow success"><title>Rome: F nea - sic\./);
    expect(svg).toContain('data-unit="mem"');
    expect(svg).not.toContain('data-unit="ale"');

    // A link to the game pasted in a chat: its card names the variant and shows the current map, a PNG of that size.
    const card = await (await fetch(gameUrl)).text();
    expect(card).toContain('<meta property="og:description" content="Ancient Mediterranean, 5 powers, being played; Fall 1 AD Movement." />');
    const cardImage = /<meta property="og:image" content="[^"]*(\/api\/games\/[^"]+\/map\.png)" \/>/.exec(card)?.[1];
    expect(cardImage).toMatch(/\/phases\/1\/map\.png$/);
    expect(card).toContain(`<meta property="og:image:height" content="${PICTURE.height}" />`);
    const current = await fetch(`${server.url}${cardImage}`);
    expect(current.headers.get('content-type')).toBe('image/png');
    const currentImage = decodePng(Buffer.from(await current.arrayBuffer()));
    expect([currentImage.width, currentImage.height]).toEqual([PICTURE.width, PICTURE.height]);

    // The sandbox plays Ancient Mediterranean too: its fifteen units, and the Nile move adjudicated.
    await egypt.getByRole('link', { name: 'Sandbox', exact: true }).click();
    await egypt.getByRole('combobox', { name: 'Map', exact: true }).selectOption('ancient-mediterranean');
    await egypt.getByRole('heading', { name: 'Spring 1 AD Movement' }).waitFor();
    await eventually(() => egypt.locator('svg.dmap g.unit').count()).toBe(15);
    await egypt.getByRole('group', { name: 'Power to order for' }).getByRole('button', { name: 'Egypt' }).click();
    await egypt.locator('#orders-text').fill(MOVES.Egypt.map((m) => m.text).join('\n'));
    await egypt.getByRole('button', { name: 'Adjudicate' }).click();
    await eventually(() => egypt.locator('svg.dmap .glyph.arrow.success').count()).toBe(2);
    await shot(egypt, 'sandbox');

    expect(browser.consoleErrors).toEqual([]);
  });
});
