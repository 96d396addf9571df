/**
 * The game page's side panel, mounted on a retreat phase of Egypt's (the API scripted):
 * - Ready: a dislodged unit left without an order is disbanded when the phase is processed, so ticking Ready
 *   with one asks first, naming it, and only "Ready, disband" sends the tick; a refusal is said beside it;
 * - on a phone, the sheet's handle is tapped or swiped.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { PhaseDetail } from '../../shared/api/index.ts';
import GameView from '../../web/src/pages/GameView.svelte';
import { session } from '../../web/src/lib/session.svelte.ts';
import { Drafts, browserStore } from '../../web/src/game/logic.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, gameDetail, json, POWERS } from './api-fixtures.ts';
import { position } from './positions.ts';

const GAME = id(1);
const ME = { id: id(2), username: 'egypt' };
const NAME = 'Fall 240 BC Retreat';

const game = gameDetail('Egypt', { currentPhase: { index: 0, name: NAME, kind: 'retreat', deadlineAt: '2026-12-01T00:00:00.000Z' } });

// Egypt's army in Ptolemais was dislodged from Sinai's side: it may retreat or disband.
const retreat = position(
  [{ power: 'Syria', type: 'army', at: 'Pto' }],
  { season: 'fall', type: 'retreat' },
  {
    dislodged: [{ power: 'Egypt', type: 'army', at: 'Pto', attackerFrom: 'Sin' }],
  },
);

const phase = {
  index: 0,
  name: NAME,
  kind: 'retreat',
  deadlineAt: '2026-12-01T00:00:00.000Z',
  status: 'open',
  processedAt: null,
  engineVersion: null,
  paused: false,
  stateBefore: retreat,
  loanActions: [],
  state: retreat,
  supply: [],
  get powers() {
    return POWERS.map((power) => ({
      power,
      mustOrder: power === 'Egypt',
      submitted: false,
      ready: false,
      playerStatus: 'active',
      missedDeadlines: 0,
      ...(power === 'Egypt' ? egypt : {}),
    }));
  },
  orders: null,
  results: null,
  events: null,
  disbanded: null,
  stateAfter: null,
  seas: [],
} as unknown as PhaseDetail;

/** Egypt's orders as the server holds them. */
let mySaved: unknown = null;
/** The loans the server holds. */
let loans: unknown[] = [];
/** The loans asked for (POST bodies). */
let lent: unknown[] = [];
/** Egypt's standing as the phase gives it. */
let egypt = { playerStatus: 'active', missedDeadlines: 0 };
let readyTicks: unknown[];
let target: HTMLElement;
let view: ReturnType<typeof mount> | undefined;

beforeEach(async () => {
  readyTicks = [];
  lent = [];
  localStorage.clear();
  vi.stubGlobal('WebSocket', ScriptedSocket);
  session.adopt({ user: { ...ME, isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'http://localhost').pathname;
    if (url === `/api/games/${GAME}`) return json(200, game);
    if (url === `/api/games/${GAME}/phases`)
      return json(200, { phases: [{ index: 0, name: NAME, kind: 'retreat', deadlineAt: phase.deadlineAt, status: 'open', processedAt: null }] });
    if (url === `/api/games/${GAME}/phases/current` || url === `/api/games/${GAME}/phases/0`) return json(200, phase);
    if (url === `/api/games/${GAME}/phases/0/orders` && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as { orders: string; ready: boolean };
      if (body.orders.includes('Athnes')) {
        const checked = [{ input: body.orders, accepted: false, reason: 'no province "Athnes": did you mean Athens (Ath)?' }];
        return json(422, { error: { code: 'orders_rejected', message: '1 of 1 orders refused, nothing stored' }, orders: checked });
      }
      readyTicks.push({ saved: body.orders, ready: body.ready });
      const submission = {
        id: id(7),
        phaseIndex: 0,
        power: 'Egypt',
        text: body.orders,
        orders: [],
        ready: body.ready,
        byGameMaster: false,
        submittedAt: '2026-11-24T10:00:00.000Z',
      };
      return json(200, { submission, checked: [{ input: body.orders, accepted: true, text: body.orders }], phaseProcessed: false });
    }
    if (url === `/api/games/${GAME}/phases/0/orders`)
      return json(200, {
        phase: { index: 0, name: NAME, kind: 'retreat', deadlineAt: null },
        power: 'Egypt',
        mustOrder: true,
        current: mySaved,
        history: mySaved ? [mySaved] : [],
      });
    if (url === `/api/games/${GAME}/phases/0/ready`) {
      readyTicks.push(JSON.parse(String(init?.body)));
      return json(200, { ready: true, phaseProcessed: false });
    }
    if (url === `/api/games/${GAME}/press`) return json(200, { messages: [], nextCursor: null });
    if (url === `/api/games/${GAME}/loans` && init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as { centre: string; to: string };
      lent.push(body);
      return json(201, {
        id: id(6),
        centre: body.centre,
        lender: 'Egypt',
        borrower: body.to,
        status: 'active',
        startedInPhase: 0,
        endedInPhase: null,
        endReason: null,
        createdAt: '2026-11-24T10:00:00.000Z',
      });
    }
    if (url === `/api/games/${GAME}/loans`) return json(200, { loans });
    const ended = /^\/api\/games\/[^/]+\/loans\/([^/]+)\/end$/.exec(url)?.[1];
    const loan = loans.find((l) => (l as { id: string }).id === ended);
    if (loan && init?.method === 'POST') {
      loans = loans.filter((l) => l !== loan);
      return json(200, { ...loan, status: 'ended', endReason: 'lender' });
    }
    if (url === `/api/games/${GAME}/votes`) return json(200, { survivors: POWERS, draw: [], concessions: [], outcome: null });
    // Read once the map is up, as the board's later reads are (its game master's log, which players read too).
    if (url === `/api/games/${GAME}/gm/log`) return json(200, { actions: [] });
    return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
  });
  target = document.createElement('div');
  document.body.appendChild(target);
  await show();
});

/** The page mounted afresh on the scripted phase. */
async function show() {
  if (view) unmount(view);
  view = mount(GameView, { target, props: { game } });
  await vi.waitFor(() => expect(target.querySelector<HTMLInputElement>('label.ready input')).not.toBeNull());
  // The map's drawing is its own chunk (the registry's), which may arrive after the phase.
  await vi.waitFor(() => expect(target.querySelector('svg.dmap g.unit')).not.toBeNull());
  flushSync();
}

afterEach(() => {
  unmount(view!);
  view = undefined;
  egypt = { playerStatus: 'active', missedDeadlines: 0 };
  loans = [];
  mySaved = null;
  target.remove();
  vi.unstubAllGlobals();
});

const readyBox = () => target.querySelector<HTMLInputElement>('label.ready input')!;
const button = (name: string) => Array.from(target.querySelectorAll('button')).find((b) => b.textContent?.trim() === name) ?? null;
const question = () => target.querySelector('.notice.question')?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
function tick() {
  const box = readyBox();
  box.checked = true;
  box.dispatchEvent(new Event('change', { bubbles: true }));
  flushSync();
}

describe('Ready with a dislodged unit left without an order', () => {
  it('asks first, naming the unit; going back sends nothing and leaves the box unticked', () => {
    tick();
    expect(question()).toMatch(/^Your unit in Ptolemais has no retreat order, so it will be disbanded\./);
    expect(readyBox().checked).toBe(false);
    button('Go back')!.click();
    flushSync();
    expect(question()).toBeNull();
    expect(readyTicks).toEqual([]);
  });

  it('"Ready, disband" sends the tick', async () => {
    tick();
    button('Ready, disband')!.click();
    flushSync();
    await vi.waitFor(() => expect(readyTicks).toEqual([{ ready: true }]));
    expect(question()).toBeNull();
  });

  it('with the unit ordered, Ready is ticked at once', async () => {
    const box = target.querySelector<HTMLTextAreaElement>('#orders-text')!;
    box.value = 'A Pto disband';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    tick();
    expect(question()).toBeNull();
    // Unsaved orders are saved with the tick.
    await vi.waitFor(() => expect(readyTicks).toEqual([{ saved: 'A Pto disband', ready: true }]));
  });
});

describe('Ready with an order the server refuses', () => {
  it('says so in the bar beside Ready and shows the reason; an edit puts the answer out of date', async () => {
    const box = target.querySelector<HTMLTextAreaElement>('#orders-text')!;
    const type = (text: string) => {
      box.value = text;
      box.dispatchEvent(new Event('input', { bubbles: true }));
      flushSync();
    };
    type('A Pto - Athnes');
    tick();
    const state = () => target.querySelector('.save-state')?.textContent?.trim();
    await vi.waitFor(() => expect(state()).toBe('Refused: nothing was saved'));
    // Said to a screen reader too: the save state is a live status.
    expect(target.querySelector('.save-state')!.getAttribute('role')).toBe('status');
    // Save and Ready keep the focus through a save: marked unavailable, never disabled (which would drop it).
    const save = Array.from(target.querySelectorAll('button')).find((b) => b.textContent === 'Save orders')!;
    expect(save.hasAttribute('disabled')).toBe(false);
    expect(readyBox().hasAttribute('disabled')).toBe(false);
    expect(target.querySelector('.verdict')?.textContent).toContain('did you mean Athens (Ath)?');
    expect(readyBox().checked).toBe(false);
    expect(target.querySelector('aside.side')!.classList.contains('open')).toBe(true);
    // The reasons are in the answer (not again in an error line), and go with it.
    expect(target.querySelector('.error-text')).toBeNull();
    type('A Pto disband');
    expect(state()).toBe('Unsaved changes');
    expect(target.querySelector('.verdict')).toBeNull();
    expect(target.textContent).not.toContain('Athnes');
  });
});

describe('orders the game master entered for my power', () => {
  it('say so beside Ready after a reload, not only in the notice that came live', async () => {
    mySaved = {
      id: id(7),
      phaseIndex: 0,
      power: 'Egypt',
      text: 'A Pto - Sin',
      orders: [],
      ready: false,
      byGameMaster: true,
      submittedAt: '2026-11-24T10:00:00.000Z',
    };
    await show();
    await vi.waitFor(() => expect(target.querySelector('.save-state')?.textContent?.trim()).toMatch(/^Saved( .*)? by the game master$/));
  });
});

describe('a draft restored from before', () => {
  it('is said while it differs from the saved orders, and no longer once edited back to them', async () => {
    mySaved = {
      id: id(6),
      phaseIndex: 0,
      power: 'Egypt',
      text: 'A Pto disband',
      orders: [],
      ready: false,
      byGameMaster: false,
      submittedAt: '2026-11-24T10:00:00.000Z',
    };
    new Drafts(browserStore()).keep(GAME, 0, 'Egypt', 'A Pto - Sin', 'A Pto disband');
    await show();
    const restored = () =>
      Array.from(target.querySelectorAll('.notice'), (n) => n.textContent).some((t) => t?.includes('Your unsaved draft from before was restored'));
    await vi.waitFor(() => expect(restored()).toBe(true));
    const box = target.querySelector<HTMLTextAreaElement>('#orders-text')!;
    box.value = 'A Pto disband';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    expect(restored()).toBe(false);
  });
});

describe('the sheet’s handle (a phone’s bottom sheet)', () => {
  const handle = () => target.querySelector<HTMLButtonElement>('button.sheet-handle')!;
  const open = () => target.querySelector('aside.side')!.classList.contains('open');
  const pointer = (type: string, clientY: number) => {
    handle().dispatchEvent(new PointerEvent(type, { bubbles: true, pointerId: 1, pointerType: 'touch', clientY }));
    flushSync();
  };
  // A swipe ends with the click the browser sends on release, which must not undo it.
  const swipe = (from: number, to: number) => {
    pointer('pointerdown', from);
    pointer('pointermove', (from + to) / 2);
    pointer('pointermove', to);
    pointer('pointerup', to);
    handle().click();
    flushSync();
  };

  it('a tap raises and lowers the sheet; a swipe up raises it, a swipe down lowers it', () => {
    expect(open()).toBe(false);
    handle().click();
    flushSync();
    expect(open()).toBe(true);
    handle().click();
    flushSync();
    expect(open()).toBe(false);
    swipe(600, 400);
    expect(open()).toBe(true);
    swipe(400, 420);
    expect(open()).toBe(false);
    // A swipe up on a raised sheet leaves it raised.
    swipe(600, 400);
    swipe(600, 400);
    expect(open()).toBe(true);
  });

  it('rises part way to a tapped unit’s actions, and goes down for its targets on the map and once the order is given', () => {
    const peek = () => target.querySelector('aside.side')!.classList.contains('peek');
    const unit = Array.from(target.querySelectorAll('svg.dmap g.unit[role="button"]')).find((u) => u.getAttribute('aria-label')?.includes('Ptolemais'))!;
    unit.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    flushSync();
    expect([open(), peek()]).toEqual([true, true]);
    Array.from(target.querySelectorAll('button'))
      .find((b) => /Retreat/.test(b.textContent ?? ''))!
      .click();
    flushSync();
    expect([open(), peek()]).toEqual([false, false]);
    target.querySelector('svg.dmap path.province.target')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    flushSync();
    expect(target.querySelector<HTMLTextAreaElement>('#orders-text')!.value).toMatch(/^A Pto - /);
    expect(open()).toBe(false);
  });

  it('rises when a tab is chosen, to show that tab', () => {
    expect(open()).toBe(false);
    Array.from(target.querySelectorAll<HTMLButtonElement>('[role="tab"]'))
      .find((t) => t.textContent?.includes('Supply'))!
      .click();
    flushSync();
    expect(open()).toBe(true);
  });
});

describe('missed deadlines and civil disorder, told to the player', () => {
  const standing = () => target.querySelector('.notice.standing')?.textContent?.replace(/\s+/g, ' ').trim() ?? null;

  it('says nothing with no deadline missed; warns one miss before civil disorder; says how to end it', async () => {
    expect(standing()).toBeNull();
    egypt = { playerStatus: 'active', missedDeadlines: 1 };
    await show();
    expect(standing()).toBe('Egypt missed the last deadline: miss this one too and it falls into civil disorder (its units hold until you order again).');
    egypt = { playerStatus: 'civil-disorder', missedDeadlines: 2 };
    await show();
    expect(standing()).toBe(
      'Egypt is in civil disorder: it missed 2 deadlines in a row, and its units hold when it has no orders. Save orders (or tick Ready) to take it back.',
    );
  });
});

describe('the supply tab', () => {
  it('gives a power’s units and centres in words, the map saying where to find them', async () => {
    expect(target.querySelector('.map-frame')?.getAttribute('aria-label')).toMatch(/The Supply tab gives every power's units and centres in words\.$/);
    Array.from(target.querySelectorAll<HTMLButtonElement>('[role="tab"]'))
      .find((t) => t.textContent?.includes('Supply'))!
      .click();
    const row = (power: string) => Array.from(target.querySelectorAll<HTMLButtonElement>('button.power')).find((b) => b.textContent?.trim() === power);
    await vi.waitFor(() => expect(row('Egypt')).toBeDefined());
    const details = () => Array.from(target.querySelectorAll('tr.details p'), (p) => p.textContent!.replace(/\s+/g, ' ').trim());
    row('Egypt')!.click();
    flushSync();
    expect(details()[0]).toBe('Units: army in Ptolemais (dislodged)');
    row('Syria')!.click();
    flushSync();
    expect(details()[0]).toBe('Units: army in Ptolemais');
    expect(details()[1]).toMatch(/^Centres: Antioch/);
  });
});

describe('the supply tab’s loans', () => {
  it('lists my loans and those lending my centre on, which only their own parties may end', async () => {
    const loan = (n: number, centre: string, lender: string, borrower: string) => ({
      id: id(n),
      centre,
      lender,
      borrower,
      status: 'active',
      startedInPhase: 0,
      endedInPhase: null,
      endReason: null,
      createdAt: '2026-11-24T10:00:00.000Z',
    });
    loans = [loan(3, 'Cyp', 'Egypt', 'Syria'), loan(4, 'Cyp', 'Syria', 'Rome'), loan(5, 'Sic', 'Rome', 'Carthage')];
    await show();
    Array.from(target.querySelectorAll<HTMLButtonElement>('[role="tab"]'))
      .find((t) => t.textContent?.includes('Supply'))!
      .click();
    await vi.waitFor(() => expect(target.querySelectorAll('.active-loans li')).toHaveLength(2));
    const lines = Array.from(target.querySelectorAll('.active-loans li'), (li) => li.textContent!.replace(/\s+/g, ' ').trim());
    expect(lines).toEqual(['Cyprus: Egypt → Syria End this loan…', 'Cyprus: Syria → Rome (lent on; ending your loan ends it too)']);
  });
});

describe('a paused clock', () => {
  it('says how long the clock had left when it stopped, which is what the players get once it runs again', async () => {
    const shown = phase as unknown as { paused: boolean };
    shown.paused = true;
    try {
      if (view) unmount(view);
      // Paused 1 day and 18 hours before the deadline.
      view = mount(GameView, { target, props: { game: { ...game, pausedAt: '2026-11-29T06:00:00.000Z' } } });
      await vi.waitFor(() => expect(target.querySelector('.deadline')?.textContent).toContain('Paused'));
      flushSync();
      expect(target.querySelector('.deadline')!.textContent!.replace(/\s+/g, ' ').trim()).toBe('Paused by the game master · 1 day 18 hours left on the clock');
    } finally {
      shown.paused = false;
    }
  });
});

describe('lending a centre', () => {
  // happy-dom's :checked matches inputs only, so Svelte's select binding reads the first enabled option:
  // the other options are disabled while the change is read.
  const choose = (id: string, value: string) => {
    const select = target.querySelector<HTMLSelectElement>(id)!;
    const others = Array.from(select.options).filter((o) => o.value !== value && !o.disabled);
    for (const o of others) o.disabled = true;
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    for (const o of others) o.disabled = false;
    flushSync();
  };
  const button = (name: string) => Array.from(target.querySelectorAll<HTMLButtonElement>('.lend button')).find((b) => b.textContent === name);
  const question = () => target.querySelector('.lend .confirm')?.textContent?.replace(/\s+/g, ' ').trim();
  /** The question "Lend" asks for this loan, on the Supply tab of the page mounted on `state` (the scripted one's by default). */
  async function askToLend(centre: string, to: string, state = retreat): Promise<string | undefined> {
    const shown = phase as unknown as { state: typeof retreat; stateBefore: typeof retreat };
    shown.state = shown.stateBefore = state;
    try {
      if (state !== retreat) await show();
      Array.from(target.querySelectorAll<HTMLButtonElement>('[role="tab"]'))
        .find((t) => t.textContent?.includes('Supply'))!
        .click();
      await vi.waitFor(() => expect(target.querySelector(`#lend-centre option[value="${centre}"]`)).not.toBeNull());
      choose('#lend-centre', centre);
      choose('#lend-to', to);
      button('Lend')!.click();
      flushSync();
      return question();
    } finally {
      shown.state = shown.stateBefore = retreat;
    }
  }

  it('says what the loan does and asks first; only "Lend it" makes it, "Go back" makes none', async () => {
    expect(await askToLend('Pto', 'Syria')).toBe(
      "Lend Ptolemais to Syria? From the next adjustment it supplies Syria's units, not yours, and no longer counts towards your 25. Either of you may end the loan at any time but during an adjustment. Lend it Go back",
    );
    button('Go back')!.click();
    flushSync();
    expect(question()).toBeUndefined();
    expect(lent).toEqual([]);

    button('Lend')!.click();
    flushSync();
    button('Lend it')!.click();
    await vi.waitFor(() =>
      expect(target.querySelector('.lend [role="status"]')?.textContent).toBe('Lent Ptolemais to Syria. It counts from the next adjustment.'),
    );
    expect(lent).toEqual([{ centre: 'Pto', to: 'Syria' }]);
  });

  it('moves the focus on with each step, as the buttons it was on go: to the question, back to Lend, to the answer', async () => {
    await askToLend('Pto', 'Syria');
    await vi.waitFor(() => expect(document.activeElement).toBe(button('Lend it')));
    // The question is read out with the button that answers it.
    expect(target.querySelector(`#${button('Lend it')!.getAttribute('aria-describedby')}`)?.textContent).toContain('Lend Ptolemais to Syria?');
    button('Go back')!.click();
    await vi.waitFor(() => expect(document.activeElement).toBe(button('Lend')));
    button('Lend')!.click();
    flushSync();
    button('Lend it')!.click();
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('Lent Ptolemais to Syria. It counts from the next adjustment.'));
  });

  it('asks before ending a loan, the focus going from each question to the next and to the answer', async () => {
    loans = [
      {
        id: id(3),
        centre: 'Cyp',
        lender: 'Egypt',
        borrower: 'Syria',
        status: 'active',
        startedInPhase: 0,
        endedInPhase: null,
        endReason: null,
        createdAt: '2026-11-24T10:00:00.000Z',
      },
    ];
    await show();
    Array.from(target.querySelectorAll<HTMLButtonElement>('[role="tab"]'))
      .find((t) => t.textContent?.includes('Supply'))!
      .click();
    await vi.waitFor(() => expect(button('End this loan…')).toBeDefined());
    expect(button('End this loan…')!.getAttribute('aria-label')).toBe('End this loan… (Cyprus, Egypt to Syria)');
    button('End this loan…')!.click();
    await vi.waitFor(() => expect(document.activeElement).toBe(button('End the loan')));
    expect(document.getElementById(button('End the loan')!.getAttribute('aria-describedby')!)?.textContent).toBe('End it now?');
    button('Keep it')!.click();
    await vi.waitFor(() => expect(document.activeElement).toBe(button('End this loan…')));
    button('End this loan…')!.click();
    await vi.waitFor(() => expect(document.activeElement).toBe(button('End the loan')));
    button('End the loan')!.click();
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('The loan of Cyprus (Egypt → Syria) ended.'));
    expect(target.querySelectorAll('.active-loans li')).toHaveLength(0);
  });

  it('says a centre lent on stays tied to the loan it came by', async () => {
    expect(await askToLend('Pel', 'Rome', { ...retreat, loans: [{ centre: 'Pel', from: 'Macedonia', to: 'Egypt' }] })).toBe(
      "Lend Pella ×2, lent to you by Macedonia, on to Rome? From the next adjustment it supplies Rome's units, not yours. Should Macedonia end its loan to you, this one ends with it. Either of you may end the loan at any time but during an adjustment. Lend it Go back",
    );
  });

  it('says at once, with the rule, a loan the server would refuse, and offers nothing to confirm', async () => {
    // Pella came to Egypt from Macedonia: lending it back is not a loan but the end of one.
    expect(await askToLend('Pel', 'Macedonia', { ...retreat, loans: [{ centre: 'Pel', from: 'Macedonia', to: 'Egypt' }] })).toBeUndefined();
    expect(target.querySelector('#lend-refusal')!.textContent).toBe(
      'Not possible: Macedonia has already held Pella in this chain of loans: end the loan instead of lending it back.',
    );
    expect(button('Lend')!.disabled).toBe(true);
    expect(button('Lend')!.getAttribute('aria-describedby')).toBe('lend-refusal');
    expect(lent).toEqual([]);
  });

  it('says a destroyed centre supplies nobody until rebuilt', async () => {
    expect(await askToLend('Cyp', 'Rome', { ...retreat, destroyed: ['Cyp'] })).toBe(
      "Lend Cyprus (destroyed) to Rome? Destroyed, it supplies nobody until it is rebuilt; then it supplies Rome's units, not yours, and no longer counts towards your 25. Either of you may end the loan at any time but during an adjustment. Lend it Go back",
    );
  });
});

describe('a retreat from the keyboard', () => {
  it('gives the focus back to the dislodged unit, not to the attacker standing in the same province', async () => {
    const dislodged = () => target.querySelector<SVGElement>('g.unit.dislodged[data-unit="Pto"]')!;
    expect(target.querySelectorAll('g.unit[data-unit="Pto"]')).toHaveLength(2);
    dislodged().focus();
    dislodged().dispatchEvent(new KeyboardEvent('keydown', { key: 'm', bubbles: true, cancelable: true }));
    flushSync();
    await vi.waitFor(() => expect(document.activeElement?.closest('.targets')).not.toBeNull());
    (document.activeElement as HTMLButtonElement).click();
    flushSync();
    expect(target.querySelector<HTMLTextAreaElement>('#orders-text')!.value).toMatch(/^A Pto - /);
    await vi.waitFor(() => expect(document.activeElement).toBe(dislodged()));
  });
});

describe('units without orders', () => {
  it('are named in words under the orders', () => {
    const note = Array.from(target.querySelectorAll('.typed p'), (p) => p.textContent!.replace(/\s+/g, ' ').trim()).find((t) => t.includes('without orders'));
    expect(note).toBe('1 unit without orders (it will disband): Ptolemais.');
  });
});

describe('deleting an order line', () => {
  it('leaves the focus in the list: on the line that took its place, then the box once the list is empty', async () => {
    const box = target.querySelector<HTMLTextAreaElement>('#orders-text')!;
    box.value = 'A Pto - Sin\nA Pto d';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    const deletes = () => Array.from(target.querySelectorAll<HTMLButtonElement>('#order-list button.remove'));
    expect(deletes().map((b) => b.getAttribute('aria-label'))).toEqual(['Delete order on line 1', 'Delete order on line 2']);
    deletes()[0].focus();
    deletes()[0].click();
    await vi.waitFor(() => expect(deletes()).toHaveLength(1));
    await vi.waitFor(() => expect(document.activeElement).toBe(deletes()[0]));
    expect(box.value).toBe('A Pto d');
    deletes()[0].click();
    await vi.waitFor(() => expect(document.activeElement).toBe(box));
    expect(box.value).toBe('');
  });
});

describe('the page as it loads', () => {
  it('leaves the focus where the page put it, not on the phase’s heading (the skip link stays the first Tab stop)', async () => {
    await show();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(target.querySelector('h1')?.textContent).toBe(NAME);
    expect(document.activeElement).not.toBe(target.querySelector('h1'));
  });
});

describe('the headings', () => {
  it('skip no level on any tab: the phase is h1, the tab h2, its sections h3', async () => {
    for (const name of ['Orders', 'Press', 'Supply', 'Game']) {
      Array.from(target.querySelectorAll<HTMLButtonElement>('[role="tab"]'))
        .find((t) => t.textContent?.includes(name))!
        .click();
      await vi.waitFor(() => expect(target.querySelector('[role="tabpanel"] h2')?.textContent).toBe(name));
      if (name !== 'Orders' && name !== 'Press') await vi.waitFor(() => expect(target.querySelector('[role="tabpanel"] h3')).not.toBeNull());
      const levels = Array.from(target.querySelectorAll('h1, h2, h3, h4, h5, h6'), (h) => Number(h.tagName[1]));
      expect(levels[0]).toBe(1);
      for (let i = 1; i < levels.length; i++) expect(levels[i] - levels[i - 1], `${name}: h${levels[i - 1]} then h${levels[i]}`).toBeLessThanOrEqual(1);
    }
  });
});

describe('the panel tabs from the keyboard', () => {
  it('are one Tab stop, with the arrow keys, Home and End moving between them', () => {
    const tabs = () => Array.from(target.querySelectorAll<HTMLButtonElement>('[role="tab"]'));
    const selected = () => tabs().find((t) => t.getAttribute('aria-selected') === 'true')!.id;
    expect(tabs().map((t) => t.tabIndex)).toEqual([0, -1, -1, -1]);
    const key = (k: string) => {
      tabs()[0].parentElement!.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
      flushSync();
    };
    key('ArrowRight');
    expect(selected()).toBe('tab-press');
    expect(tabs().map((t) => t.tabIndex)).toEqual([-1, 0, -1, -1]);
    key('End');
    expect(selected()).toBe('tab-game');
    key('ArrowRight');
    expect(selected()).toBe('tab-orders');
    key('ArrowLeft');
    expect(selected()).toBe('tab-game');
    key('Home');
    expect(selected()).toBe('tab-orders');
  });
});

describe('a loan on the board', () => {
  it('rings the lent centre and names it lent, since the phase the game’s record says it was made in', async () => {
    const shown = phase as unknown as { state: typeof retreat };
    shown.state = { ...retreat, loans: [{ centre: 'Cyp', from: 'Egypt', to: 'Syria' }] };
    loans = [
      {
        id: id(3),
        centre: 'Cyp',
        lender: 'Egypt',
        borrower: 'Syria',
        status: 'active',
        startedInPhase: 0,
        endedInPhase: null,
        endReason: null,
        createdAt: '2026-11-24T10:00:00.000Z',
      },
    ];
    try {
      await show();
      expect(target.querySelector('g.centre[data-centre="Cyp"]')!.classList.contains('lent')).toBe(true);
      // The record (read after the map is up) adds when.
      await vi.waitFor(() => expect(target.querySelector('#p-Cyp')!.getAttribute('aria-label')).toContain(`lent by Egypt to Syria (since ${NAME})`));
    } finally {
      shown.state = retreat;
    }
  });
});
