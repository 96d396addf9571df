/** Debian's Chromium under playwright-core, as the machine notes say it runs here; never a downloaded browser. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const LAPTOP = { width: 1366, height: 860 };
export const PHONE = { width: 375, height: 740 };

export interface LaunchedBrowser {
  browser: Browser;
  /** What the pages logged as errors, and what they threw: a suite ends by expecting none. */
  consoleErrors: string[];
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** Every open page's screen as `<dir>/<prefix>-<n>.png`: what each player saw when a test failed. */
  screenshotAll(dir: string, prefix: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * One headless Chromium; each player gets a fresh, isolated context (its own cookies and storage, like a separate
 * browser profile). Every page's console errors are kept but those `expected` says the test provokes on purpose.
 */
export async function launchBrowser(options: { expected?: (message: ConsoleMessage) => boolean } = {}): Promise<LaunchedBrowser> {
  if (!hasChromium) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const consoleErrors: string[] = [];
  return {
    browser,
    consoleErrors,
    async newPage(viewport = LAPTOP) {
      const context = await browser.newContext({ viewport, ...(viewport.width < 500 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error' && !options.expected?.(m)) consoleErrors.push(`${m.text()} (${m.location().url})`);
      });
      page.on('pageerror', (e) => consoleErrors.push(String(e)));
      return page;
    },
    async screenshotAll(dir, prefix) {
      const open = browser.contexts().flatMap((c) => c.pages());
      await Promise.all(open.map((p, i) => p.screenshot({ path: path.join(dir, `${prefix}-${i}.png`) }).catch(() => {})));
    },
    close: () => browser.close(),
  };
}

/** Signs up through the form, as a new player does, and waits for the lobby it lands on. */
export async function signUpThroughForm(page: Page, serverUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${serverUrl}/signup`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'The Lobby' }).waitFor();
}

/** A point of a province's shape on the map that is on screen and not under a counter or a name, as a player would click it. */
export async function provincePoint(page: Page, province: string): Promise<{ x: number; y: number }> {
  const point = await page.evaluate((id) => {
    const svg = document.querySelector('svg.dmap') as SVGSVGElement;
    const shape = svg.querySelector(`#p-${id}`) as SVGPathElement;
    const box = shape.getBBox();
    const ctm = svg.getScreenCTM()!;
    for (let fy = 0.5; fy < 1; fy += 0.1)
      for (const f of [0.5, 0.4, 0.6, 0.3, 0.7])
        for (const gy of [fy, 1 - fy]) {
          const p = new DOMPoint(box.x + box.width * f, box.y + box.height * gy).matrixTransform(ctm);
          if (document.elementFromPoint(p.x, p.y) === shape) return { x: p.x, y: p.y };
        }
    return null;
  }, province);
  if (!point) throw new Error(`no visible point of ${province} to click`);
  return point;
}

/**
 * Waits until the phone's bottom sheet has stopped moving, as a player waits for it (its rise and fall are a 0.2 s
 * transition): what is under a finger, and what a picture shows, is where the sheet comes to rest. At once where
 * nothing moves (a wider screen has no sheet).
 */
export async function sheetSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('aside.side')?.getAnimations().length ?? 0) === 0);
}

/**
 * Raises the phone's bottom sheet by a tap on its handle, and waits, as a player does, until it is up and still: the
 * next tap, on a button of the sheet, is then given where the button comes to rest, not while it is carried upwards.
 */
export async function raiseSheet(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Raise the panel' }).tap();
  await page.getByRole('button', { name: 'Lower the panel' }).waitFor();
  await sheetSettled(page);
}

/**
 * Ticks Ready. The last power to tick it has the phase processed at once, and its page may move on to the results
 * before the click is confirmed: either outcome proves the tick was taken (the server processes early only when
 * every power that must order is ready).
 */
export async function tickReady(page: Page, phase: string): Promise<void> {
  const click = page.getByLabel('Ready').click();
  const results = page.getByText(`Results of ${phase}`).waitFor();
  click.catch(() => {});
  results.catch(() => {});
  await Promise.race([click, results]);
}
