/** Debian's Chromium under playwright-core, as the machine notes say it runs here; never a downloaded browser. */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

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

/**
 * One headless Chromium; each player gets a fresh, isolated context (its own
 * cookies and storage, like a separate browser profile).
 */
export async function launchBrowser(): Promise<{
  browser: Browser;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}> {
  if (!hasChromium) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return {
    browser,
    async newPage(viewport = LAPTOP) {
      const context = await browser.newContext({ viewport, ...(viewport.width < 500 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      return context.newPage();
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
