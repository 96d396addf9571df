/**
 * Campaign play on the board (the API and the live channel scripted): a movement phase whose orders are final and
 * whose results wait for its contested seas is shown as awaiting sea battles (no deadline, no Ready), with each sea
 * listed (sides, fleets, status, the auto-resolve time) and marked on the map; the game master sets the sides where
 * three powers met, decides a sea after confirming, sees a refusal in the server's words and the odds as they come
 * in live; a player sees the seas without the game master's actions; `phase.held` turns an open board into a held
 * one without a reload; a processed phase that was held lists its seas with its results.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { SeaBattle } from '../../shared/api/campaign.ts';
import type { PhaseDetail } from '../../shared/api/index.ts';
import GameView from '../../web/src/pages/GameView.svelte';
import { session } from '../../web/src/lib/session.svelte.ts';
import { localTime } from '../../web/src/game/logic.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, firstPhaseBoardRead, gameDetail, json, openPhase, southTyrrhenianSea } from './api-fixtures.ts';
import { position } from './positions.ts';

beforeAll(() =>
  Promise.all([
    import('../../web/src/game/GamePanel.svelte'),
    import('../../web/src/game/PressPanel.svelte'),
    import('../../web/src/game/SupplyPanel.svelte'),
    import('../../web/src/game/SeaBattles.svelte'),
  ]),
);

const GAME = id(4);
const channel = `game:${GAME}`;
const NAME = 'Spring 240 BC Movement';
const ZEUS = { id: id(9), username: 'zeus' };
const EGYPT = { id: id(2), username: 'egypt' };
const campaign = { ruleset: 'classis' as const, battleHours: 72, fleets: {} };
const game = gameDetail(null, { id: GAME, campaign, currentPhase: { index: 0, name: NAME, kind: 'movement', deadlineAt: null } });

// Rome's fleet holds the South Tyrrhenian Sea, Carthage's attacks it from the African Sea; three powers met in the Ionian.
const state = position([
  { power: 'Rome', type: 'fleet', at: 'STY' },
  { power: 'Carthage', type: 'fleet', at: 'AFR' },
  { power: 'Macedonia', type: 'fleet', at: 'AEG' },
  { power: 'Egypt', type: 'fleet', at: 'BAR' },
  { power: 'Rome', type: 'fleet', at: 'MTA' },
]);
const DEADLINE = '2026-12-04T18:00:00.000Z';

const sty = (fields: Partial<SeaBattle> = {}) => southTyrrhenianSea({ deadlineAt: DEADLINE, ...fields });
function ion(fields: Partial<SeaBattle> = {}): SeaBattle {
  return {
    sea: 'ION',
    seaName: 'Ionian Sea',
    status: 'undecided',
    powers: ['Macedonia', 'Egypt', 'Rome'],
    sides: null,
    battleId: null,
    outcome: null,
    decidedBy: null,
    deadlineAt: DEADLINE,
    odds: null,
    ...fields,
  };
}

const heldPhase = (seas: SeaBattle[]): PhaseDetail => openPhase(0, NAME, { status: 'held', deadlineAt: null, state, stateBefore: state, seas });

/** The phase the server holds as current. */
let current: PhaseDetail;
/** Writes to the seas' routes: method, path, body. */
let writes: { method: string; url: string; body: unknown }[];
/** What the next write to a sea answers. */
let answer: (url: string, body: unknown) => Response;
let target: HTMLElement;
let view: ReturnType<typeof mount> | undefined;

function login(user: { id: string; username: string }) {
  session.adopt({ user: { ...user, isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
}

beforeEach(() => {
  writes = [];
  current = heldPhase([sty(), ion()]);
  answer = () => json(500, {});
  localStorage.clear();
  vi.stubGlobal('WebSocket', ScriptedSocket);
  login(ZEUS);
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'http://localhost').pathname;
    if (url === `/api/games/${GAME}`) return json(200, game);
    if (url.endsWith('/phases/current')) return json(200, current);
    if (url.includes('/seas/') && init?.method && init.method !== 'GET') {
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      writes.push({ method: init.method, url, body });
      return answer(url, body);
    }
    const read = firstPhaseBoardRead(url, 'Egypt');
    if (read) return read;
    return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
  });
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  if (view) unmount(view);
  view = undefined;
  target.remove();
  vi.unstubAllGlobals();
});

async function show(mine: string | null = null) {
  view = mount(GameView, { target, props: { game: gameDetail(mine, { id: GAME, campaign, currentPhase: game.currentPhase }) } });
  // The map's drawing is its own chunk, slow to come the first time.
  await vi.waitFor(() => expect(target.querySelector('svg.dmap g.unit')).not.toBeNull(), { timeout: 15000 });
}
const seaItem = (sea: string) => target.querySelector<HTMLElement>(`li.sea[data-sea="${sea}"]`);
const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const buttonIn = (el: Element | null, name: string) => Array.from(el?.querySelectorAll('button') ?? []).find((b) => text(b) === name) ?? null;

async function socket(): Promise<ScriptedSocket> {
  await vi.waitFor(() => expect(ScriptedSocket.opened.length).toBeGreaterThan(0));
  const s = ScriptedSocket.opened.at(-1)!;
  if (s.readyState !== ScriptedSocket.OPEN) s.accept();
  await vi.waitFor(() => expect(s.sent).toContainEqual({ type: 'subscribe', channel }));
  return s;
}
/** The window's size (happy-dom's own setting): a phone held upright, or back to a desktop's. */
const viewport = (width: number, height: number) =>
  (window as unknown as { happyDOM?: { setViewport(size: { width: number; height: number }): void } }).happyDOM?.setViewport({ width, height });
const send = (s: ScriptedSocket, event: unknown) => s.onmessage?.({ data: JSON.stringify({ type: 'event', channel, event }) });

describe('a held phase on the board', () => {
  it('says it awaits sea battles instead of a deadline and Ready, lists each sea with its sides, and marks the seas on the map', async () => {
    await show();
    await vi.waitFor(() => expect(seaItem('STY')).not.toBeNull());
    expect(text(target.querySelector('.deadline'))).toMatch(/^Awaiting sea battles · the orders are final/);
    expect(target.querySelector('label.ready')).toBeNull();
    expect(text(target.querySelector('.deadline'))).not.toMatch(/Orders due/);
    expect(text(seaItem('STY'))).toMatch(/South Tyrrhenian Sea awaiting the game master Rome against Carthage/);
    expect(text(seaItem('STY'))).toContain('Carthage: F AFR (attacking from AFR)');
    expect(text(seaItem('ION'))).toContain('Macedonia, Egypt and Rome met here');
    expect(text(target.querySelector('.seas'))).toContain(`Seas still undecided are auto-resolved on ${localTime(DEADLINE)}.`);
    const marks = Array.from(target.querySelectorAll('svg.dmap g.sea-mark'), (g) => g.getAttribute('data-sea'));
    expect(marks).toEqual(['STY', 'ION']);
    expect(target.querySelector('g.sea-mark[data-sea="STY"]')!.getAttribute('aria-label')).toBe(
      'Sea battle in South Tyrrhenian Sea: Rome against Carthage; awaiting the game master.',
    );
    // A click on a mark chooses its sea in the list.
    target.querySelector<SVGGElement>('g.sea-mark[data-sea="ION"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    flushSync();
    expect(seaItem('ION')!.classList.contains('selected')).toBe(true);
    expect(target.querySelector('g.sea-mark[data-sea="ION"]')!.classList.contains('selected')).toBe(true);
  });

  it("lets the game master decide a sea after a question, and shows the server's answer", async () => {
    answer = (_url, body) => json(200, sty({ status: 'decided', outcome: { winner: (body as { winner: string }).winner }, decidedBy: 'game-master' }));
    await show();
    await vi.waitFor(() => expect(seaItem('STY')).not.toBeNull());
    const select = seaItem('STY')!.querySelector<HTMLSelectElement>('select')!;
    select.value = 'Carthage';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    buttonIn(seaItem('STY'), 'Decide')!.click();
    flushSync();
    expect(text(seaItem('STY')!.querySelector('.confirm'))).toMatch(/^Decide South Tyrrhenian Sea for Carthage\?/);
    expect(writes).toEqual([]);
    buttonIn(seaItem('STY'), 'Confirm')!.click();
    await vi.waitFor(() => expect(text(seaItem('STY')!.querySelector('.outcome'))).toBe('Carthage won by the game master.'));
    expect(writes).toEqual([{ method: 'POST', url: `/api/games/${GAME}/phases/0/seas/STY/decide`, body: { winner: 'Carthage' } }]);
    expect(text(seaItem('STY'))).toContain('decided');
    expect(buttonIn(seaItem('STY'), 'Auto-resolve')).toBeNull();
  });

  it('sets the two sides where three powers met, and shows a refusal in the server’s words', async () => {
    answer = (url, body) =>
      url.endsWith('/sides')
        ? json(200, ion({ sides: (body as { sides: string[][] }).sides.map((powers, i) => ({ id: `s${i}`, name: powers.join(' and '), powers, fleets: [] })) }))
        : json(409, { error: { code: 'sea_decided', message: 'the Ionian Sea is being fought: its battle decides it' } });
    await show();
    await vi.waitFor(() => expect(seaItem('ION')).not.toBeNull());
    buttonIn(seaItem('ION'), 'Set the sides')!.click();
    flushSync();
    const radios = (power: string) => seaItem('ION')!.querySelectorAll<HTMLInputElement>(`input[name="side-ION-${power}"]`);
    for (const [power, side] of [
      ['Macedonia', 0],
      ['Egypt', 0],
      ['Rome', 1],
    ] as const) {
      radios(power)[side].checked = true;
      radios(power)[side].dispatchEvent(new Event('change', { bubbles: true }));
    }
    flushSync();
    buttonIn(seaItem('ION'), 'Set the sides')!.click();
    await vi.waitFor(() => expect(text(seaItem('ION'))).toContain('Macedonia and Egypt against Rome'));
    expect(writes[0]).toEqual({ method: 'PUT', url: `/api/games/${GAME}/phases/0/seas/ION/sides`, body: { sides: [['Macedonia', 'Egypt'], ['Rome']] } });
    buttonIn(seaItem('ION'), 'Waive')!.click();
    flushSync();
    buttonIn(seaItem('ION'), 'Confirm')!.click();
    await vi.waitFor(() => expect(text(seaItem('ION')!.querySelector('.error-text'))).toBe('the Ionian Sea is being fought: its battle decides it'));
  });

  it('opens the battle with the clock chosen, and shows the odds as they come in live', async () => {
    answer = (url) =>
      url.endsWith('/battle') ? json(200, sty({ status: 'fighting', battleId: id(8) })) : json(202, sty({ odds: { battles: 0, of: 1000, won: {}, drawn: 0 } }));
    await show();
    const s = await socket();
    await vi.waitFor(() => expect(seaItem('STY')).not.toBeNull());
    buttonIn(seaItem('STY'), 'Estimate the odds')!.click();
    await vi.waitFor(() => expect(text(seaItem('STY')!.querySelector('.odds'))).toBe('Estimating the odds: 0 of 1,000 battles fought…'));
    send(s, { type: 'sea.changed', gameId: GAME, phaseIndex: 0, sea: sty({ odds: { battles: 312, of: 1000, won: { rome: 109, carthage: 190 }, drawn: 13 } }) });
    await vi.waitFor(() => expect(text(seaItem('STY')!.querySelector('.odds'))).toBe('312 of 1,000 battles: Rome 35 %, Carthage 61 %, drawn 4 %'));
    expect(buttonIn(seaItem('STY'), 'Estimating…')!.disabled).toBe(true);
    buttonIn(seaItem('STY'), 'Fight it out')!.click();
    flushSync();
    const live = seaItem('STY')!.querySelector<HTMLInputElement>('input[name="pace-STY"]:not(:checked)')!;
    live.checked = true;
    live.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    buttonIn(seaItem('STY'), 'Open the battle')!.click();
    await vi.waitFor(() => expect(seaItem('STY')!.querySelector('a')?.getAttribute('href')).toBe(`/battles/${id(8)}`));
    expect(writes.at(-1)).toEqual({
      method: 'POST',
      url: `/api/games/${GAME}/phases/0/seas/STY/battle`,
      body: { clock: { pace: 'live', minutesPerTurn: 10 } },
    });
    expect(text(seaItem('STY'))).toContain('being fought');
    expect(target.querySelector('g.sea-mark[data-sea="STY"]')!.classList.contains('fighting')).toBe(true);
  });

  it('shows a player the seas without the game master’s actions, at phone width too', async () => {
    login(EGYPT);
    viewport(375, 812);
    await show('Egypt');
    await vi.waitFor(() => expect(seaItem('STY')).not.toBeNull());
    expect(text(target.querySelector('.deadline'))).toMatch(/^Awaiting sea battles/);
    expect(target.querySelectorAll('li.sea button:not(.name)').length).toBe(0);
    expect(target.querySelector('li.sea select')).toBeNull();
    target.querySelector<SVGGElement>('g.sea-mark[data-sea="STY"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    flushSync();
    expect(seaItem('STY')!.classList.contains('selected')).toBe(true);
    expect(target.querySelector('aside.side')!.classList.contains('open')).toBe(true);
    viewport(1024, 768);
  });
});

describe('a campaign phase held and decided, live', () => {
  it('turns an open board into one awaiting sea battles on phase.held, then shows the seas with the results', async () => {
    login(EGYPT);
    current = openPhase(0, NAME, { state, stateBefore: state });
    await show('Egypt');
    const s = await socket();
    await vi.waitFor(() => expect(target.querySelector('label.ready')).not.toBeNull());
    expect(target.querySelector('g.sea-mark')).toBeNull();
    current = heldPhase([sty()]);
    send(s, { type: 'phase.held', gameId: GAME, phase: { index: 0, name: NAME, kind: 'movement', deadlineAt: null }, seas: ['STY'] });
    await vi.waitFor(() => expect(text(target.querySelector('.deadline'))).toMatch(/^Awaiting sea battles/));
    expect(target.querySelector('label.ready')).toBeNull();
    expect(text(target.querySelector('.notices'))).toContain(
      'The orders of Spring 240 BC Movement are final: its results wait for the battle in 1 contested sea.',
    );
    expect(target.querySelector('g.sea-mark[data-sea="STY"]')).not.toBeNull();
    send(s, {
      type: 'sea.changed',
      gameId: GAME,
      phaseIndex: 0,
      sea: sty({ status: 'decided', battleId: id(8), outcome: { winner: 'Carthage' }, decidedBy: 'battle' }),
    });
    await vi.waitFor(() => expect(text(seaItem('STY')!.querySelector('.outcome'))).toBe('Carthage won in battle.'));
    expect(target.querySelector('g.sea-mark[data-sea="STY"]')!.classList.contains('decided')).toBe(true);
  });

  it('lists a processed phase’s seas and how each was decided beside its results', async () => {
    login(EGYPT);
    const seas = [sty({ status: 'decided', battleId: id(8), outcome: { winner: 'Carthage' }, decidedBy: 'battle' }), ion({ status: 'waived' })];
    current = openPhase(0, NAME, { status: 'processed', state, stateBefore: state, stateAfter: state, results: [], events: [], orders: [], seas });
    await show('Egypt');
    await vi.waitFor(() => expect(target.querySelector('.sea-results')).not.toBeNull());
    const items = Array.from(target.querySelectorAll('.sea-results li'), text);
    expect(items).toEqual([
      'South Tyrrhenian Sea: Rome against Carthage. Carthage won in battle. The battle',
      'Ionian Sea: Macedonia, Egypt and Rome met here. Waived by the game master: the ordinary rules decide it.',
    ]);
    expect(target.querySelector('.sea-results a')!.getAttribute('href')).toBe(`/battles/${id(8)}`);
    expect(target.querySelectorAll('g.sea-mark').length).toBe(2);
  });
});
