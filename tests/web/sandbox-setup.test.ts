/**
 * Setting up a position in the sandbox by hand: units placed, moved, removed and dislodged, centres given an owner,
 * the phase chosen, each change checked by the engine (refusals say why), then played from; the work kept across
 * a reload, and leaving with work not adjudicated or applied asks first.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { router } from '../../web/src/lib/router.svelte.ts';
import { sandboxPageEachTest } from './sandbox-dom.ts';

const { $, $$, click, button, pageText, remount } = sandboxPageEachTest();

afterEach(() => {
  vi.unstubAllGlobals();
});

const unit = (at: string) => $(`svg.dmap g.unit[data-unit="${at}"]`);
const toggle = () => $<HTMLButtonElement>('button.setup-toggle')!;
const chooser = () => $('.setup-chooser');
const chooserButton = (name: RegExp) => Array.from(chooser()?.querySelectorAll('button') ?? []).find((b) => name.test(b.textContent ?? '')) ?? null;
const alertText = () => $('.setup [role="alert"]')?.textContent ?? '';

function choose(select: HTMLSelectElement | null, value: string) {
  if (!select) throw new Error('no such choice');
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  flushSync();
}
const labelled = (words: RegExp) =>
  Array.from($$('.setup label'))
    .find((l) => words.test(l.textContent ?? ''))
    ?.querySelector<HTMLSelectElement>('select, input') ?? null;

/** Places a unit of `power` in `province` as a player does: the province clicked, the power chosen, the unit's button pressed. */
function place(province: string, power: string, what: RegExp) {
  click($(`#p-${province}`));
  choose(labelled(/New units for/), power);
  click(chooserButton(what));
}

describe('sandbox set-up', () => {
  it('is a toggle beside the phase, and hides Adjudicate while on', () => {
    expect(toggle().textContent).toBe('Set up the position');
    expect(toggle().getAttribute('aria-pressed')).toBe('false');
    click(toggle());
    expect(toggle().getAttribute('aria-pressed')).toBe('true');
    expect(button(/^Adjudicate$/)).toBeNull();
    expect($('h2')!.textContent).toBe('Set-up');
    // Every unit of every power is a button, to be moved or removed.
    expect($$('svg.dmap g.unit[role="button"]')).toHaveLength(17);
  });

  it('places an army and a fleet of the power chosen', () => {
    click(toggle());
    place('Arm', 'Rome', /^Army in Armenia$/);
    expect(unit('Arm')!.getAttribute('aria-label')).toBe('Roman army in Armenia');
    place('ION', 'Egypt', /^Fleet in /);
    expect(unit('ION')!.getAttribute('aria-label')).toMatch(/^Egyptian fleet in /);
    // The Powers table follows the position being set up.
    const romanUnits = Array.from($$('.powers-table tbody tr')).find((r) => r.textContent?.includes('Rome'))!;
    expect(romanUnits.querySelectorAll('td')[2].textContent).toMatch(/^5/);
  });

  it('offers a fleet on each coast of a province with two, and places it on the coast chosen', () => {
    click(toggle());
    click($('#p-Aqu'));
    const fleets = Array.from(chooser()!.querySelectorAll('button'))
      .map((b) => b.textContent)
      .filter((t) => t?.startsWith('Fleet'));
    expect(fleets).toEqual(['Fleet in Aquitania (West Coast)', 'Fleet in Aquitania (South Coast)']);
    click(chooserButton(/South Coast/));
    expect(unit('Aqu/sc')).not.toBeNull();
    expect(unit('Aqu/wc')).toBeNull();
  });

  it('refuses what the engine refuses, and says why: a fleet inland, an army at sea', () => {
    click(toggle());
    click($('#p-Arm'));
    const fleet = chooserButton(/^Fleet in Armenia$/)!;
    expect(fleet.getAttribute('aria-disabled')).toBe('true');
    // Said beside the button (its description) before it is pressed, and as an alert when it is.
    expect(document.getElementById(fleet.getAttribute('aria-describedby')!)!.textContent).toContain('a fleet cannot be inland');
    click(fleet);
    expect(alertText()).toContain('The rules engine refuses this');
    expect(alertText()).toContain('a fleet cannot be inland');
    expect(unit('Arm')).toBeNull();
    click($('#p-AEG'));
    click(chooserButton(/^Army in Aegean Sea$/));
    expect(alertText()).toContain('an army cannot be at sea');
    expect(unit('AEG')).toBeNull();
  });

  it('moves a unit: the unit, Move it, a highlighted province, then the unit there', () => {
    click(toggle());
    click(unit('Rav'));
    click(chooserButton(/Move it/));
    expect(pageText()).toContain('Moving the Roman army in Ravenna');
    // Wherever the engine would let an army stand: inland yes, at sea or where a unit stands no.
    expect($('#p-Arm')!.classList.contains('target')).toBe(true);
    expect($('#p-AEG')!.classList.contains('target')).toBe(false);
    expect($('#p-Rom')!.classList.contains('target')).toBe(false);
    click($('#p-Arm'));
    click(chooserButton(/^Army in Armenia$/));
    expect(unit('Rav')).toBeNull();
    expect(unit('Arm')!.getAttribute('aria-label')).toBe('Roman army in Armenia');
    expect(pageText()).not.toContain('Moving the');
  });

  it('removes a unit', () => {
    click(toggle());
    click(unit('Rav'));
    click(chooserButton(/Remove it/));
    expect(unit('Rav')).toBeNull();
    expect($$('svg.dmap g.unit')).toHaveLength(16);
  });

  it('sets the owner of a supply centre, or none', () => {
    click(toggle());
    const centres = (power: string) =>
      Array.from($$('.powers-table tbody tr'))
        .find((r) => r.textContent?.includes(power))!
        .querySelectorAll('td')[0].textContent;
    const before = Number(centres('Rome'));
    click($('#p-Eph'));
    choose(labelled(/Owner of the supply centre/), 'Rome');
    expect(Number(centres('Rome'))).toBe(before + 1);
    expect($('#p-Eph')!.getAttribute('aria-label')).toMatch(/Roman/);
    click($('#p-Rom'));
    choose(labelled(/Owner of the supply centre/), '');
    expect(Number(centres('Rome'))).toBe(before);
    // A province that is no centre has no owner to set.
    click($('#p-AEG'));
    expect(labelled(/Owner of the supply centre/)).toBeNull();
  });

  it('changes the season, year and phase, each as the engine plays it', () => {
    click(toggle());
    choose(labelled(/Season and phase/), 'winter-adjustment');
    expect($('h1')!.textContent).toBe('Winter 240 BC Adjustment');
    choose(labelled(/Year/), '238');
    expect($('h1')!.textContent).toBe('Winter 238 BC Adjustment');
    const phases = Array.from(labelled(/Season and phase/)!.querySelectorAll('option')).map((o) => o.textContent);
    expect(phases).toEqual(['Spring Movement', 'Spring Retreat', 'Fall Movement', 'Fall Retreat', 'Winter Adjustment']);
    choose(labelled(/Year/), '99999');
    expect(alertText()).toContain('The year must be a whole number');
    expect($('h1')!.textContent).toBe('Winter 238 BC Adjustment');
  });

  it('plays from the position set up: it adjudicates, and the set-up mode is left', () => {
    click(toggle());
    place('Arm', 'Rome', /^Army in Armenia$/);
    choose(labelled(/Season and phase/), 'fall-movement');
    click(button(/Play from this position/));
    expect(toggle().getAttribute('aria-pressed')).toBe('false');
    expect($('h1')!.textContent).toBe('Fall 240 BC Movement');
    click(button(/Rome/));
    click(unit('Arm'));
    click(button(/Move/));
    click($('.targets button[data-province="Cap"]') ?? $$('.targets button')[0]);
    const order = ($<HTMLTextAreaElement>('#orders-text')!.value ?? '').trim();
    expect(order).toMatch(/^A Arm - /);
    click(button(/^Adjudicate$/));
    const row = $$('.results button.row').find((b) => b.textContent?.includes(order))!;
    expect(row).toBeDefined();
    click(button(/Continue/));
    // After Fall comes the Winter count: the army's new province is Rome's if it is a centre, and the phase moved on.
    expect($('h1')!.textContent).toMatch(/^(Winter 240 BC Adjustment|Spring 239 BC Movement)$/);
  });

  it('dislodges a unit in a retreat phase, which its power then retreats', () => {
    click(toggle());
    choose(labelled(/Season and phase/), 'spring-retreat');
    click(unit('Rav'));
    choose(labelled(/Attacked from/), 'Cis');
    click(chooserButton(/Dislodge it/));
    expect(pageText()).toContain('dislodged Roman army in Ravenna, attacked from Cisalpine Gaul');
    click(button(/Play from this position/));
    expect($('h1')!.textContent).toBe('Spring 240 BC Retreat');
    expect($('.powers [aria-pressed="true"]')!.textContent).toContain('Rome');
    click($('g.unit.dislodged[data-unit="Rav"]'));
    click(button(/Retreat|Move/));
    const targets = $$('.targets button').map((b) => b.getAttribute('data-province'));
    expect(targets.length).toBeGreaterThan(0);
    expect(targets).not.toContain('Cis');
  });

  it('leaving without a change plays on as before; Discard the changes drops them', () => {
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Hold/));
    click(toggle());
    click(button(/^Done$/));
    click(button(/Rome/));
    expect($<HTMLTextAreaElement>('#orders-text')!.value).toBe('A Rav H');
    vi.stubGlobal('confirm', () => true);
    click(toggle());
    click(unit('Rav'));
    click(chooserButton(/Remove it/));
    click(button(/Discard the changes/));
    expect(unit('Rav')).not.toBeNull();
    expect($<HTMLTextAreaElement>('#orders-text')!.value).toBe('A Rav H');
  });

  it('asks before playing from the set-up throws away orders, and stays in set-up when told no', () => {
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Hold/));
    click(toggle());
    click(unit('Bru'));
    click(chooserButton(/Remove it/));
    click(button(/Play from this position/));
    expect(confirm).toHaveBeenCalledOnce();
    expect(toggle().getAttribute('aria-pressed')).toBe('true');
  });
});

describe('sandbox set-up: the work is kept', () => {
  it('across a reload, in set-up mode with its changes, and after it is applied', async () => {
    click(toggle());
    place('Arm', 'Syria', /^Army in Armenia$/);
    await remount();
    expect(toggle().getAttribute('aria-pressed')).toBe('true');
    expect(unit('Arm')!.getAttribute('aria-label')).toBe('Syrian army in Armenia');
    click(button(/Play from this position/));
    await remount();
    expect(toggle().getAttribute('aria-pressed')).toBe('false');
    expect(unit('Arm')!.getAttribute('aria-label')).toBe('Syrian army in Armenia');
  });

  it('leaving the page asks first while orders are not adjudicated or a set-up is not applied', () => {
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    const unload = () => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    router.go('/sandbox', true);
    // Nothing to lose: no question.
    expect(router.mayLeaveFor('/')).toBe(true);
    expect(unload()).toBe(false);

    click($('g.unit[data-unit="Rav"]'));
    click(button(/Hold/));
    expect(unload()).toBe(true);
    router.go('/games/new');
    expect(confirm).toHaveBeenCalledOnce();
    expect(confirm.mock.calls[0]).toEqual([expect.stringContaining('not yet adjudicated')]);
    expect(router.route.name).toBe('sandbox');
    // Another query or hash of the sandbox's own address leaves nothing: no question, and the address changes.
    router.go('/sandbox?from=menu');
    router.go('/sandbox?from=menu#main');
    history.pushState(null, '', '/sandbox?from=menu#orders');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(confirm).toHaveBeenCalledOnce();
    expect(router.search).toBe('?from=menu');
    expect(location.hash).toBe('#orders');

    // Adjudicated, nothing is pending.
    click(button(/^Adjudicate$/));
    expect(unload()).toBe(false);

    click(toggle());
    expect(unload()).toBe(false);
    click(unit('Bru'));
    click(chooserButton(/Remove it/));
    expect(unload()).toBe(true);
    router.go('/games/new');
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(router.route.name).toBe('sandbox');
    confirm.mockReturnValue(true);
    router.go('/games/new');
    expect(router.route.name).toBe('create');
    router.leaveGuard = null;
    router.go('/', true);
  });
});
