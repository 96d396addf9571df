/**
 * The measured-table rulesets end to end, in Debian's Chromium against the real server: two players sign up; one
 * sets up a private battle on the form (a small set-up of one's own begun from a shipped scenario), the other takes
 * the second side from the invitation link. Each battle is fought to its end:
 * 1. The Diadochi Naval Rules (two ships against one, 12 by 12 cables): the plot of positions made on the table (a
 *    ship dragged within the zone drawn, the wheel zooming about the pointer, a place outside the zone refused, the
 *    ship typed back to its place, the plot handed in); the line abreast's move made by dragging
 *    its ghost on the table (first aside, a wheel, then ahead into contact), the ram clicked among the close
 *    combat buttons; the rest through the API with each player's own session; the log, the outcome, the replay
 *    slider back to the start, and the check page's pass.
 * 2. Oi Navarcoi! (a squadron each, one turn): the squadron re-placed in epi pollon in the deployment, dragged into
 *    the enemy's front (an attack), made a diekplous on the board, the melee resolved, the end shown.
 * Screenshots (1400×900 and a 375×812 phone) go to tests/e2e/screenshots/table-*.png (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { BattleDetail } from '../../shared/api/battles.ts';
import { hasChromium, launchBrowser, signUpThroughForm } from './browser.ts';
import { type BattleSeat as Seat, battleSeat, logReached } from './battle-seat.ts';
import { type RunningServer, startServer } from './server.ts';

const shots = path.join(import.meta.dirname, 'screenshots');
const PASSWORD = 'a long and winding road';
const DESKTOP = { width: 1400, height: 900 };
const PHONE = { width: 375, height: 812 };

type Json = Record<string, unknown> & { [key: string]: any };

/** A Diadochi order straight ahead its whole allowance (one leg, ahead). */
const isAhead = (action: Json): boolean =>
  action.move.kind === 'legs' && action.move.legs.length === 1 && action.move.legs[0].kind === 'ahead' && action.move.legs[0].distance === 4;

describe.skipIf(!hasChromium)('table battles in the browser', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const stamp = Date.now().toString(36);
  const seats = {} as { admiral: Seat; pirate: Seat };

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await browser.screenshotAll(shots, 'table-failed');
  });

  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
  /** The page at desktop size and as a phone. */
  async function shot(page: Page, name: string, scrollTo?: string) {
    for (const [size, prefix] of [
      [DESKTOP, 'table'],
      [PHONE, 'table-phone'],
    ] as const) {
      await page.setViewportSize(size);
      if (scrollTo) await page.locator(scrollTo).first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(shots, `${prefix}-${name}.png`) });
    }
    await page.setViewportSize(DESKTOP);
  }

  async function signUp(username: string): Promise<Seat> {
    const page = await browser.newPage(DESKTOP);
    await signUpThroughForm(page, server.url, username, PASSWORD);
    return battleSeat(page, server.url);
  }

  /** The admiral sets up a private battle from the form (a set-up of one's own begun from `scenario`); the pirate joins. */
  async function setUpBattle(o: { title: string; rules: RegExp; scenario: string; side: string; otherSide: string; edit: (setup: Json) => void }) {
    const page = seats.admiral.page;
    await page.getByRole('link', { name: 'Battles', exact: true }).click();
    await page
      .getByRole('link', { name: /set up/i })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Set up a naval battle' }).waitFor();
    await page.getByLabel('Title').fill(o.title);
    await page.getByRole('radiogroup', { name: 'Rules' }).getByRole('radio', { name: o.rules }).check();
    await page
      .getByRole('radiogroup', { name: 'Scenario' })
      .getByRole('radio', { name: new RegExp(`^${o.scenario}`) })
      .check();
    await page.getByRole('radio', { name: /^A set-up of my own, begun from/ }).check();
    const box = page.getByLabel('Set-up (JSON, as a scenario file holds it)');
    const setup = JSON.parse(await box.inputValue());
    o.edit(setup);
    await box.fill(JSON.stringify(setup, null, 2));
    await page.getByLabel('Your own seat').selectOption({ label: o.side });
    await page.getByLabel('Private').check();
    await page.getByRole('button', { name: 'Set up the battle' }).click();
    await page.getByRole('heading', { name: o.title }).waitFor();
    const battle = /\/battles\/([^/?]+)/.exec(page.url())![1];
    const invite = (await page.locator('code.invite').textContent())!;
    await seats.pirate.page.goto(invite);
    await seats.pirate.page.getByRole('button', { name: `Play ${o.otherSide}` }).click();
    await eventually(async () => (await seats.admiral.get(battle)).status).toBe('active');
    return battle;
  }

  /** Acts through the API for whichever seat must, with `choose` picking from its legal actions, while `until` says go on. */
  async function playWhile(battle: string, choose: (side: string, legal: { action: Json; text: string }[]) => Json, until: (d: BattleDetail) => boolean) {
    for (let n = 0; n < 80; n++) {
      const detail = await seats.admiral.get(battle);
      if (detail.status !== 'active' || !until(detail)) return detail;
      let acted = false;
      for (const seat of [seats.admiral, seats.pirate]) {
        const mine = await seat.get(battle);
        if (!mine.yourTurn || !mine.legalActions?.length) continue;
        await seat.act(battle, choose(mine.you.side!, mine.legalActions as { action: Json; text: string }[]), mine.actionCount);
        acted = true;
        break;
      }
      if (!acted) await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the battle did not come to the point wanted');
  }

  /** Where a table point (table units, north up) is on the screen, by the table's view box now. */
  async function screenOf(page: Page, to: { x: number; y: number }, depth: number) {
    const svg = page.locator('.table-sea svg');
    const box = (await svg.boundingBox())!;
    const [vx, vy, vw, vh] = (await svg.getAttribute('viewBox'))!.split(' ').map(Number);
    const s = Math.min(box.width / vw, box.height / vh);
    return { x: box.x + (box.width - vw * s) / 2 + (to.x - vx) * s, y: box.y + (box.height - vh * s) / 2 + (depth - to.y - vy) * s };
  }
  const viewWidth = async (page: Page) => Number((await page.locator('.table-sea svg').getAttribute('viewBox'))!.split(' ')[2]);

  /** Drags the ghost by its middle to a table point (table units, north up), as a mouse does. */
  async function dragGhost(page: Page, to: { x: number; y: number }, depth: number) {
    const ghost = (await page.locator('.table-sea g.ghost').boundingBox())!;
    const at = await screenOf(page, to, depth);
    await page.mouse.move(ghost.x + ghost.width / 2, ghost.y + ghost.height / 2);
    await page.mouse.down();
    await page.mouse.move(at.x, at.y, { steps: 8 });
    await page.mouse.up();
  }

  test('sign up two players', async () => {
    seats.admiral = await signUp(`tadm_${stamp}`);
    seats.pirate = await signUp(`tpir_${stamp}`);
  });

  test('the Diadochi Naval Rules: a line abreast dragged into contact, a ram clicked, fought to the end', async () => {
    const battle = await setUpBattle({
      title: 'Two against one',
      rules: /^Diadochi Naval Rules/,
      scenario: 'Squadron against squadron',
      side: 'Antigonids',
      otherSide: 'Ptolemies',
      edit(dn) {
        dn.title = 'Two against one';
        dn.table.width = 12;
        dn.table.depth = 12;
        dn.turnLimit = 6;
        dn.first = 'antigonids';
        dn.zones = { antigonids: { x0: 0, y0: 0, x1: 12, y1: 5 }, ptolemies: { x0: 0, y0: 7, x1: 12, y1: 12 } };
        for (const q of dn.squadrons) q.rating = 9;
        dn.squadrons[0].flagship = 'demetrius-1';
        dn.squadrons[1].flagship = 'menelaus-1';
        dn.ships = [
          { id: 'demetrius-1', name: 'Nike', squadron: dn.squadrons[0].id, type: 'trieres', x: 5.5, y: 4, heading: 0 },
          { id: 'demetrius-2', name: 'Tyche', squadron: dn.squadrons[0].id, type: 'trieres', x: 6.5, y: 4, heading: 0 },
          { id: 'menelaus-1', name: 'Leon', squadron: dn.squadrons[1].id, type: 'trieres', x: 6, y: 8, heading: 180 },
        ];
      },
    });
    // The Antigonids plot their positions on the table: Nike dragged elsewhere in the zone (drawn), the wheel zooming
    // about the pointer, a place outside the zone refused, Nike typed back to its place, the plot handed in.
    const page = seats.admiral.page;
    await page.getByText('Your turn').waitFor();
    await page.locator('.table-sea g.piece').first().waitFor();
    const deploy = page.locator('.table-panel .deployment');
    await deploy.getByRole('group', { name: 'What to place' }).getByRole('button', { name: 'Nike' }).click();
    // The whole table on the screen, so that the wheel is turned over it.
    await page.locator('.table-sea svg').scrollIntoViewIfNeeded();
    await page.locator('.table-sea g.ghost').waitFor();
    await page.locator('.table-sea .zone rect').waitFor();
    await dragGhost(page, { x: 3, y: 2 }, 12);
    await deploy.locator('.verdict', { hasText: 'The plot as it stands is legal.' }).waitFor();
    await shot(page, 'diadochi-deploy');
    // The whole table on the screen, so that the wheel is turned over it.
    await page.locator('.table-sea svg').scrollIntoViewIfNeeded();
    const whole = await viewWidth(page);
    const under = await screenOf(page, { x: 3, y: 2 }, 12);
    await page.mouse.move(under.x, under.y);
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -100);
    await eventually(() => viewWidth(page)).toBeLessThan(whole / 2);
    // Gentle: four notches are not the closest the table goes (a twelfth); the point under the pointer stays there.
    expect(await viewWidth(page)).toBeGreaterThan(whole / 12);
    const still = await screenOf(page, { x: 3, y: 2 }, 12);
    expect(Math.abs(still.x - under.x) + Math.abs(still.y - under.y)).toBeLessThan(3);
    await shot(page, 'diadochi-deploy-zoomed');
    await dragGhost(page, { x: 3, y: 3.5 }, 12);
    await page.getByRole('button', { name: 'Whole table' }).click();
    await dragGhost(page, { x: 3, y: 9 }, 12);
    await eventually(() => deploy.locator('.verdict').textContent()).toMatch(/Refused: Nike must start within .*deployment zone/);
    for (const [label, value] of [
      [/^East/, '5.5'],
      [/^North/, '4'],
      [/^Heading/, '0'],
    ] as const) {
      await deploy.getByLabel(label).fill(value);
      await deploy.getByLabel(label).press('Tab');
    }
    await deploy.locator('.verdict', { hasText: 'The plot as it stands is legal.' }).waitFor();
    await deploy.getByRole('button', { name: /^Hand in: plots the positions of 2 ships/ }).click();
    await logReached(page, 1);
    // The server took the plot as typed (one's own plot is shown to oneself until both are in).
    const plotted = (await seats.admiral.get(battle)).state as Json;
    expect(plotted.deployments.antigonids).toEqual([
      { ship: 'demetrius-1', x: 5.5, y: 4, heading: 0 },
      { ship: 'demetrius-2', x: 6.5, y: 4, heading: 0 },
    ]);
    // The Ptolemies plot theirs as set up (through the API), then Antigonus moves first.
    await playWhile(
      battle,
      (_, legal) => legal[0].action,
      (d) => d.turn?.kind === 'simultaneous',
    );
    await page.getByText('Your turn').waitFor();
    await page.getByRole('group', { name: 'What may move' }).getByRole('button', { name: 'Line abreast: Nike, Tyche' }).click();
    const panel = page.locator('.table-panel');
    // Dragged up and to the right (a wheel: the screenshot), then straight ahead 3.5 cables: it stops on contact.
    await dragGhost(page, { x: 8, y: 6.5 }, 12);
    await panel
      .locator('.verdict')
      .filter({ hasText: /Legal: .*wheel|Refused/ })
      .waitFor();
    await shot(page, 'diadochi-wheel');
    await dragGhost(page, { x: 6, y: 7.5 }, 12);
    await eventually(() => panel.locator('.verdict').textContent()).toMatch(
      /Legal: the line abreast Nike, Tyche: (wheel \d+° (left|right), )?ahead 3\.\d cables, to contact/,
    );
    const before = (await seats.admiral.get(battle)).actionCount;
    await panel.getByRole('button', { name: 'Take this move' }).click();
    await logReached(page, before + 1);
    await expect(page.locator('.battle-log li').last().textContent()).resolves.toMatch(/command rolled \d+ against 9/);

    // To the close combat (the API ends the other moves); the ram is clicked on the page if it comes to Antigonus.
    // Both hold their missiles: the dice are new each run, and a lucky volley could sink a flagship and end the
    // battle before any ship came to contact.
    const rammed = await playWhile(
      battle,
      (side, legal) => {
        const holdFire = legal.find((l) => l.action.kind === 'fire' && l.action.attacks.length === 0);
        if (holdFire) return holdFire.action;
        const ram = legal.find((l) => l.action.kind === 'combat' && l.action.attacks.some((a: Json) => a.attack === 'ram'));
        // Antigonus closes in: the group forms up again if a blunder broke it, or goes ahead in line, or ship by ship.
        const ahead =
          legal.find((l) => l.action.kind === 'order' && l.action.move.kind === 'reform') ??
          legal.find((l) => l.action.kind === 'order' && l.action.formation === 'abreast' && isAhead(l.action)) ??
          legal.find((l) => l.action.kind === 'order' && l.action.formation === 'single' && isAhead(l.action));
        if (ram && side === 'ptolemies') return ram.action;
        return (side === 'antigonids' ? ahead?.action : undefined) ?? legal.find((l) => l.action.kind === 'end-movement')?.action ?? legal[0].action;
      },
      (d) => !(d.turn?.kind === 'side' && d.turn.side === 'antigonids' && /close combat/.test(d.turn.prompt)),
    );
    if (rammed.status === 'active') {
      await page.getByText('Your turn').waitFor();
      await logReached(page, rammed.actionCount);
      const ram = page.locator('.table-panel .actions button', { hasText: / rams / }).first();
      await ram.click();
      await logReached(page, rammed.actionCount + 1);
      await expect(page.locator('.battle-log').textContent()).resolves.toMatch(/rams .*difference/);
      await shot(page, 'diadochi-ram', '.battle-log li:last-child');
    }
    const done = await playWhile(
      battle,
      (_, legal) =>
        (
          legal.find((l) => l.action.kind === 'combat' && l.action.attacks.some((a: Json) => a.attack === 'ram')) ??
          legal.find((l) => l.action.kind === 'end-movement') ??
          legal[0]
        ).action,
      () => true,
    );
    expect(done.status).toBe('finished');
    await page.locator('.outcome').waitFor();
    await expect(page.locator('.battle-log').textContent()).resolves.toMatch(/rams/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'diadochi-end');
    await expect(page.locator('.outcome').textContent()).resolves.toMatch(/won|Nobody won/);
    // The replay slider goes back to the start: the ships where they were set up.
    await page.getByLabel('Replay').fill('0');
    await page.locator('.replay span', { hasText: 'The start' }).waitFor();
    await eventually(() => page.locator('.table-sea g.piece').count()).toBe(3);
    await page.getByRole('button', { name: 'Back to now' }).click();
    // The check page replays every die of the table battle.
    await page.getByRole('link', { name: 'Check every die of this battle' }).click();
    await page.waitForURL(`**/battles/${battle}/verify`);
    await page.locator('.verdict').waitFor({ timeout: 30_000 });
    await expect(page.locator('.verdict .big').textContent()).resolves.toBe('✔ Pass');
  });

  test('Oi Navarcoi!: a squadron dragged into the enemy’s front, the melee, the end', async () => {
    const battle = await setUpBattle({
      title: 'One squadron each',
      rules: /^Oi Navarcoi!/,
      scenario: 'Clash in open seas',
      side: 'Athens',
      otherSide: 'Corinth',
      edit(oi) {
        oi.title = 'One squadron each';
        oi.turnLimit = 1;
        oi.table = { width: 36, depth: 24 };
        oi.sides[0].zone = { x0: 4, y0: 6, x1: 32, y1: 11 };
        oi.sides[1].zone = { x0: 4, y0: 12, x1: 32, y1: 18 };
        oi.squadrons = [
          { ...oi.squadrons[0], x: 18, y: 10 },
          { ...oi.squadrons[4], x: 18, y: 12.9 },
        ];
      },
    });
    // Athens re-places its squadron in epi pollon on the table (for a diekplous); Corinth deploys as set up; the
    // initiative goes so that Athens moves first.
    {
      const page = seats.admiral.page;
      await page.getByText('Your turn').waitFor();
      const deploy = page.locator('.table-panel .deployment');
      await deploy.getByRole('group', { name: 'What to place' }).getByRole('button', { name: 'Paralos squadron' }).click();
      await deploy.getByLabel('Formation').selectOption('epi-pollon');
      await deploy.locator('.verdict', { hasText: 'The plot as it stands is legal.' }).waitFor();
      await deploy
        .getByRole('button', { name: /^Hand in: .*1 squadron re-placed/ })
        .first()
        .click();
      await logReached(page, 1);
    }
    await playWhile(
      battle,
      (side, legal) => legal.find((l) => l.action.kind === 'initiative' && l.action.first === (side === 'athens'))?.action ?? legal[0].action,
      (d) => !(d.turn?.kind === 'side' && d.turn.side === 'athens' && /moves its squadrons/.test(d.turn.prompt)),
    );
    const page = seats.admiral.page;
    await page.getByText('Your turn').waitFor();
    await page.locator('.table-sea g.piece').first().waitFor();
    await page.getByRole('group', { name: 'What may move' }).getByRole('button', { name: 'Paralos squadron' }).click();
    const panel = page.locator('.table-panel');
    await dragGhost(page, { x: 18, y: 11.8 }, 24);
    await eventually(() => panel.locator('.verdict').textContent()).toMatch(/Legal: Paralos squadron .*attacking Corinthian van/);
    await shot(page, 'oi-attack');
    // Made a diekplous: the enemy clicked aims the run, the manoeuvre chosen, its way through drawn.
    // Clicked on a stand at one end, clear of the ghost's turning handle.
    await page.locator('.table-sea g.piece.target[data-piece="cor-1"] polygon.base').first().click();
    const ways = panel.getByRole('radiogroup', { name: /^Attack on Corinthian van/ });
    await ways.getByRole('radio', { name: /Diekplous/ }).check();
    // The turn's event may have disordered the squadron: then the engine refuses the diekplous, saying why.
    await eventually(() => panel.locator('.verdict').textContent()).toMatch(/Legal: Paralos squadron .*attacking Corinthian van by diekplous|Refused: /);
    const diekplous = /by diekplous/.test((await panel.locator('.verdict').textContent()) ?? '');
    if (diekplous) {
      await page.locator('.table-sea .way polygon.base').first().waitFor();
      await page.locator('.table-sea .way polyline').waitFor({ state: 'attached' });
    } else {
      await expect(panel.locator('.verdict').textContent()).resolves.toMatch(/Refused: A disordered squadron cannot attempt the diekplous/);
      await expect(ways.textContent()).resolves.toContain('Diekplous (refused)');
    }
    // Closer, with the buttons: the fight is in the middle of the table.
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
    await eventually(() => page.locator('.table-sea .level').textContent()).toBe('338 %');
    await shot(page, 'oi-diekplous');
    if (!diekplous) await ways.getByRole('radio', { name: /Melee/ }).check();
    const before = (await seats.admiral.get(battle)).actionCount;
    await panel.getByRole('button', { name: 'Take this move' }).click();
    await logReached(page, before + 1);
    const done = await playWhile(
      battle,
      (_, legal) => (legal.find((l) => l.action.kind === 'end-movement') ?? legal[0]).action,
      () => true,
    );
    expect(done.status).toBe('finished');
    await page.locator('.outcome').waitFor();
    // A melee, unless the defence also succeeded against the diekplous (the server's dice): then the attacker aborts.
    await eventually(() => page.locator('.battle-log').textContent()).toMatch(/Melee phase|The defence forces .* to abort/);
    const melee = /Melee phase/.test((await page.locator('.battle-log').textContent()) ?? '');
    // The server made the diekplous (its tests and outcome in the log), or said why not: a squadron its manoeuvre test
    // disordered on contact attacks plainly.
    if (diekplous)
      await expect((await page.request.get(`${server.url}/api/battles/${battle}/log`)).text()).resolves.toMatch(
        /Diekplous: |is disordered now and cannot attempt the diekplous/,
      );
    if (melee) await shot(page, 'oi-melee', '.battle-log .line:has-text("Melee phase")');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'oi-end');
    expect(browser.consoleErrors).toEqual([]);
  });
});
