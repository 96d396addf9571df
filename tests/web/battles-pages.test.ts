/**
 * The battle pages mounted against a scripted API answering as shared/api/battles.ts shapes it, the battles made
 * by the real engines: the list, the set-up form, a Classis activation chosen by clicks, a ship-to-ship plot made
 * a step at a time, the umpire's view, the replay slider, the live channel, and the verification page's verdict.
 */
import { flushSync, mount, tick, unmount } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BattleDetail } from '../../shared/api/battles.ts';
import type { BattleRecord } from '../../shared/naval/record.ts';
import { centre } from '../../shared/naval/hex.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { HEX_SIZE } from '../../web/src/battles/sea-drawing.ts';
import BattleList from '../../web/src/battles/BattleList.svelte';
import BattlePage from '../../web/src/battles/BattlePage.svelte';
import CreateBattle from '../../web/src/battles/CreateBattle.svelte';
import VerifyBattle from '../../web/src/battles/VerifyBattle.svelte';
import { router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { fixtureId, json } from './api-fixtures.ts';
import { battleDetail, battleSummary, logEntries, playScenario } from './battles-fixtures.ts';
import { ScriptedSocket } from './scripted-socket.ts';

const id = fixtureId(3);
let detail: BattleDetail;
let record: BattleRecord;
let exported: BattleRecord;
const posted: { path: string; body: unknown }[] = [];
let reads = 0;
/** What the "Open to join" list answers (a test adds a battle to it, as if someone had just created one). */
let openBattles: unknown[] = [];

beforeEach(() => {
  posted.length = 0;
  reads = 0;
  openBattles = [];
  vi.stubGlobal('WebSocket', ScriptedSocket);
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'http://localhost');
    if (init?.method === 'POST') {
      posted.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
      return json(url.pathname === '/api/battles' ? 201 : 200, detail);
    }
    if (url.pathname === '/api/battles') {
      const sides = [
        { id: 'rhodes', name: 'Rhodes' },
        { id: 'macedon', name: 'Macedon' },
      ];
      const finished = battleSummary('ship-to-ship', sides, {
        status: 'finished',
        outcome: { winner: 'rhodes', reason: 'Leon sank' },
        finishedAt: '2026-11-28T00:00:00.000Z',
      });
      const filter = url.searchParams.get('filter');
      return json(200, { battles: filter === 'finished' ? [finished] : filter === 'open' ? openBattles : [], nextCursor: null });
    }
    if (url.pathname === '/api/battle-rulesets')
      return json(200, {
        rulesets: [
          { id: 'classis', title: 'Classis', scenarios: [{ id: 'training-duel', title: 'Training duel', source: 'made up' }] },
          { id: 'ship-to-ship', title: 'Ship to ship', scenarios: [{ id: 'duel', title: 'A duel off Rhodes', source: 'made up' }] },
        ],
      });
    if (url.pathname === `/api/battles/${id}`) {
      reads++;
      return json(200, detail);
    }
    if (url.pathname === `/api/battles/${id}/log`) return json(200, { entries: logEntries(record), actionCount: record.actions.length, next: null });
    if (url.pathname === `/api/battles/${id}/export`) return json(200, exported);
    return json(404, { error: { code: 'not_found', message: 'no' } });
  });
  session.adopt({ user: { id: fixtureId(0), username: 'player0', isAdmin: false }, csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
});

let target: HTMLElement;
let page: ReturnType<typeof mount> | null = null;
afterEach(() => {
  if (page) unmount(page);
  page = null;
  target?.remove();
  vi.unstubAllGlobals();
});

async function settle() {
  for (let i = 0; i < 6; i++) {
    await tick();
    await new Promise((resolve) => setTimeout(resolve));
  }
  flushSync();
}

async function open(make: (into: HTMLElement) => ReturnType<typeof mount>, until: string) {
  target = document.createElement('div');
  document.body.appendChild(target);
  page = make(target);
  flushSync();
  await vi.waitFor(() => expect(target.querySelector(until)).not.toBeNull());
  await settle();
}

const button = (text: string | RegExp) =>
  Array.from(target.querySelectorAll<HTMLButtonElement>('button')).find((b) =>
    typeof text === 'string' ? b.textContent?.trim() === text : text.test(b.textContent ?? ''),
  );

describe('the battle list', () => {
  it('lists the finished battles with who won and why', async () => {
    router.go('/battles?tab=finished', true);
    await open((into) => mount(BattleList, { target: into }), 'li.game');
    const card = target.querySelector('li.game')!;
    expect(card.querySelector('h2 a')!.getAttribute('href')).toBe(`/battles/${id}`);
    expect(card.textContent).toContain('Rhodes won: Leon sank');
    expect(card.querySelector('.badge')!.textContent).toBe('Finished');
    expect(Array.from(target.querySelectorAll('nav.tabs a')).find((a) => a.getAttribute('aria-current') === 'page')!.textContent).toBe('Finished');
  });

  it('shows a battle created elsewhere as soon as the lobby hears of it', async () => {
    router.go('/battles', true);
    await open((into) => mount(BattleList, { target: into }), '[role="region"]');
    expect(target.querySelector('li.game')).toBeNull();
    const socket = ScriptedSocket.opened.at(-1)!;
    socket.accept();
    const sides = [
      { id: 'rhodes', name: 'Rhodes' },
      { id: 'macedon', name: 'Macedon' },
    ];
    openBattles = [battleSummary('ship-to-ship', sides, { status: 'forming' })];
    socket.onmessage?.({
      data: JSON.stringify({
        type: 'event',
        channel: 'lobby',
        seq: 1,
        event: { type: 'battle.changed', battleId: id, what: 'created', status: 'forming', actionCount: 0 },
      }),
    });
    await vi.waitFor(() => expect(target.querySelector('li.game h2 a')?.getAttribute('href')).toBe(`/battles/${id}`));
  });
});

describe('the set-up form', () => {
  it('sends the scenario, who plays each side, my seat, the clock and privacy', async () => {
    await open((into) => mount(CreateBattle, { target: into }), 'input[name="scenario"]');
    const title = target.querySelector<HTMLInputElement>('input[type="text"]')!;
    title.value = 'Off Rhodes';
    title.dispatchEvent(new Event('input', { bubbles: true }));
    // Ship to ship, its duel: Macedon by the computer, I play Rhodes, live at 5 minutes a turn, private.
    target.querySelectorAll<HTMLInputElement>('input[name="ruleset"]')[1].click();
    flushSync();
    target.querySelector<HTMLInputElement>('input[name="seat-macedon"]:not(:checked)')!.click();
    const seat = target.querySelector<HTMLSelectElement>('select')!;
    seat.value = 'rhodes';
    seat.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    target.querySelector<HTMLInputElement>('input[value="live"]')!.click();
    flushSync();
    const minutes = target.querySelector<HTMLInputElement>('input[type="number"]')!;
    minutes.value = '5';
    minutes.dispatchEvent(new Event('input', { bubbles: true }));
    Array.from(target.querySelectorAll<HTMLLabelElement>('label.check'))
      .find((l) => l.textContent?.includes('Private'))!
      .querySelector('input')!
      .click();
    flushSync();
    const played = playScenario('ship-to-ship', 'duel', 0);
    detail = battleDetail('ship-to-ship', played, 'rhodes');
    target.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      path: '/api/battles',
      body: {
        title: 'Off Rhodes',
        ruleset: 'ship-to-ship',
        scenario: 'duel',
        seats: [
          { side: 'rhodes', player: 'human' },
          { side: 'macedon', player: 'computer' },
        ],
        umpire: false,
        join: 'rhodes',
        private: true,
        clock: { pace: 'live', minutesPerTurn: 5 },
      },
    });
  });

  it('refuses a set-up of one’s own that the ruleset cannot load, before sending it', async () => {
    await open((into) => mount(CreateBattle, { target: into }), 'input[name="scenario"]');
    const radios = target.querySelectorAll<HTMLInputElement>('input[name="scenario"]');
    radios[radios.length - 1].click();
    flushSync();
    const text = target.querySelector<HTMLTextAreaElement>('textarea')!;
    expect(JSON.parse(text.value).title).toContain('Training duel');
    text.value = '{"title": "x"}';
    text.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    expect(target.querySelector('#setup-problem')!.textContent).toMatch(/\.$/);
    target.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await settle();
    expect(posted).toHaveLength(0);
  });
});

describe('a Classis battle, my squadron activated', () => {
  beforeEach(() => {
    const played = playScenario('classis', 'training-duel', 0);
    record = played.record;
    const side = (played.state as { activation: { squadron: string }; squadrons: { id: string; side: string }[] }).squadrons.find(
      (s) => s.id === (played.state as { activation: { squadron: string } }).activation.squadron,
    )!.side;
    detail = battleDetail('classis', played, side);
  });

  it('highlights the chosen ship’s destinations, and a click, a facing and Move send that move', async () => {
    router.go(`/battles/${id}`, true);
    await open((into) => mount(BattlePage, { target: into, props: { id } }), 'svg');
    expect(target.textContent).toContain('Your turn');
    const shipButton = target.querySelector<HTMLButtonElement>('[aria-label="Ships of the activated squadron"] button')!;
    shipButton.click();
    flushSync();
    expect(shipButton.getAttribute('aria-pressed')).toBe('true');
    const targets = target.querySelectorAll<SVGPolygonElement>('polygon.target');
    expect(targets.length).toBeGreaterThan(1);
    // A hex away from the ship: one facing or several to pick.
    targets[targets.length - 1].dispatchEvent(new MouseEvent('click', { bubbles: true }));
    flushSync();
    target.querySelector<HTMLButtonElement>('[aria-label="Facing at the end of the move"] button')?.click();
    flushSync();
    expect(target.querySelector('polyline.route')).not.toBeNull();
    button('Move')!.click();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    const body = posted[0].body as { action: { kind: string; ship: string }; expected: number };
    expect(posted[0].path).toBe(`/api/battles/${id}/actions`);
    expect(body.expected).toBe(0);
    expect(body.action.kind).toBe('move');
    // One of the side's legal actions, as the engine lists them (a Classis state hides nothing).
    const legal = RULESETS.classis.legalActions(detail.state, detail.you.side!);
    expect(legal.some((action: unknown) => JSON.stringify(action) === JSON.stringify(body.action))).toBe(true);
  });

  it('keeps the ship chosen when the battle is read again as it stands (a live event that changes nothing yet)', async () => {
    router.go(`/battles/${id}`, true);
    await open((into) => mount(BattlePage, { target: into, props: { id } }), 'svg');
    const socket = ScriptedSocket.opened.at(-1)!;
    socket.accept();
    const shipButton = target.querySelector<HTMLButtonElement>('[aria-label="Ships of the activated squadron"] button')!;
    shipButton.click();
    flushSync();
    const highlighted = target.querySelectorAll('polygon.target').length;
    expect(highlighted).toBeGreaterThan(1);
    const before = reads;
    socket.onmessage?.({
      data: JSON.stringify({
        type: 'event',
        channel: `battle:${id}`,
        seq: 1,
        event: { type: 'battle.changed', battleId: id, what: 'joined', status: 'active', actionCount: detail.actionCount },
      }),
    });
    await vi.waitFor(() => expect(reads).toBe(before + 1));
    await settle();
    expect(target.querySelector('[aria-label="Ships of the activated squadron"] button')!.getAttribute('aria-pressed')).toBe('true');
    expect(target.querySelectorAll('polygon.target').length).toBe(highlighted);
  });

  it('ends the activation with the engine’s words on the button', async () => {
    router.go(`/battles/${id}`, true);
    await open((into) => mount(BattlePage, { target: into, props: { id } }), 'svg');
    button('End the activation')!.click();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect((posted[0].body as { action: unknown }).action).toEqual({ kind: 'end' });
  });
});

describe('a ship-to-ship battle', () => {
  it('plots the ship a step at a time on the highlighted hexes, then hands in the whole plot', async () => {
    const played = playScenario('ship-to-ship', 'duel', 0);
    record = played.record;
    detail = battleDetail('ship-to-ship', played, 'rhodes');
    router.go(`/battles/${id}`, true);
    await open((into) => mount(BattlePage, { target: into, props: { id } }), 'svg');
    expect(target.textContent).toContain('Plot your turn');
    button(/^Nike/)!.click();
    flushSync();
    // Ahead is the first step offered; then on until the steps are a whole plot.
    const steps = () => target.querySelector('.ship-plot h3')!.textContent;
    expect(steps()).toBe('Nike: no steps yet');
    for (let i = 0; i < 6 && (i === 0 || !target.querySelector('.status.done')); i++) {
      target.querySelector('polygon.target')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      flushSync();
    }
    expect(steps()).toMatch(/^Nike: F( F)*$/);
    expect(target.querySelector('.status.done')!.textContent).toBe('plotted');
    expect(target.querySelector('g.ghost')).not.toBeNull();
    expect(target.querySelector('polyline.route')).not.toBeNull();
    button(/Hand in the plot/)!.click();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    const action = (posted[0].body as { action: { kind: string; plots: { ship: string; steps: string }[] } }).action;
    expect(action.kind).toBe('plot');
    expect(action.plots.map((p) => p.ship)).toEqual(['nike']);
    expect(action.plots[0].steps).toMatch(/^F+$/);
  });

  it('keeps a plot half made across a reload, and forgets it once the turn has moved on', async () => {
    const reload = async () => {
      if (page) unmount(page);
      page = null;
      target.remove();
      await open((into) => mount(BattlePage, { target: into, props: { id } }), 'svg');
      button(/^Nike/)!.click();
      flushSync();
    };
    const steps = () => target.querySelector('.ship-plot h3')?.textContent;
    localStorage.clear();
    const played = playScenario('ship-to-ship', 'duel', 0);
    record = played.record;
    detail = battleDetail('ship-to-ship', played, 'rhodes');
    router.go(`/battles/${id}`, true);
    await open((into) => mount(BattlePage, { target: into, props: { id } }), 'svg');
    button(/^Nike/)!.click();
    flushSync();
    target.querySelector('polygon.target')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    flushSync();
    const made = steps();
    expect(made).toMatch(/^Nike: F/);
    // A reload: the page mounted afresh on the same battle, still waiting for the same plot.
    await reload();
    expect(steps()).toBe(made);
    // The turn resolved: the next turn's plot starts afresh.
    const later = playScenario('ship-to-ship', 'duel', 2);
    record = later.record;
    detail = battleDetail('ship-to-ship', later, 'rhodes');
    await reload();
    expect(steps()).toBe('Nike: no steps yet');
  });

  it('shows the umpire everything and offers no orders', async () => {
    const played = playScenario('ship-to-ship', 'duel', 1);
    record = played.record;
    detail = battleDetail('ship-to-ship', played, null, { you: { side: null, umpire: true } });
    router.go(`/battles/${id}`, true);
    await open((into) => mount(BattlePage, { target: into, props: { id } }), 'svg');
    expect(target.querySelector('.panel h2')!.textContent).toBe('Umpire');
    expect(target.textContent).not.toContain('Your orders');
    expect(target.querySelector('polygon.target')).toBeNull();
    expect(target.querySelector('.panel')!.textContent).toContain('Rhodes');
  });

  it('replays the battle with the slider: the start shows the ships where they began', async () => {
    const played = playScenario('ship-to-ship', 'duel', 8);
    record = played.record;
    detail = battleDetail('ship-to-ship', played, 'rhodes');
    router.go(`/battles/${id}`, true);
    await open((into) => mount(BattlePage, { target: into, props: { id } }), 'input[type="range"]');
    const nike = () => target.querySelector('g.counter[data-ship="nike"]')!.getAttribute('transform');
    const now = nike();
    const slider = target.querySelector<HTMLInputElement>('input[type="range"]')!;
    expect(slider.max).toBe(String(record.actions.length));
    slider.value = '0';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    expect(slider.getAttribute('aria-valuetext')).toBe('The start');
    const start = centre({ q: 2, r: 4 }, HEX_SIZE);
    expect(nike()).toBe(`translate(${start.x} ${start.y})`);
    expect(nike()).not.toBe(now);
    button('Back to now')!.click();
    flushSync();
    expect(nike()).toBe(now);
  });

  it('listens on the battle’s live channel and reads the battle again when told it changed', async () => {
    const played = playScenario('ship-to-ship', 'duel', 0);
    record = played.record;
    detail = battleDetail('ship-to-ship', played, 'rhodes');
    router.go(`/battles/${id}`, true);
    await open((into) => mount(BattlePage, { target: into, props: { id } }), 'svg');
    const socket = ScriptedSocket.opened.at(-1)!;
    socket.accept();
    expect(socket.sent).toContainEqual({ type: 'subscribe', channel: `battle:${id}` });
    const before = reads;
    socket.onmessage?.({
      data: JSON.stringify({
        type: 'event',
        channel: `battle:${id}`,
        seq: 1,
        event: { type: 'battle.changed', battleId: id, what: 'acted', status: 'active', actionCount: 1 },
      }),
    });
    await vi.waitFor(() => expect(reads).toBe(before + 1));
  });
});

describe('joining a private battle from its invitation link', () => {
  it('listens on the battle’s channel with the invitation, and again once seated (who may watch changed)', async () => {
    const played = playScenario('ship-to-ship', 'duel', 0);
    record = played.record;
    const forming = battleDetail('ship-to-ship', played, null, { status: 'forming', private: true, turn: null, yourTurn: false });
    forming.seats = forming.seats.map((seat) => (seat.side === 'macedon' ? { ...seat, user: null } : seat));
    detail = forming;
    router.go(`/battles/${id}?invite=CODE`, true);
    await open((into) => mount(BattlePage, { target: into, props: { id } }), 'svg');
    const socket = ScriptedSocket.opened.at(-1)!;
    socket.accept();
    const subscribe = { type: 'subscribe', channel: `battle:${id}`, inviteCode: 'CODE' };
    const subscribes = () => socket.sent.filter((m) => JSON.stringify(m) === JSON.stringify(subscribe)).length;
    expect(subscribes()).toBeGreaterThan(0);
    // The socket is the client's one, kept across pages: what this page sends from here on.
    const before = subscribes();
    const sentBefore = socket.sent.length;
    detail = { ...forming, joined: true, you: { side: 'macedon', umpire: false } };
    button('Play Macedon')!.click();
    await vi.waitFor(() => expect(posted.map((p) => p.path)).toEqual([`/api/battles/${id}/join`]));
    expect(posted[0].body).toMatchObject({ seat: 'macedon', inviteCode: 'CODE' });
    await vi.waitFor(() => expect(subscribes()).toBe(before + 1));
    expect(socket.sent.slice(sentBefore)).toEqual([{ type: 'unsubscribe', channel: `battle:${id}` }, subscribe]);
  });
});

describe('the verification page', () => {
  beforeEach(() => {
    const played = playScenario('ship-to-ship', 'duel', 400);
    record = played.record;
    exported = record;
    detail = battleDetail('ship-to-ship', played, null);
  });

  it('passes a true battle: the seed’s SHA-256 is the commitment, every die the seed’s', async () => {
    await open((into) => mount(VerifyBattle, { target: into, props: { id } }), '.verdict');
    expect(target.querySelector('.verdict .big')!.textContent).toBe('✔ Pass');
    expect(target.textContent).toContain(`${record.actions.flatMap((a) => a.log).reduce((n, l) => n + l.rolls.length, 0)} dice re-derived`);
    expect(target.textContent).toContain('every one matches the log');
    expect(target.querySelectorAll('code')[0].textContent).toBe(detail.commitment);
  });

  it('fails when a logged die was changed, naming the roll', async () => {
    exported = structuredClone(record);
    const roll = exported.actions.flatMap((a) => a.log).flatMap((l) => l.rolls)[0];
    roll.value = (roll.value % roll.sides) + 1;
    await open((into) => mount(VerifyBattle, { target: into, props: { id } }), '.verdict');
    expect(target.querySelector('.verdict .big')!.textContent).toBe('✘ Fail');
    expect(target.querySelector('ul.wrong')!.textContent).toContain(`roll ${roll.index} (d${roll.sides}`);
  });
});
