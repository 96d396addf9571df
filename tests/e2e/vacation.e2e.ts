/**
 * A declared absence moving a deadline, in Debian's Chromium against the real server: a player of a started game
 * (which honours vacations, the default) has the game open in one tab, declares on the Account page, in another,
 * an absence that the deadline falls in; the deadline moves to the absence's end, and the game's tab says so.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchBrowser } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';
import { startGame, type StartedGame } from '../server/helpers/play.ts';

if (!hasChromium) console.warn(`\n[e2e] SKIPPED: ${CHROMIUM} is missing. Install it with: apt-get install -y chromium\n`);

/** A moment as a datetime-local field takes it, in the time zone the browser and this process share (the machine's). */
const fieldValue = (at: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
};

describe.skipIf(!hasChromium)('a vacation in the browser', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let game: StartedGame;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    game = await startGame(server.app, { name: 'Away in the summer' });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAs(power: string): Promise<Page> {
    const page = await browser.newPage();
    const sid = game.byPower.get(power)!.cookie!.replace(/^sid=/, '');
    await page.context().addCookies([{ name: 'sid', value: sid, url: server.url }]);
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url})`);
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    return page;
  }

  test('an absence declared on the Account page moves the open deadline to its end, and the game in another tab says why', async () => {
    const power = game.powers[0];
    const phase = await server.app.prisma.phase.findFirstOrThrow({ where: { gameId: game.gameId, status: 'open' } });
    const deadline = phase.deadlineAt!;

    const board = await pageAs(power);
    await board.goto(`${server.url}/games/${game.gameId}`);
    await board.locator('svg.dmap g.unit').first().waitFor();

    const account = await pageAs(power);
    await account.goto(`${server.url}/account`);
    await account.getByRole('heading', { name: 'Vacations' }).waitFor();
    // From a quarter of an hour from now until two days after the deadline, to the minute.
    const from = new Date(Date.now() + 15 * 60_000);
    const until = new Date(Math.ceil((deadline.getTime() + 2 * 86_400_000) / 60_000) * 60_000);
    await account.locator('input[name="starts-at"]').fill(fieldValue(from));
    await account.locator('input[name="ends-at"]').fill(fieldValue(until));
    await account.getByRole('button', { name: 'Declare the absence' }).click();
    await account.locator('p.done[role="status"]').waitFor();

    // The deadline now falls at the absence's end.
    await expect
      .poll(async () => (await server.app.prisma.phase.findUniqueOrThrow({ where: { id: phase.id } })).deadlineAt?.getTime(), { timeout: 15_000 })
      .toBe(until.getTime());
    // The game's tab was told by the live event, with the reason.
    await board.getByText("The deadline fell in a player's declared absence, so it moved").waitFor({ timeout: 15_000 });
    expect(consoleErrors).toEqual([]);
  });
});
