/** A player's own session on the battle API, as the battle page uses it (the session cookie and its CSRF token). */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { BattleDetail } from '../../shared/api/battles.ts';

export interface BattleSeat {
  readonly page: Page;
  /** The battle as this seat sees it, with its legal actions listed: the driver picks what to click from them (the page works them out itself). */
  get(battle: string): Promise<BattleDetail>;
  act(battle: string, action: unknown, expected: number): Promise<void>;
}

/** The seat of the player signed in on `page`. */
export async function battleSeat(page: Page, serverUrl: string): Promise<BattleSeat> {
  const me = await (await page.request.get(`${serverUrl}/api/auth/me`)).json();
  const csrf: string = me.csrfToken;
  return {
    page,
    async get(battle) {
      const res = await page.request.get(`${serverUrl}/api/battles/${battle}?legalActions=true`);
      expect(res.status()).toBe(200);
      return res.json();
    },
    async act(battle, action, expected) {
      const res = await page.request.post(`${serverUrl}/api/battles/${battle}/actions`, { data: { action, expected }, headers: { 'x-csrf-token': csrf } });
      if (res.status() !== 200) throw new Error(`action refused (${res.status()}): ${await res.text()}`);
    },
  };
}

/**
 * Waits until the page holds the battle as it stands after `index` actions: the log's entry and the battle itself.
 * The log can run ahead of the battle (a live event's reading of the battle answered after the log's), and a ship
 * chosen on the older reading is let go when the newer one arrives.
 */
export async function logReached(page: Page, index: number): Promise<void> {
  await page.locator(`.battle-log li[data-index="${index}"]`).waitFor();
  await page.waitForFunction((n) => Number(document.querySelector<HTMLElement>('section.battle')?.dataset.actionCount ?? -1) >= n, index);
}
