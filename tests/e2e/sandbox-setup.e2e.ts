/**
 * The sandbox's set-up in Debian's Chromium against the real server's client: a position built by clicking (an
 * army placed, a unit moved, a unit removed, a centre's owner set), then played from and adjudicated, kept across
 * a reload. Screenshot in tests/e2e/screenshots/sandbox-setup.png (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHROMIUM, hasChromium, launchBrowser } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const shots = path.join(import.meta.dirname, 'screenshots');

if (!hasChromium) console.warn(`\n[e2e] SKIPPED: ${CHROMIUM} is missing. Install it with: apt-get install -y chromium\n`);

describe.skipIf(!hasChromium)('setting up a position in the sandbox', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('by clicking: place, move, remove, own; then play from it, and find it again after a reload', async () => {
    const page = await browser.newPage({ width: 1400, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}/sandbox`);
    await page.locator('svg.dmap g.unit[data-unit="Rav"]').waitFor();
    const chooser = page.locator('.setup-chooser');
    // The set-up's list of provinces: the keyboard's way to a province (a click on a shape lands wherever its middle is).
    const province = page
      .locator('.setup label')
      .filter({ hasText: /^Province/ })
      .locator('select');

    await page.getByRole('button', { name: 'Set up the position' }).click();
    // A Roman army placed in Armenia; a fleet there is refused with the engine's reason.
    await page.getByLabel('New units for').selectOption('Rome');
    await province.selectOption('Arm'); // the keyboard's way to a province
    await expect(chooser.getByRole('button', { name: 'Fleet in Armenia' }).getAttribute('aria-disabled')).resolves.toBe('true');
    await chooser.getByRole('button', { name: 'Army in Armenia' }).click();
    await page.locator('svg.dmap g.unit[data-unit="Arm"]').waitFor();
    // Ravenna's army moved to Cisalpina; Brundisium's removed; Pella's centre given to Rome.
    await page.locator('svg.dmap g.unit[data-unit="Rav"]').click();
    await chooser.getByRole('button', { name: 'Move it…' }).click();
    await province.selectOption('Cis');
    await chooser.getByRole('button', { name: /^Army in / }).click();
    await page.locator('svg.dmap g.unit[data-unit="Cis"]').waitFor();
    await expect(page.locator('svg.dmap g.unit[data-unit="Rav"]').count()).resolves.toBe(0);
    await page.locator('svg.dmap g.unit[data-unit="Bru"]').click();
    await chooser.getByRole('button', { name: 'Remove it' }).click();
    await expect(page.locator('svg.dmap g.unit[data-unit="Bru"]').count()).resolves.toBe(0);
    await province.selectOption('Pel');
    await chooser.getByLabel('Owner of the supply centre').selectOption('Rome');
    await page.screenshot({ path: path.join(shots, 'sandbox-setup.png') });
    await page.getByRole('button', { name: 'Play from this position' }).click();

    // Played from: Rome's army in Armenia takes orders and is adjudicated.
    await page.getByRole('button', { name: /Rome/ }).first().click();
    await page.locator('#orders-text').fill('A Arm H');
    await page.getByRole('button', { name: 'Adjudicate', exact: true }).click();
    await page
      .getByText(/Results/)
      .first()
      .waitFor();

    // Kept across a reload.
    await page.reload();
    await page.locator('svg.dmap g.unit[data-unit="Arm"]').waitFor();
    await expect(page.locator('svg.dmap g.unit[data-unit="Bru"]').count()).resolves.toBe(0);
    expect(errors).toEqual([]);
  });
});
