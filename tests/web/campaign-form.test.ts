/**
 * Campaign play's settings: the New game form's "Sea battles fought out" (off by default; the four rulesets, the
 * battles' time, each power's fleet list from the period's defaults, edited by class and count; a list past its
 * limit said beside it and nothing sent; the server's refusal beside the field it names), and the game master's
 * change of a forming game's sea battles on its page (PUT …/campaign, a refusal in the server's words).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import CreateGame from '../../web/src/pages/CreateGame.svelte';
import CampaignCard from '../../web/src/game-settings/CampaignCard.svelte';
import { session } from '../../web/src/lib/session.svelte.ts';
import { DIADOCHI_V_FLEETS } from '../../shared/campaign/fleets.ts';
import type { GameDetail } from '../../shared/api/index.ts';
import { fixtureId as id, gameDetail, json, POWERS } from './api-fixtures.ts';

const variants = {
  variants: [{ id: 'diadochi-v', available: true, powers: POWERS.map((p) => ({ id: p, adjective: p, colour: '#888888' })) }],
};

let target: HTMLElement;
let component: ReturnType<typeof mount> | undefined;
let sent: { method: string; url: string; body: unknown }[];

function serve(answer: () => Response) {
  sent = [];
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    if (path === '/api/variants') return json(200, variants);
    sent.push({ method: init?.method ?? 'GET', url: path, body: JSON.parse(String(init?.body)) });
    return answer();
  });
}
const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
function fill(el: HTMLInputElement, value: string) {
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
}
const fleet = (power: string) => target.querySelector<HTMLElement>(`[role="group"][aria-label="${power}'s fleet"]`)!;
const countOf = (power: string, cls: string) => target.querySelector<HTMLInputElement>(`input[aria-label="${power}: ${cls}"]`)!;
const campaignBox = () =>
  Array.from(target.querySelectorAll('label'))
    .find((l) => text(l).startsWith('Sea battles fought out'))!
    .querySelector('input')!;

async function submit() {
  target.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  await new Promise((resolve) => setTimeout(resolve));
  await vi.waitFor(() => expect(target.querySelector<HTMLButtonElement>('button[type="submit"]')!.disabled).toBe(false));
  flushSync();
}
async function openForm(answer: () => Response) {
  serve(answer);
  component = mount(CreateGame, { target });
  flushSync();
  // The variants' list (the first select: the variant) arrives after the form.
  await vi.waitFor(() => expect(target.querySelector('select')!.options.length).toBeGreaterThan(0));
  const name = Array.from(target.querySelectorAll('label'))
    .find((l) => l.querySelector('span')?.textContent === 'Name')!
    .querySelector('input')!;
  fill(name, 'Actium');
}

beforeEach(() => {
  session.adopt({ user: { id: id(9), username: 'zeus', isAdmin: false }, csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  if (component) unmount(component);
  component = undefined;
  target.remove();
  vi.unstubAllGlobals();
});

describe('the New game form’s sea battles', () => {
  it('are off by default: an ordinary game is asked for', async () => {
    await openForm(() => json(400, { error: { code: 'validation_failed', message: 'stop here' } }));
    expect(campaignBox().checked).toBe(false);
    expect(target.querySelector('[aria-label="Battle rules"]')).toBeNull();
    await submit();
    expect(sent).toEqual([expect.objectContaining({ body: expect.objectContaining({ name: 'Actium', campaign: null }) })]);
  });

  it('send the ruleset, the hours and every power’s fleet list, the period’s defaults as edited', async () => {
    await openForm(() => json(400, { error: { code: 'validation_failed', message: 'stop here' } }));
    campaignBox().click();
    flushSync();
    const rulesets = Array.from(
      target.querySelectorAll('[aria-label="Battle rules"] label'),
      (l) => text(l).split(' squadrons')[0].split(' each ')[0].split(' the period')[0],
    );
    expect(rulesets).toEqual(['Classis', 'The ship-to-ship rules of 2007', 'Diadochi Naval Rules', 'Oi Navarcoi!']);
    target.querySelector<HTMLInputElement>('[aria-label="Battle rules"] input[value="oi-navarcoi"]')!.click();
    fill(target.querySelector<HTMLInputElement>('input[data-field="campaign.battleHours"]')!, '48');
    expect(text(fleet('Egypt'))).toContain('8 ships a fleet');
    fill(countOf('Egypt', 'hepteres'), '3');
    fleet('Egypt').querySelector<HTMLButtonElement>('button[aria-label="Remove hendekeres from Egypt\'s fleet"]')!.click();
    const add = fleet('Rome').querySelector<HTMLSelectElement>('select')!;
    add.value = 'light';
    add.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    expect(text(fleet('Rome'))).toContain('9 ships a fleet');
    await submit();
    const { campaign } = sent[0].body as { campaign: { ruleset: string; battleHours: number; fleets: Record<string, unknown> } };
    expect(campaign.ruleset).toBe('oi-navarcoi');
    expect(campaign.battleHours).toBe(48);
    expect(Object.keys(campaign.fleets).sort()).toEqual([...POWERS].sort());
    expect(campaign.fleets.Egypt).toEqual([
      { class: 'trieres', count: 2 },
      { class: 'tetreres', count: 1 },
      { class: 'penteres', count: 1 },
      { class: 'hepteres', count: 3 },
      { class: 'enneres', count: 1 },
    ]);
    expect(campaign.fleets.Rome).toEqual([{ class: 'light', count: 1 }, ...DIADOCHI_V_FLEETS.Rome]);
    expect(campaign.fleets.Carthage).toEqual(DIADOCHI_V_FLEETS.Carthage);
  });

  it('say a fleet past its limit beside it, and send nothing', async () => {
    await openForm(() => json(201, {}));
    campaignBox().click();
    flushSync();
    fill(countOf('Rome', 'penteres'), '40');
    expect(text(fleet('Rome').querySelector('.error-text'))).toBe("Rome's fleet: a fleet has at most 40 ships, not 42.");
    expect(countOf('Rome', 'penteres').getAttribute('aria-invalid')).toBe('true');
    await submit();
    expect(sent).toEqual([]);
  });

  it('place the server’s refusal of the hours beside the field', async () => {
    await openForm(() =>
      json(400, {
        error: {
          code: 'validation_failed',
          message: 'body.campaign.battleHours: must be at most 336 (14 days)',
          issues: [{ path: 'body.campaign.battleHours', message: 'must be at most 336 (14 days)' }],
        },
      }),
    );
    campaignBox().click();
    flushSync();
    await submit();
    expect(sent).toHaveLength(1);
    const hours = target.querySelector<HTMLInputElement>('input[data-field="campaign.battleHours"]')!;
    expect(text(document.getElementById(hours.getAttribute('aria-describedby')!))).toBe("Time for a phase's battles must be at most 336 (14 days).");
    expect(text(target.querySelector('form'))).not.toMatch(/body\./);
  });
});

describe('a forming game’s sea battles on its page', () => {
  const forming = (fields: Partial<GameDetail> = {}) =>
    gameDetail(null, {
      status: 'forming',
      campaign: { ruleset: 'classis', battleHours: 72, fleets: { ...DIADOCHI_V_FLEETS } },
      ...fields,
    });

  it('are said to all, and changed by the game master (PUT …/campaign), the answer shown', async () => {
    const game = forming();
    serve(() => json(200, { ...game, campaign: { ...game.campaign!, ruleset: 'diadochi-naval', battleHours: 24 } }));
    let shown: GameDetail | null = null;
    component = mount(CampaignCard, { target, props: { game, master: true, onchange: (g: GameDetail) => (shown = g) } });
    flushSync();
    expect(text(target)).toContain("fought out under Classis; a phase's battles have 72 hours");
    expect(text(target)).toContain('Rome 2 trieres, 6 penteres');
    Array.from(target.querySelectorAll('button'))
      .find((b) => text(b) === 'Change the sea battles')!
      .click();
    flushSync();
    target.querySelector<HTMLInputElement>('input[value="diadochi-naval"]')!.click();
    fill(target.querySelector<HTMLInputElement>('input[data-field="campaign.battleHours"]')!, '24');
    Array.from(target.querySelectorAll('button'))
      .find((b) => text(b) === 'Save the sea battles')!
      .click();
    await vi.waitFor(() => expect(shown).not.toBeNull());
    expect(sent).toEqual([
      {
        method: 'PUT',
        url: `/api/games/${game.id}/campaign`,
        body: expect.objectContaining({ ruleset: 'diadochi-naval', battleHours: 24, fleets: expect.objectContaining({ Rome: DIADOCHI_V_FLEETS.Rome }) }),
      },
    ]);
  });

  it('show the server’s refusal in its words', async () => {
    serve(() => json(409, { error: { code: 'game_not_active', message: 'the game is active: its campaign is set before it starts' } }));
    component = mount(CampaignCard, { target, props: { game: forming(), master: true, onchange: () => {} } });
    flushSync();
    Array.from(target.querySelectorAll('button'))
      .find((b) => text(b) === 'Change the sea battles')!
      .click();
    flushSync();
    Array.from(target.querySelectorAll('button'))
      .find((b) => text(b) === 'Save the sea battles')!
      .click();
    await vi.waitFor(() => expect(text(target.querySelector('[role="alert"]'))).toBe('the game is active: its campaign is set before it starts'));
  });

  it('offer no change to a player, nor once the game has started', () => {
    serve(() => json(500, {}));
    component = mount(CampaignCard, { target, props: { game: forming(), master: false, onchange: () => {} } });
    flushSync();
    expect(target.querySelectorAll('button').length).toBe(0);
    unmount(component);
    component = mount(CampaignCard, { target, props: { game: forming({ status: 'active' }), master: true, onchange: () => {} } });
    flushSync();
    expect(target.querySelectorAll('button').length).toBe(0);
    expect(text(target)).toContain('Sea battles');
  });
});
