/**
 * Naval battles end to end, in Debian's Chromium against the real server and a real database: three players sign
 * up; one sets up a private battle on the battle form, the second takes the other side from the invitation link,
 * the third the umpire's seat.
 * 1. Classis (the shipped training duel): moves by clicking a ship and a highlighted hex, the activation ended;
 *    the rest played through the API with each player's own session (the routes the page uses), except the first
 *    ram and the first boarding, clicked on the board's panel; the log shows both with their dice, every page
 *    the outcome, and the check page a pass.
 * 2. Ship-to-ship (the duel, a set-up of one's own from the form's JSON: a fleet below half its hull is beaten):
 *    every plot entered on the page, step by step on the highlighted hexes, with a boarding order; the umpire
 *    sees each plot handed in and has nothing to act on; a ram, a boarding, the outcome and the check.
 * Screenshots (desktop and a 375 px phone) go to tests/e2e/screenshots/battle-*.png (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type ClassisAction, type ClassisState, classis } from '../../shared/naval/classis/index.ts';
import { toColumnRow } from '../../shared/naval/hex.ts';
import { type Action as PlotAction, type State as ShipToShipState, shipToShip } from '../../shared/naval/ship-to-ship/index.ts';
import { walkPlot } from '../../web/src/battles/plot-steps.ts';
import { PHONE, hasChromium, launchBrowser, signUpThroughForm } from './browser.ts';
import { type BattleSeat as Seat, battleSeat, logReached } from './battle-seat.ts';
import { type RunningServer, startServer } from './server.ts';

const shots = path.join(import.meta.dirname, 'screenshots');
const PASSWORD = 'a long and winding road';

/** The computer opponent's numbers for the test's own choices: fixed, so a failing run can be read again. */
function seededRandom(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

describe.skipIf(!hasChromium)('naval battles in the browser', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const stamp = Date.now().toString(36);
  const names = { admiral: `adm_${stamp}`, pirate: `pir_${stamp}`, umpire: `ump_${stamp}` };
  const seats = {} as Record<keyof typeof names, Seat>;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await browser.screenshotAll(shots, 'battle-failed');
  });

  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
  const shot = (page: Page, name: string, fullPage = false) => page.screenshot({ path: path.join(shots, `battle-${name}.png`), fullPage });

  async function signUp(username: string): Promise<Seat> {
    const page = await browser.newPage();
    await signUpThroughForm(page, server.url, username, PASSWORD);
    return battleSeat(page, server.url);
  }

  /**
   * The admiral sets up a private battle on the form (the scenario chosen, or `editSetup` applied to the set-up
   * of one's own begun from it), plays `side`, with an umpire's seat; the pirate and the umpire come in by the
   * invitation link. Returns the battle's id.
   */
  async function setUpBattle(o: {
    title: string;
    rules: string;
    scenario: string;
    side: string;
    otherSide: string;
    editSetup?: (setup: Record<string, unknown>) => void;
  }) {
    const page = seats.admiral.page;
    await page.getByRole('link', { name: 'Battles', exact: true }).click();
    await page
      .getByRole('link', { name: /set up/i })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Set up a naval battle' }).waitFor();
    await page.getByLabel('Title').fill(o.title);
    await page.getByRole('radiogroup', { name: 'Rules' }).getByLabel(o.rules).check();
    await page
      .getByRole('radiogroup', { name: 'Scenario' })
      .getByRole('radio', { name: new RegExp(`^${o.scenario}`) })
      .check();
    if (o.editSetup) {
      await page.getByRole('radio', { name: /^A set-up of my own, begun from/ }).check();
      const box = page.getByLabel('Set-up (JSON, as a scenario file holds it)');
      const setup = JSON.parse(await box.inputValue());
      o.editSetup(setup);
      await box.fill(JSON.stringify(setup, null, 2));
    }
    await page.getByLabel("An umpire's seat").check();
    await page.getByLabel('Your own seat').selectOption({ label: o.side });
    await page.getByLabel('Private').check();
    await page.getByRole('radiogroup', { name: 'Pace' }).getByLabel('Live').check();
    await page.getByLabel('Minutes a turn').fill('30');
    await shot(page, `${o.rules === 'Classis v3.0' ? 'classis' : 'ship-to-ship'}-form`, true);
    await page.getByRole('button', { name: 'Set up the battle' }).click();
    await page.getByRole('heading', { name: o.title }).waitFor();
    const battle = /\/battles\/([^/?]+)/.exec(page.url())![1];
    const invite = (await page.locator('code.invite').textContent())!;
    expect(invite).toMatch(new RegExp(`/battles/${battle}\\?invite=`));

    await seats.pirate.page.goto(invite);
    await seats.pirate.page.getByRole('button', { name: `Play ${o.otherSide}` }).click();
    await seats.umpire.page.goto(invite);
    await seats.umpire.page.getByRole('button', { name: 'Join as the umpire' }).click();
    await eventually(async () => (await seats.admiral.get(battle)).status).toBe('active');
    for (const seat of Object.values(seats)) await seat.page.locator('svg .counter').first().waitFor();
    return battle;
  }

  /** The page from its top, the log scrolled to its last entry. */
  async function showEnd(page: Page) {
    await page.locator('.battle-log li').last().scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
  }

  /** The log line on `page` whose text matches, with its dice: scrolled into view. */
  async function logLine(page: Page, text: RegExp) {
    const line = page.locator('.battle-log .line').filter({ hasText: text }).first();
    await line.scrollIntoViewIfNeeded();
    return line;
  }

  test('sign up three players', async () => {
    seats.admiral = await signUp(names.admiral);
    seats.pirate = await signUp(names.pirate);
    seats.umpire = await signUp(names.umpire);
  });

  test('a Classis battle: moves by clicking, a ram and a boarding on the page, to victory, and its dice checked', async () => {
    const battle = await setUpBattle({
      title: 'Guard ships against pirates',
      rules: 'Classis v3.0',
      scenario: 'Training duel',
      side: 'Rhodes',
      otherSide: 'Cilician pirates',
    });
    const bySide: Record<string, Seat> = { rhodes: seats.admiral, cilicia: seats.pirate };
    const umpire = seats.umpire.page;
    await shot(seats.admiral.page, 'classis-board');

    // The umpire sees the board and the log, and has nothing to act on.
    await umpire.getByRole('heading', { name: 'Umpire' }).waitFor();
    await expect(umpire.getByRole('heading', { name: 'Your orders' }).count()).resolves.toBe(0);

    const random = seededRandom(7);
    let moves = 0;
    let rammed = false;
    let boarded = false;
    for (let n = 0; n < 400; n++) {
      const seen = await seats.umpire.get(battle);
      if (seen.status === 'finished') break;
      if (seen.turn?.kind !== 'side') throw new Error(`Classis waits for one side at a time, not ${JSON.stringify(seen.turn)}`);
      const seat = bySide[seen.turn.side];
      const mine = await seat.get(battle);
      const legal = (mine.legalActions ?? []).map((l) => ({ action: l.action as ClassisAction, text: l.text }));
      const state = mine.state as ClassisState;
      const page = seat.page;

      // The first two actions: a ship of the activated squadron, a highlighted hex, Move (or the activation ended).
      if (moves < 2 && legal.some((l) => l.action.kind === 'move')) {
        await logReached(page, mine.actionCount);
        const panel = page.locator('.classis-panel');
        const mover = legal.find((l) => l.action.kind === 'move')!.action as Extract<ClassisAction, { kind: 'move' }>;
        const moverName = mine.board!.counters.find((c) => c.id === mover.ship)!.name;
        await panel.getByRole('group', { name: 'Ships of the activated squadron' }).getByRole('button', { name: moverName, exact: true }).click();
        const targets = page.locator('svg polygon.target');
        await targets.first().waitFor();
        await targets.nth((await targets.count()) - 1).click();
        const facings = panel.getByRole('group', { name: 'Facing at the end of the move' });
        if (await facings.count()) await facings.getByRole('button').first().click();
        if (moves === 0) await shot(page, 'classis-move');
        await panel.getByRole('button', { name: 'Move', exact: true }).click();
        await logReached(page, mine.actionCount + 1);
        moves++;
        continue;
      }
      if (moves === 2 && legal.some((l) => l.action.kind === 'end')) {
        await logReached(page, mine.actionCount);
        await page.locator('.classis-panel button.end').click();
        await logReached(page, mine.actionCount + 1);
        moves++;
        continue;
      }

      // Then the computer opponent's choice for the side, but the first ram first, and then a boarding.
      const order = rammed ? ['board', 'grapple', 'ram', 'follow-up-ram'] : ['ram', 'board', 'grapple', 'follow-up-ram'];
      const pick = order.map((kind) => legal.find((l) => l.action.kind === kind)).find((l) => l !== undefined);
      const action = pick?.action ?? classis.opponent(state, seen.turn.side, random);
      const first = (action.kind === 'ram' && !rammed) || (action.kind === 'board' && !boarded);
      if (first && 'ship' in action) {
        // On the page: the ship, then the action's button in the engine's words.
        await logReached(page, mine.actionCount);
        const name = mine.board!.counters.find((c) => c.id === action.ship)!.name;
        const panel = page.locator('.classis-panel');
        await panel.getByRole('group', { name: 'Ships of the activated squadron' }).getByRole('button', { name, exact: true }).click();
        await panel.getByRole('button', { name: pick!.text, exact: true }).click();
        await logReached(page, mine.actionCount + 1);
        if (action.kind === 'ram') {
          rammed = true;
          const line = await logLine(page, /rams the/);
          await expect(line.locator('.die').count()).resolves.toBe(2);
          await shot(page, 'classis-ram');
        } else {
          boarded = true;
          const line = await logLine(page, / boards /);
          await expect(line.locator('.die').count()).resolves.toBe(2);
          await expect(line.locator('.table').textContent()).resolves.toMatch(/^Boarding: /);
          await shot(page, 'classis-boarding');
        }
        continue;
      }
      await seat.act(battle, action, mine.actionCount);
    }

    const done = await seats.umpire.get(battle);
    expect(done.status).toBe('finished');
    expect(rammed).toBe(true);
    const winner = done.outcome?.winner ? done.sides.find((s) => s.id === done.outcome!.winner)!.name : null;
    for (const seat of Object.values(seats)) {
      const outcome = seat.page.locator('.outcome');
      await outcome.waitFor();
      await eventually(() => outcome.textContent()).toContain(winner ? `${winner} won` : 'Nobody won');
    }
    // Every ram's and boarding's dice are in the log as dice, with the table row read.
    const admiral = seats.admiral.page;
    await logReached(admiral, done.actionCount);
    const ram = await logLine(admiral, /rams the/);
    await expect(ram.locator('.die').count()).resolves.toBe(2);
    if (boarded) await logLine(admiral, / boards /);
    await showEnd(admiral);
    await shot(admiral, 'classis-victory');

    // The umpire's page on a phone: the outcome, then the board.
    await umpire.setViewportSize(PHONE);
    await showEnd(umpire);
    await shot(umpire, 'phone-classis-victory');
    await umpire.locator('.hex-sea').scrollIntoViewIfNeeded();
    await shot(umpire, 'phone-classis-board');
    await umpire.setViewportSize({ width: 1366, height: 860 });

    await checkDice(admiral, battle, 'classis');
    // A boarding seen here, or in the ship-to-ship battle below (the dice decide whether the Classis fleets board).
    classisBoarded = boarded;
  });

  let classisBoarded = false;

  /** The check page, from the outcome's link: a pass, the seed against its commitment, every die re-derived. */
  async function checkDice(page: Page, battle: string, name: string) {
    await page.getByRole('link', { name: 'Check every die of this battle' }).click();
    await page.waitForURL(`**/battles/${battle}/verify`);
    const verdict = page.locator('.verdict');
    await verdict.waitFor({ timeout: 30_000 });
    await expect(verdict.locator('.big').textContent()).resolves.toBe('✔ Pass');
    await page.getByText('matches', { exact: true }).waitFor();
    await page.getByText('every one matches the log').waitFor();
    await page.getByText('Replaying every action from the set-up with these dice gives the same log, line by line.').waitFor();
    const detail = await seats.umpire.get(battle);
    await page.getByText(detail.commitment).first().waitFor();
    await shot(page, `${name}-verify`);
    await page.setViewportSize(PHONE);
    await shot(page, `phone-${name}-verify`);
    await page.setViewportSize({ width: 1366, height: 860 });
  }

  test('a ship-to-ship battle: each plot entered step by step, the umpire sees them handed in, a ram and a boarding, to victory', async () => {
    const battle = await setUpBattle({
      title: 'A duel off Rhodes',
      rules: 'Ship-to-ship rules',
      scenario: 'A duel off Rhodes',
      side: 'Rhodes',
      otherSide: 'Macedon',
      // A quicker end: a side whose hull afloat falls below half of what it began with is beaten.
      editSetup: (setup) => {
        setup.breakBelow = 0.5;
      },
    });
    const bySide: Record<string, Seat> = { rhodes: seats.admiral, macedon: seats.pirate };
    const umpire = seats.umpire.page;
    const random = seededRandom(11);
    let plotted = 0;

    for (let n = 0; n < 60; n++) {
      const seen = await seats.umpire.get(battle);
      if (seen.status === 'finished') break;
      const turn = seen.turn!;
      if (turn.kind === 'side') {
        // A defender that threw back boarders: it counter-boards, on its page.
        const seat = bySide[turn.side];
        const mine = await seat.get(battle);
        await logReached(seat.page, mine.actionCount);
        const listed = mine.legalActions ?? [];
        const choice = listed.find((l) => (l.action as PlotAction & { choice?: string }).choice === 'counter-board') ?? listed[0];
        await seat.page.locator('.plot-panel').getByRole('button', { name: choice.text, exact: true }).click();
        await eventually(async () => (await seats.umpire.get(battle)).actionCount).toBe(mine.actionCount + 1);
        continue;
      }
      if (turn.kind !== 'simultaneous') throw new Error(`unexpected turn ${JSON.stringify(turn)}`);
      for (const side of turn.waiting) {
        const seat = bySide[side];
        const mine = await seat.get(battle);
        const state = mine.state as ShipToShipState;
        const chosen = shipToShip.opponent(state, side, random);
        if (chosen.kind !== 'plot') throw new Error(`a plot was expected, not ${JSON.stringify(chosen)}`);
        await enterPlot(seat.page, state, chosen, mine.actionCount, plotted === 0);
        plotted++;
        await eventually(async () => (await seats.umpire.get(battle)).actionCount).toBeGreaterThan(mine.actionCount);
        const after = await seats.umpire.get(battle);
        if (after.turn?.kind === 'simultaneous' && after.turn.waiting.length > 0 && !after.turn.waiting.includes(side)) {
          // Handed in, not yet resolved: the umpire reads it; the other side sees only that it was handed in.
          const sideName = after.sides.find((s) => s.id === side)!.name;
          const plotIn = umpire.locator('.panel p', { hasText: `${sideName}:` });
          await eventually(() => plotIn.count()).toBeGreaterThan(0);
          await expect(umpire.getByRole('button', { name: /Hand in the plot/ }).count()).resolves.toBe(0);
          if (plotted === 1) await shot(umpire, 'ship-to-ship-umpire');
          const other = bySide[after.turn.waiting[0]].page;
          await logReached(other, after.actionCount);
          await expect(other.locator(`.battle-log li[data-index="${after.actionCount}"] .head`).textContent()).resolves.toMatch(
            /a plot, shown when the turn is resolved$/,
          );
        }
      }
    }

    const done = await seats.umpire.get(battle);
    expect(done.status).toBe('finished');
    const winner = done.outcome?.winner ? done.sides.find((s) => s.id === done.outcome!.winner)!.name : null;
    for (const seat of Object.values(seats))
      await eventually(() => seat.page.locator('.outcome').textContent()).toContain(winner ? `${winner} won` : 'Nobody won');
    const admiral = seats.admiral.page;
    await logReached(admiral, done.actionCount);
    const ram = await logLine(admiral, / rams /);
    await expect(ram.locator('.die').count()).resolves.toBeGreaterThan(0);
    await shot(admiral, 'ship-to-ship-ram');
    const boarding = admiral.locator('.battle-log .line').filter({ hasText: /tries to board|marines? strikes? at/ });
    if (!classisBoarded) expect(await boarding.count()).toBeGreaterThan(0);
    if (await boarding.count()) {
      await boarding.first().scrollIntoViewIfNeeded();
      await shot(admiral, 'ship-to-ship-boarding');
    }
    await showEnd(admiral);
    await shot(admiral, 'ship-to-ship-victory');
    await admiral.setViewportSize(PHONE);
    await showEnd(admiral);
    await shot(admiral, 'phone-ship-to-ship-victory');
    await admiral.locator('.hex-sea').scrollIntoViewIfNeeded();
    await shot(admiral, 'phone-ship-to-ship-board');
    await admiral.locator('.battle-log').scrollIntoViewIfNeeded();
    await shot(admiral, 'phone-ship-to-ship-log');
    await admiral.setViewportSize({ width: 1366, height: 860 });
    await checkDice(admiral, battle, 'ship-to-ship');
    expect(browser.consoleErrors).toEqual([]);
  });

  /**
   * One side's plot entered on its page: each ship, its turn in place, each step by clicking the highlighted hex
   * it leads to, its fire order, and the order to board a ship met in a ram; then handed in.
   */
  async function enterPlot(page: Page, state: ShipToShipState, action: Extract<PlotAction, { kind: 'plot' }>, actionCount: number, screenshot: boolean) {
    await logReached(page, actionCount);
    const panel = page.locator('.plot-panel');
    for (const plot of action.plots) {
      const ship = state.ships.find((s) => s.id === plot.ship)!;
      await panel.locator('.ships button.ship', { hasText: ship.name }).click();
      const own = page.getByRole('region', { name: `Plot of ${ship.name}` });
      if (plot.pivot) await own.getByLabel('Turn in place first').selectOption(String(plot.pivot));
      const route = walkPlot({ hex: ship.hex, facing: ship.facing }, plot.pivot ?? 0, plot.steps).hexes.slice(1);
      for (const hex of route) {
        const { col, row } = toColumnRow(hex);
        await page.locator(`svg [aria-label="Next step to ${col},${row}"]`).click();
      }
      await eventually(() => own.locator('h3').textContent()).toBe(`${ship.name}: ${plot.steps ? plot.steps.split('').join(' ') : 'no steps yet'}`);
      await own.getByLabel('Fire').selectOption(plot.fire ?? 'first');
      await own.getByLabel('Grapple and board a ship met in a ram').check();
    }
    if (screenshot) await shot(page, 'ship-to-ship-plot');
    await panel.getByRole('button', { name: /^Hand in the plot/ }).click();
    await logReached(page, actionCount + 1);
  }
});
