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
