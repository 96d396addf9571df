/**
 * `npm run soak -- playthrough`: the people's three-year play-through of issue 34, replayed by a script. The real
 * server (a fresh database: PostgreSQL with DATABASE_URL, else PGlite) serves a fresh production build of the client;
 * a game master and five players start a Diadochi V game through the API, and three game-years are played: each phase
 * one power's orders are typed on its game page in Debian's Chromium (the screen size turning through the four the
 * issue names), the others' random legal orders go through the API. Screenshots of the lobby, the first map view,
 * each phase's results (the first Spring's with a head-to-head), the Winter results and the sandbox set-up go to
 * dist/playthrough-screenshots/ (git-ignored, as dist/ is), to be looked at; the script fails on any
 * error a page logs, and on a map that does not fill its frame. After the three years (SOAK_YEARS to play fewer):
 * the clock paused (the Ready words), a unit clicked (no tooltip left over it), orders saved twice from another
 * window (one notice), Press opening on the unread letter and the same user's second log-in (a phone) finding it
 * read; the game master moving the deadline by 20 minutes and typing and clicking a power's orders (checked as
 * typed); a loan made (its borrower told, the centre in its first view); a power put in civil disorder (told what
 * takes it back).
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adjudicate, formatOrder, getVariant, type GameState, type Order } from '../shared/index.ts';
import { launchBrowser } from '../tests/e2e/browser.ts';
import { startServer } from '../tests/e2e/server.ts';
import { Browser as ApiClient, registeredBrowsers } from '../tests/server/helpers/app.ts';
import { randomOrders, seeded } from '../tests/support/random-game.ts';

const root = path.join(import.meta.dirname, '..');
const webDist = path.join(root, 'dist', 'playthrough-web');
const shots = path.join(root, 'dist', 'playthrough-screenshots');
const SIZES = [
  { name: '375', width: 375, height: 812 },
  { name: '1024', width: 1024, height: 768 },
  { name: '1400', width: 1400, height: 900 },
  { name: '1920', width: 1920, height: 1080 },
] as const;
type Size = (typeof SIZES)[number];
/** Game-years played; a phase count bounds the loop should the game end or stall. */
const YEARS = Number(process.env.SOAK_YEARS ?? 3);
const MAX_PHASES = 5 * YEARS;
const SEED = Number(process.env.SOAK_SEED ?? 34);

type PhaseAnswer = {
  index: number;
  name: string;
  state: GameState;
  powers: { power: string; mustOrder: boolean }[];
};

function log(line: string) {
  console.log(`playthrough: ${line}`);
}

async function call(client: ApiClient, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  const response = await client.request(method, url, body);
  if (response.statusCode >= 300) throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

/** The client as players get it, built into its own folder (never the e2e suite's or a developer's). */
async function buildClient() {
  const { build } = await import('vite');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(root, 'web', 'vite.config.ts'), logLevel: 'warn', mode: 'production', build: { outDir: webDist, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

export async function playthrough(): Promise<void> {
  rmSync(shots, { recursive: true, force: true });
  mkdirSync(shots, { recursive: true });
  log('building the client');
  await buildClient();
  const [server, chromium] = await Promise.all([startServer(webDist), launchBrowser()]);
  const pageErrors: string[] = [];
  const problems: string[] = [];
  const notes: string[] = [];
  let shotCount = 0;
  try {
    const master = await new ApiClient(server.app).register('gamemaster');
    const created = await call(master, 'POST', '/api/games', { name: 'Three years of Diadochi', variant: 'diadochi-v', joinAsPlayer: false });
    const players = await registeredBrowsers(server.app, created.seats);
    for (const player of players) await call(player, 'POST', `/api/games/${created.id}/join`, {});
    const gameId: string = created.id;
    const byPower = new Map<string, ApiClient>();
    for (const player of players) {
      const detail = await call(player, 'GET', `/api/games/${gameId}`);
      byPower.set(detail.players.find((p: { isYou: boolean }) => p.isYou).power, player);
    }
    log(`game ${gameId}: ${[...byPower].map(([power, p]) => `${power} ${p.user!.username}`).join(', ')}`);

    /** A page at a size, as `client`'s user (their session cookie), or as a visitor. */
    async function open(size: Size, client: ApiClient | null): Promise<Page> {
      const page = await chromium.newPage(size);
      if (client) await page.context().addCookies([{ name: 'sid', value: client.cookie!.replace(/^sid=/, ''), url: server.url }]);
      page.on('console', (m) => {
        if (m.type() === 'error') pageErrors.push(`${size.name}: ${m.text()} (${m.location().url})`);
      });
      page.on('pageerror', (e) => pageErrors.push(`${size.name}: ${String(e)}`));
      return page;
    }
    async function shot(page: Page, name: string) {
      await page.screenshot({ path: path.join(shots, `${name}.png`) });
      shotCount++;
    }
    /** The map's frame against its pane, and what of the drawing it shows: a frame that leaves bands is a problem. */
    async function checkFill(page: Page, where: string) {
      const m = await page.evaluate(() => {
        const svg = document.querySelector('svg.dmap');
        const pane = document.querySelector('.map-pane');
        if (!svg || !pane) return null;
        const p = pane.getBoundingClientRect();
        const f = svg.getBoundingClientRect();
        const [x, y, w, h] = svg.getAttribute('viewBox')!.split(' ').map(Number);
        return { pane: [p.width, p.height], frame: [f.width, f.height], view: [x, y, w, h] };
      });
      if (!m) return problems.push(`${where}: no map on the page`);
      const [x, y, w, h] = m.view;
      if (Math.abs(m.frame[0] - m.pane[0]) > 1 || Math.abs(m.frame[1] - m.pane[1]) > 1)
        problems.push(`${where}: the map's frame ${m.frame.join('×')} does not fill its pane ${m.pane.join('×')}`);
      // Desk beside the map: the player's units may spread wider than the frame's shape allows to fill it, and the
      // first view shows all of them (issue 34 asks for both): said, not failed.
      if (x < -0.5 || y < -0.5 || x + w > 1600.5 || y + h > 900.5)
        notes.push(`${where}: the view ${m.view.map((a) => Math.round(a)).join(' ')} shows desk beyond the map`);
    }

    /** Submits a power's orders through the API, less those the engine refuses (named by its 422); returns those kept. */
    async function submit(power: string, list: Order[], ready: boolean): Promise<Order[]> {
      const phase = (await call(master, 'GET', `/api/games/${gameId}/phases/current`)) as PhaseAnswer;
      const url = `/api/games/${gameId}/phases/${phase.index}/orders`;
      const client = byPower.get(power)!;
      let kept = list;
      let r = await client.request('PUT', url, { orders: kept, ready });
      if (r.statusCode === 422) {
        const refusal = r.json() as { orders: { accepted: boolean }[] };
        kept = list.filter((_, i) => refusal.orders[i]?.accepted);
        log(`${phase.name}: ${power}'s refused orders dropped: ${r.json().error.message}`);
        r = await client.request('PUT', url, { orders: kept, ready });
      }
      if (r.statusCode !== 200) throw new Error(`${phase.name}: ${power}'s orders answered ${r.statusCode}: ${r.body}`);
      return kept;
    }

    const variant = getVariant('diadochi-v')!;
    const rnd = seeded(SEED);
    const start = (await call(master, 'GET', `/api/games/${gameId}/phases/current`)) as PhaseAnswer;
    const firstYear = start.state.phase.year;
    let sawWinter = false;
    let sawRetreat = false;
    for (let n = 0; n < MAX_PHASES; n++) {
      const phase = (await call(master, 'GET', `/api/games/${gameId}/phases/current`)) as PhaseAnswer;
      if (Math.abs(phase.state.phase.year - firstYear) >= YEARS || phase.state.winners) break;
      const size = SIZES[n % SIZES.length];
      if (phase.state.phase.type === 'retreat') sawRetreat = true;
      const due = phase.powers.filter((p) => p.mustOrder).map((p) => p.power);
      if (due.length === 0) throw new Error(`${phase.name}: nobody has anything to order`);
      // Random legal orders; until a retreat has been played, a movement's are drawn again (1500 times at
      // most) until one dislodges a unit, so that the three years have retreats too.
      let drawn = randomOrders(variant, phase.state, rnd);
      for (let tries = 0; !sawRetreat && phase.state.phase.type === 'movement' && n > 0 && tries < 1500; tries++) {
        const outcome = adjudicate(variant, phase.state, drawn);
        if (!outcome.ok) throw new Error(`${phase.name}: the engine refused random legal orders: ${outcome.error.join('; ')}`);
        if (outcome.value.next.phase.type === 'retreat') {
          log(`${phase.name}: orders that dislodge a unit drawn after ${tries + 1} tries`);
          break;
        }
        drawn = randomOrders(variant, phase.state, rnd);
      }
      const orders = new Map<string, Order[]>();
      for (const o of drawn) {
        // The generator's removals name whole units (with their power); the wire's take { type, at }.
        let order = o.order as Order;
        if (order.kind === 'remove') order = { kind: 'remove', unit: { type: order.unit.type, at: order.unit.at } };
        orders.set(o.power, [...(orders.get(o.power) ?? []), order]);
      }
      // The first Spring: Carthage's armies swap places, a head-to-head (both bounce).
      if (n === 0)
        orders.set('Carthage', [
          { kind: 'move', unit: { type: 'army', at: 'Gad' }, to: 'New', viaConvoy: false },
          { kind: 'move', unit: { type: 'army', at: 'New' }, to: 'Gad', viaConvoy: false },
          { kind: 'move', unit: { type: 'fleet', at: 'Car' }, to: 'Num', viaConvoy: false },
        ]);
      const onPage = due.includes('Carthage') ? 'Carthage' : due[n % due.length];
      const tag = `${String(n).padStart(2, '0')}-${phase.name.replace(/\s+/g, '-')}`;
      log(`${phase.name}: ${onPage} on the page at ${size.width}×${size.height}, ${due.filter((p) => p !== onPage).join(', ') || 'nobody'} through the API`);

      // The lobby of the player who orders on the page.
      const player = byPower.get(onPage)!;
      const lobby = await open(size, player);
      await lobby.goto(server.url);
      await lobby.getByRole('heading', { name: 'The Lobby' }).waitFor();
      await lobby.waitForTimeout(500);
      await shot(lobby, `${tag}-${size.name}-lobby`);
      await lobby.close();

      // Orders the engine takes (random builds may pick one site twice), checked before the page opens as a draft that
      // is not ready, then withdrawn: the page starts with none saved.
      const typed = (await submit(onPage, orders.get(onPage) ?? [], false)).map((o) => formatOrder(o)).join('\n');
      await submit(onPage, [], false);

      // Their game page: the first view, then the orders typed, saved and Ready ticked.
      const page = await open(size, player);
      await page.goto(`${server.url}/games/${gameId}`);
      await page.getByRole('heading', { name: phase.name }).waitFor();
      await page.locator('svg.dmap g.unit').first().waitFor();
      await page.waitForTimeout(500);
      await checkFill(page, `${phase.name} at ${size.name}`);
      await shot(page, `${tag}-${size.name}-open`);

      if (size.width < 500) await page.getByRole('button', { name: 'Raise the panel' }).tap();
      if (typed !== '') {
        await page.locator('#orders-text').fill(typed);
        await page.getByRole('button', { name: 'Save orders' }).click();
        // Saved: nothing left to save.
        await page.locator('button.primary[aria-disabled="true"]', { hasText: 'Save orders' }).waitFor();
      }
      await page.locator('label.ready input').check();
      await shot(page, `${tag}-${size.name}-entered`);
      for (const power of due.filter((p) => p !== onPage)) await submit(power, orders.get(power) ?? [], true);
      // The results, as the page shows them once the last power is ready.
      await page.getByText(`Results of ${phase.name}`).waitFor({ timeout: 30_000 });
      await page.waitForTimeout(800);
      await shot(page, `${tag}-${size.name}-results`);
      await page.close();

      // The first Spring's head-to-head and every Winter's results, at all four sizes.
      if (n === 0 || phase.state.phase.type === 'adjustment') {
        if (phase.state.phase.type === 'adjustment') sawWinter = true;
        for (const other of SIZES) {
          const p = await open(other, byPower.get('Carthage')!);
          await p.goto(`${server.url}/games/${gameId}`);
          await p.locator('svg.dmap g.unit').first().waitFor();
          await p.getByRole('button', { name: 'Previous phase' }).click();
          await p.getByRole('heading', { name: `${phase.name} results` }).waitFor();
          await p.waitForTimeout(600);
          await checkFill(p, `${phase.name} results at ${other.name}`);
          await shot(p, `${tag}-${other.name}-results-carthage`);
          await p.close();
        }
      }
    }
    // After the three years: press for Carthage (public, and an unread private letter from Egypt) and the clock paused
    // by the game master; Carthage's board (the Ready words, then Press, which should open on Egypt's letter) and the
    // game master's tools, photographed.
    await call(byPower.get('Rome')!, 'POST', `/api/games/${gameId}/press`, { to: 'all', body: 'Rome salutes every Diadochos.' });
    await call(byPower.get('Egypt')!, 'POST', `/api/games/${gameId}/press`, { to: ['Carthage'], body: 'Carthage: shall we share the sea?' });
    await call(master, 'POST', `/api/games/${gameId}/gm/pause`);
    const carthage = byPower.get('Carthage')!;
    /** Text of the page's notices (above the panel). */
    const noticesOf = (page: Page) => page.locator('.notices p.notice').allTextContents();
    {
      // Item 8: while paused, Ready says the phase waits for the game master.
      const page = await open(SIZES[2], carthage);
      await page.goto(`${server.url}/games/${gameId}`);
      await page.locator('svg.dmap g.unit').first().waitFor();
      await page.waitForTimeout(500);
      await shot(page, 'extra-1400-paused');
      const ready = (await page.locator('.panel, aside.side').first().textContent()) ?? '';
      if (!ready.includes('waits for the game master')) problems.push('paused: the Ready words do not say the phase waits for the game master');
      // Item 8: a click on a unit hides the province's tooltip (it would cover what was just ordered).
      const unit = page.locator('svg.dmap g.unit.selectable').first();
      if ((await unit.count()) > 0) {
        await unit.hover();
        await page.waitForTimeout(200);
        await unit.click();
        await page.waitForTimeout(300);
        if (await page.locator('.map-frame .tooltip').isVisible()) problems.push('a click on a unit left the tooltip over it');
        await shot(page, 'extra-1400-clicked-unit');
        await page.keyboard.press('Escape');
      }
      // Item 8: orders saved twice from another window (the API): one notice, not two.
      const phase = (await call(master, 'GET', `/api/games/${gameId}/phases/current`)) as PhaseAnswer;
      const mine = randomOrders(variant, phase.state, rnd).filter((o) => o.power === 'Carthage');
      const lines = await submit(
        'Carthage',
        mine.map((o) => o.order as Order).filter((o) => o.kind !== 'remove'),
        false,
      );
      if (lines.length >= 2) {
        await submit('Carthage', lines.slice(0, -1), false);
        await page.waitForTimeout(1500);
        const saved = (await noticesOf(page)).filter((t) => t.includes('saved from another window'));
        if (saved.length !== 1) problems.push(`orders saved twice from another window: ${saved.length} notices (one expected)`);
        await shot(page, 'extra-1400-saved-elsewhere');
      } else notes.push(`${phase.name}: Carthage has fewer than two orders to save twice from another window`);
      // Item 5: Press opens on Egypt's unread letter; reading it here marks it read on the server.
      await page.getByRole('tab', { name: /Press/ }).click();
      await page.waitForTimeout(800);
      const current = (await page.locator('.conversations [aria-current="true"]').first().textContent()) ?? '';
      if (!current.includes('Egypt')) problems.push(`Press opened on "${current.trim()}", not on Egypt's unread letter`);
      await shot(page, 'extra-1400-press');
      await page.close();
    }
    {
      // Item 5: the same user on a second device (a new log-in: its own session and storage) finds the letter read.
      const phone = new ApiClient(server.app);
      const login = await phone.login(carthage.user!.username);
      if (login.statusCode !== 200) throw new Error(`Carthage's second log-in answered ${login.statusCode}: ${login.body}`);
      const page = await open(SIZES[0], phone);
      await page.goto(`${server.url}/games/${gameId}`);
      await page.locator('svg.dmap g.unit').first().waitFor();
      await page.waitForTimeout(500);
      await page.getByRole('button', { name: 'Raise the panel' }).tap();
      await shot(page, 'extra-375-paused');
      await page.getByRole('tab', { name: /Press/ }).click();
      await page.waitForTimeout(800);
      // Rome's public message is still unread; Egypt's letter, read on the desktop, is not.
      const egypt = page.locator('.conversations button', { hasText: 'Egypt' });
      if ((await egypt.count()) === 0) problems.push('the phone lists no conversation with Egypt');
      else if ((await egypt.locator('.badge').count()) > 0) problems.push('the letter read on the desktop shows unread on the phone');
      await shot(page, 'extra-375-press');
      await page.close();
    }
    {
      // Item 7: the game master's tools: the deadline moved by minutes, and orders for a power given with the players'
      // order entry (checked as typed, its units on the map).
      await call(master, 'POST', `/api/games/${gameId}/gm/resume`);
      const gm = await open(SIZES[2], master);
      await gm.goto(`${server.url}/games/${gameId}`);
      await gm.locator('svg.dmap g.unit').first().waitFor();
      await gm.getByRole('tab', { name: /Game/ }).click();
      await gm.waitForTimeout(800);
      await shot(gm, 'extra-1400-gm-tools');
      const before = (await gm.locator('.phase-head .deadline').textContent()) ?? '';
      await gm.locator('.deadline-form input[type="number"]').fill('20');
      await gm.locator('.deadline-form select').selectOption('minutes');
      await gm.getByRole('button', { name: 'Change the deadline…' }).click();
      await gm.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
      await gm.waitForTimeout(1200);
      const after = (await gm.locator('.phase-head .deadline').textContent()) ?? '';
      if (before === after) problems.push(`the deadline moved by 20 minutes still reads "${after.trim()}"`);
      await shot(gm, 'extra-1400-gm-deadline');
      await gm.locator('.gm label', { hasText: 'Power' }).locator('select').first().selectOption('Syria');
      await gm.waitForTimeout(500);
      const box = gm.locator('.gm-orders textarea');
      await box.fill('A Ant - Xyz');
      await gm.waitForTimeout(600);
      await shot(gm, 'extra-1400-gm-orders-typed');
      // A unit of Syria's clicked on the map, as a player's.
      const syrian = gm.locator('svg.dmap g.unit.selectable').first();
      if ((await syrian.count()) === 0) problems.push("the game master's order entry makes none of Syria's units clickable on the map");
      else {
        await syrian.click();
        await gm.waitForTimeout(400);
      }
      await gm.locator('.gm-orders').scrollIntoViewIfNeeded();
      if (await gm.locator('.map-frame .tooltip').isVisible()) problems.push("a click on a unit in the game master's entry left the tooltip over it");
      await shot(gm, 'extra-1400-gm-orders-map');
      await gm.close();
    }
    {
      // Item 7: a loan drawn on the map, and the borrower told. The engine refuses a loan that leaves the lender's
      // units unsupplied: the first power with a centre to spare lends it to another.
      const phase = (await call(master, 'GET', `/api/games/${gameId}/phases/current`)) as PhaseAnswer;
      let lent: string | null = null;
      let borrower = '';
      const refusals = new Set<string>();
      search: for (const [lender, client] of byPower)
        for (const [centre, owner] of Object.entries(phase.state.owners ?? {}))
          if (owner === lender)
            for (const to of byPower.keys()) {
              if (to === lender) continue;
              const r = await client.request('POST', `/api/games/${gameId}/loans`, { centre, to });
              if (r.statusCode === 201) {
                [lent, borrower] = [centre, to];
                log(`${lender} lent ${centre} to ${to}`);
                break search;
              }
              refusals.add(r.json().error?.message ?? String(r.statusCode));
            }
      if (!lent) notes.push(`no power could lend a centre: ${[...refusals].join('; ')}`);
      else {
        const page = await open(SIZES[3], byPower.get(borrower)!);
        await page.goto(`${server.url}/games/${gameId}`);
        await page.locator('svg.dmap g.unit').first().waitFor();
        await page.waitForTimeout(800);
        const told = (await noticesOf(page)).some((t) => t.includes(lent!) || /lent|loan/i.test(t));
        if (!told) problems.push(`${borrower}, the borrower of ${lent}, is not told of the loan on opening the board`);
        const drawn = await page
          .locator(`svg.dmap .centres [data-centre="${lent}"]`)
          .first()
          .innerHTML()
          .catch(() => '');
        if (!/loan|lent|chain/i.test(drawn)) notes.push(`the loan of ${lent} is not recognisable in its centre's marker: ${drawn.slice(0, 200)}`);
        // The borrower's first view shows the centre lent to it, beside its units.
        const seen = await page.evaluate((id) => {
          const m = document.querySelector(`svg.dmap .centres [data-centre="${id}"]`)?.getBoundingClientRect();
          const f = document.querySelector('.map-pane')?.getBoundingClientRect();
          return !!m && !!f && m.left >= f.left && m.right <= f.right && m.top >= f.top && m.bottom <= f.bottom;
        }, lent);
        if (!seen) problems.push(`${borrower}'s first view does not show ${lent}, the centre lent to it`);
        await shot(page, 'extra-1920-loan-borrower');
        await page.close();
      }
    }
    {
      // Item 8: a power in civil disorder is told what takes it back.
      await call(master, 'POST', `/api/games/${gameId}/gm/civil-disorder`, { power: 'Macedonia' });
      const page = await open(SIZES[1], byPower.get('Macedonia')!);
      await page.goto(`${server.url}/games/${gameId}`);
      await page.locator('svg.dmap g.unit').first().waitFor();
      await page.waitForTimeout(500);
      const text = (await page.locator('aside.side').textContent()) ?? '';
      if (!text.includes('civil disorder') || !/takes? it back/.test(text)) problems.push('a power in civil disorder is not told what takes it back');
      await shot(page, 'extra-1024-civil-disorder');
      await page.close();
    }

    if (!sawWinter) problems.push('no Winter adjustment was played');
    // Random orders dislodge rarely (about one set in a hundred from the second year): said, not failed.
    if (!sawRetreat) notes.push('no retreat was played: no random set of orders drawn dislodged a unit');

    // The sandbox set-up, as a visitor, at every size.
    for (const size of SIZES) {
      const page = await open(size, null);
      await page.goto(`${server.url}/sandbox`);
      await page.locator('svg.dmap g.unit').first().waitFor();
      await page.waitForTimeout(500);
      await checkFill(page, `sandbox at ${size.name}`);
      await shot(page, `sandbox-${size.name}-open`);
      if (size.width < 500) await page.getByRole('button', { name: 'Raise the panel' }).tap();
      await page.getByRole('button', { name: 'Set up the position' }).click();
      await page.waitForTimeout(300);
      await shot(page, `sandbox-${size.name}-setup`);
      await page.close();
    }
  } finally {
    await chromium.close();
    await server.close();
  }
  log(`${shotCount} screenshots in ${path.relative(root, shots)}`);
  for (const note of notes) log(`note: ${note}`);
  const failures = [...problems, ...pageErrors.map((e) => `a page logged: ${e}`)];
  if (failures.length > 0) throw new Error(`the play-through found:\n${failures.join('\n')}`);
}
