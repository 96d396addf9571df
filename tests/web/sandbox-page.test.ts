/**
 * The sandbox page mounted in a DOM: the map, the order panel and the results
 * working together as a player uses them, by mouse, by keyboard and by typing.
 */
import { describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { sandboxPageEachTest } from './sandbox-dom.ts';
import { computeOverlay } from '../../shared/drawing/overlay.ts';
import { adjustment, start, variant } from './positions.ts';

const { $, $$, click, button, text, pageText, remount, settled } = sandboxPageEachTest();

/** A key pressed on an element, bubbling as the browser's would. */
function press(el: Element | null, key: string) {
  if (!el) throw new Error('nothing to press a key on');
  el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  flushSync();
}

/** Loads a position as a player pastes one. */
async function paste(state: object) {
  const box = $<HTMLTextAreaElement>('#paste')!;
  box.value = JSON.stringify(state);
  box.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
  click(button(/Load this position/));
  await settled();
  flushSync();
}

/** What the map lets Tab reach. */
const tabStops = () => $$('svg.dmap [tabindex="0"]');

describe('sandbox page', () => {
  it('keeps the orders across a reload', async () => {
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Move/));
    click($('#p-Cis'));
    await remount();
    click(button(/Rome/));
    expect(text()).toBe('A Rav - Cis');
  });

  it('draws every province and unit with an accessible name', () => {
    expect($$('svg.dmap path.province')).toHaveLength(102);
    const units = $$('svg.dmap g.unit');
    expect(units).toHaveLength(17);
    expect(units.map((u) => u.getAttribute('aria-label'))).toContain('Roman army in Ravenna');
    // Only the units of the power being ordered (Carthage first) are buttons and take the focus; the others are named images.
    const carthaginian = units.filter((u) => u.getAttribute('aria-label')!.startsWith('Carthaginian'));
    expect(carthaginian).toHaveLength(4);
    for (const u of units) {
      const mine = carthaginian.includes(u);
      expect([u.getAttribute('role'), u.getAttribute('tabindex')]).toEqual(mine ? ['button', '0'] : ['img', null]);
    }
    expect($('#p-Rom')!.getAttribute('aria-label')).toMatch(/^Rome; Roman triple supply centre/);
    expect($('h1')!.textContent).toBe('Spring 240 BC Movement');
  });

  it('says which unit is selected, and reads no stray text of the drawing (coast marks, names) on the map', async () => {
    click($('g.unit[data-unit="Car"]'));
    const pressed = $$('svg.dmap g.unit[role="button"]').map((u) => [u.getAttribute('data-unit'), u.getAttribute('aria-pressed')]);
    expect(pressed).toEqual(
      expect.arrayContaining([
        ['Car', 'true'],
        ['Had', 'false'],
      ]),
    );
    expect($$('svg.dmap g.unit[role="img"]').every((u) => !u.hasAttribute('aria-pressed'))).toBe(true);
    await vi.waitFor(() => expect($$('svg.dmap .labels text').length).toBeGreaterThan(0));
    expect($$('svg.dmap .static-over text').map((t) => t.textContent)).toContain('wcAquitania, West Coast');
    const read = $$('svg.dmap text')
      .filter((t) => !t.closest('[aria-hidden="true"]'))
      .map((t) => t.textContent);
    expect(read).toEqual([]);
  });

  it('marks every supply and build centre by kind, owner and special rule', () => {
    const centre = (id: string) => $(`svg.dmap g.centre[data-centre="${id}"]`)!;
    // The marker's own shapes (not the halo a build site shows when it may be picked).
    const fills = (id: string) => Array.from(centre(id).querySelectorAll('circle:not(.halo), rect'), (shape) => shape.getAttribute('fill'));
    const roman = $('g.unit[data-unit="Rav"] .counter')!.getAttribute('fill');
    expect($$('svg.dmap g.centre')).toHaveLength(41 + 3);
    // Rome: triple for Rome (three rings, the outer in Rome's colour), and indestructible (a dot).
    expect(centre('Rom').classList.contains('triple')).toBe(true);
    expect(fills('Rom')).toEqual([roman, 'none', 'none', expect.stringMatching(/^#/)]);
    // A neutral double centre: two rings on paper, no dot.
    expect(centre('Eph').classList.contains('double')).toBe(true);
    expect(fills('Eph')).toEqual(['#fbf6e6', 'none']);
    // Armenia is liable to rebel: a dashed halo around its marker.
    expect(centre('Arm').querySelector('circle[stroke-dasharray]')).not.toBeNull();
    expect(centre('Eph').querySelector('circle[stroke-dasharray]')).toBeNull();
    // Athens is a special build centre: a diamond, not a ring.
    expect(centre('Ath').classList.contains('build')).toBe(true);
    expect(centre('Ath').querySelector('rect')).not.toBeNull();
  });

  it('answers keys and clicks on a province through the map, and moves the focus rules with the order', () => {
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Move/));
    const cis = $('#p-Cis')!;
    expect(cis.getAttribute('tabindex')).toBe('0');
    cis.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    flushSync();
    expect(text()).toBe('A Rav - Cis');
    // The order is given: no province is a target any more, and none takes the focus.
    expect($$('svg.dmap path.province.target')).toHaveLength(0);
    expect($$('svg.dmap path.province[tabindex]')).toHaveLength(0);
    expect(cis.getAttribute('role')).toBe('img');
  });

  it('writes the province names once the map is on screen, and hides and shows them on demand', async () => {
    // Not in the map's first frame (they take no clicks), but right after it.
    expect($$('svg.dmap text.map-label')).toHaveLength(0);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve))));
    flushSync();
    expect($$('svg.dmap text.map-label').length).toBeGreaterThan(90);
    expect($$('svg.dmap text.map-label').map((l) => l.textContent)).toContain('Rom');
    const names = $('button[aria-label="Province names"]');
    click(names);
    expect($$('svg.dmap text.map-label')).toHaveLength(0);
    expect(names!.getAttribute('aria-pressed')).toBe('false');
    click(names);
    expect($$('svg.dmap text.map-label').length).toBeGreaterThan(90);
  });

  it('a click on a unit, Move, and a click on a highlighted province give the order, in the text box too', () => {
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Move/));
    expect($('#p-Cis')!.classList.contains('target')).toBe(true);
    expect($('#p-Cis')!.getAttribute('role')).toBe('button');
    expect($('#p-Car')!.classList.contains('target')).toBe(false);
    click($('#p-Cis'));
    expect(text()).toBe('A Rav - Cis');
    expect($$('svg.dmap .glyph.arrow.planned')).toHaveLength(1);
    expect($$('.order-list li.ok')).toHaveLength(1);
  });

  it('typing updates the map and explains a bad line', () => {
    const box = $<HTMLTextAreaElement>('#orders-text')!;
    click(button(/Carthage/));
    box.value = 'A Had - Num\nA Gad - Rom';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    expect($$('.order-list li.ok')).toHaveLength(1);
    expect($('.order-list li.bad .reason')!.textContent).toMatch(/not next to Rome/);
    expect($$('svg.dmap .glyph.arrow')).toHaveLength(1);
  });

  it('keyboard: a key on a focused unit gives its order; M lists the targets as buttons', () => {
    const bru = $('g.unit[data-unit="Bru"]')!;
    bru.dispatchEvent(new KeyboardEvent('keydown', { key: 'h', bubbles: true }));
    flushSync();
    expect(text()).toBe('A Bru H');
    const rav = $('g.unit[data-unit="Rav"]')!;
    rav.dispatchEvent(new KeyboardEvent('keydown', { key: 'm', bubbles: true }));
    flushSync();
    const targets = $$('.targets button').map((b) => b.textContent);
    expect(targets).toContain('Cisalpine Gaul');
    click($$('.targets button').find((b) => b.textContent === 'Cisalpine Gaul')!);
    expect(text()).toBe('A Bru H\nA Rav - Cis');
  });

  it('adjudicates, draws the results, opens a reason, and continues to the next phase', () => {
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Move/));
    click($('#p-Cis'));
    click(button(/^Adjudicate$/));
    expect($$('svg.dmap .glyph.arrow.success')).toHaveLength(1);
    const row = $$('.results button.row').find((b) => b.textContent?.includes('A Rav - Cis'))!;
    click(row);
    expect($('.results .reason')!.textContent).toMatch(/Moved to Cisalpine Gaul/);
    click(button(/Continue/));
    expect($('h1')!.textContent).toBe('Fall 240 BC Movement');
    expect($('g.unit[data-unit="Cis"]')).not.toBeNull();
  });

  it('keeps the focus on the button pressed: Adjudicate becomes Continue, Continue becomes Adjudicate', () => {
    const primary = button(/^Adjudicate$/) as HTMLButtonElement;
    primary.focus();
    click(primary);
    expect(document.activeElement).toBe(primary);
    expect(primary.textContent).toBe('Continue ▸');
    click(primary);
    expect(document.activeElement).toBe(primary);
    expect(primary.textContent).toBe('Adjudicate');
  });

  it('heads the panel under the h1 with an h2 (Orders, then Results), so no heading level is skipped', () => {
    const levels = () => $$('h1, h2, h3, h4').map((h) => Number(h.tagName[1]));
    const noneSkipped = (list: number[]) => list.every((level, i) => i === 0 || level - list[i - 1] <= 1);
    expect($('h2')!.textContent).toBe('Orders');
    expect(noneSkipped(levels())).toBe(true);
    click(button(/^Adjudicate$/));
    expect($('h2')!.textContent).toBe('Results');
    expect(levels()).toContain(3);
    expect(noneSkipped(levels())).toBe(true);
  });

  it('says in the results when a special build centre changes hands after Fall', () => {
    click($('g.unit[data-unit="Lar"]'));
    click(button(/Move/));
    click($('#p-Ath'));
    click(button(/^Adjudicate$/));
    expect(pageText()).not.toContain('special build centre');
    click(button(/Continue/));
    click(button(/^Adjudicate$/));
    expect($('.results .events')!.textContent).toContain('Macedonia took control of Athens, a special build centre.');
  });

  it("has a legend naming every order's shape as orders are given, Diadochi V's own marks, and failures once adjudicated", () => {
    const legend = () => $('details.legend')!.textContent ?? '';
    for (const entry of [
      'Move',
      'Support',
      'Convoy',
      'Hold',
      'Retreat',
      'Destroy (Z)',
      'Build',
      'Remove',
      'Build site (Winter)',
      'Rebuild (R)',
      'Centre being rebuilt',
    ])
      expect(legend()).toContain(entry);
    expect(legend()).not.toContain('Failed');
    click(button(/^Adjudicate$/));
    expect(legend()).toContain('Failed (bounced, cut)');
    expect(legend()).toContain('Destroy (Z)');
  });

  it('names the legend for a screen reader by its entries’ words (its shapes are a picture), failures too once adjudicated', async () => {
    const name = () => $('details.legend svg')!.getAttribute('aria-label')!;
    await vi.waitFor(() => expect(name()).toMatch(/^Map legend: Supply centre; Double centre; Triple \(Rome, for Rome\); .*Move by convoy; Lent centre$/));
    expect(name()).not.toContain('Failed');
    // The counters' letters are no entry.
    expect(name()).not.toMatch(/; A;|; M;/);
    click(button(/^Adjudicate$/));
    await vi.waitFor(() => expect(name()).toContain('; Failed (bounced, cut);'));
  });

  it('tells a retreat from a convoy in the legend as the map does: a retreat is an arrow, a convoy a dotted line ending in a dot', () => {
    const lineOf = (label: string) => {
      const text = Array.from($('details.legend')!.querySelectorAll('text')).find((t) => t.textContent === label)!;
      let shape = text.previousElementSibling;
      while (shape && shape.tagName !== 'line') shape = shape.previousElementSibling;
      return shape!;
    };
    expect(lineOf('Retreat').getAttribute('marker-end')).toBe('url(#legend-head)');
    expect(lineOf('Move by convoy').getAttribute('marker-end')).toBe('url(#legend-head)');
    expect(lineOf('Convoy').hasAttribute('marker-end')).toBe(false);
    expect(lineOf('Convoy').nextElementSibling?.tagName).toBe('circle');
  });

  it("gives, as the order box's example, orders the power being ordered could give, not another's", () => {
    const example = () => $<HTMLTextAreaElement>('#orders-text')!.placeholder;
    click(button(/Syria/));
    expect(example()).toMatch(/^One order per line, for example:\n/);
    const shown = example().split('\n').slice(1);
    expect(shown.length).toBe(2);
    const syria = ['Ant', 'Arb', 'Sel'];
    for (const line of shown) expect(syria.some((at) => line.includes(` ${at} `))).toBe(true);
  });

  it('explains Destroy where a unit may destroy its centre', () => {
    click($('g.unit[data-unit="Rav"]'));
    expect(button(/Destroy/)).not.toBeNull();
    expect(pageText()).toContain('Destroy: the unit spends the season on it, and the centre supplies no one until it is rebuilt.');
    expect(pageText()).not.toContain('Rebuild: order it two seasons in a row');
  });

  it('on a touch screen, the hints say tap and leave out the keyboard', async () => {
    const hint = () => $('.order-panel p.muted, section p.muted')?.textContent?.replace(/\s+/g, ' ').trim();
    expect(hint()).toBe('Click a unit on the map, or Tab to it and press H, M, S, C, Z or R.');
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(pointer: coarse)', media: query }));
    try {
      await remount();
      expect(hint()).toBe('Tap a unit on the map, or type the orders below.');
      click($('g.unit[data-unit="Rav"]'));
      click(button(/Move/));
      expect(pageText()).toContain('Move to where? Tap a highlighted province.');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('sandbox page: building from the keyboard', () => {
  it('puts the power’s free home centres in the Tab order, named as build sites, and no unit it cannot order', async () => {
    await paste(adjustment);
    expect($('h1')!.textContent).toBe('Winter 240 BC Adjustment');
    click(button(/Rome/));
    expect(tabStops().map((el) => el.getAttribute('data-province'))).toEqual(['Bru', 'Nea']);
    for (const id of ['Bru', 'Nea']) {
      expect($(`#p-${id}`)!.getAttribute('role')).toBe('button');
      expect($(`#p-${id}`)!.getAttribute('aria-label')).toMatch(/build site/);
    }
    // Rome has nothing to do with a unit in a build: none is a button or a tab stop.
    expect($$('svg.dmap g.unit[tabindex]')).toHaveLength(0);
    expect($$('svg.dmap g.unit').every((u) => u.getAttribute('role') === 'img')).toBe(true);
    // Carthage's site when Carthage is ordered.
    click(button(/Carthage/));
    expect(tabStops().map((el) => el.getAttribute('data-province'))).toEqual(['Had']);
  });

  it('B on a focused site asks army or fleet; Enter does as a click does', async () => {
    await paste(adjustment);
    click(button(/Rome/));
    press($('#p-Nea'), 'b');
    expect($$('.targets button').map((b) => b.textContent)).toEqual(['Army in Neapolis', 'Fleet in Neapolis']);
    click($$('.targets button')[1]);
    expect(text()).toBe('Build F Nea');
    press($('#p-Bru'), 'Enter');
    click($$('.targets button').find((b) => b.textContent === 'Army in Brudisium')!);
    expect(text()).toBe('Build F Nea\nBuild A Bru');
  });
});

describe('sandbox page: a piece says its order in its name', () => {
  it('a unit once ordered, and a build site once built on, for a screen reader reaching them with Tab', async () => {
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Move/));
    click($('.targets button[data-province="Cis"]'));
    expect($('g.unit[data-unit="Rav"]')!.getAttribute('aria-label')).toBe('Roman army in Ravenna; ordered: A Rav - Cis');
    // Another power's unit, not being ordered, is named as before.
    expect($('g.unit[data-unit="Car"]')!.getAttribute('aria-label')).toBe('Carthaginian fleet in Carthage');
    vi.stubGlobal('confirm', () => true);
    try {
      await paste(adjustment);
    } finally {
      vi.unstubAllGlobals();
    }
    click(button(/Rome/));
    press($('#p-Nea'), 'b');
    click($$('.targets button').find((b) => b.textContent === 'Fleet in Neapolis')!);
    expect($('#p-Nea')!.getAttribute('aria-label')).toMatch(/a build site: B or Enter to build here; ordered: Build F Nea$/);
    expect($('#p-Bru')!.getAttribute('aria-label')).not.toContain('ordered');
  });
});

describe('sandbox page: Enter on a build site', () => {
  it('gives the focus to the choice it asks for, as B does', async () => {
    await paste(adjustment);
    click(button(/Rome/));
    $<SVGElement>('#p-Bru')!.focus();
    press($('#p-Bru'), 'Enter');
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('Army in Brudisium'));
    // Escape steps back, the focus with it, to the site.
    press(document.activeElement, 'Escape');
    await vi.waitFor(() => expect(document.activeElement).toBe($('#p-Bru')));
  });
});

describe('sandbox page: builds left', () => {
  it('counts down the builds, and offers Waive only while some are left', async () => {
    await paste(adjustment);
    click(button(/Rome/));
    const step = () => $('.step')!.textContent!.replace(/\s+/g, ' ').trim();
    expect(step()).toMatch(
      /^Rome may build 3 units\. Click a highlighted centre to build there\. Only 2 free build centres, one build each: 1 build goes unused\./,
    );
    click($('#p-Nea'));
    click(button(/Fleet in Neapolis/));
    // The page settles between a player's actions, as it does in a browser.
    await new Promise((resolve) => setTimeout(resolve));
    click($('#p-Bru'));
    // Pressed as a browser presses a button: it takes the focus first.
    const fleet = button(/Fleet in Brudisium/) as HTMLButtonElement;
    fleet.focus();
    click(fleet);
    // Both sites used: the prompt no longer sends the player to a highlighted centre.
    expect(step()).toMatch(
      /^Rome may build 3 units: 1 left\. Every free build centre has its build \(click one to change it\); the build left goes unused unless waived\./,
    );
    expect(step()).not.toMatch(/Only 2 free build centres/);
    // The focus has followed the last build back to its site; from there the player Tabs to Waive.
    await vi.waitFor(() => expect(document.activeElement).toBe($('#p-Bru')));
    const waive = button(/Waive a build/) as HTMLButtonElement;
    waive.focus();
    click(waive);
    expect(text()).toBe('Build F Nea\nBuild F Bru\nWaive');
    expect(step()).toBe('Rome may build 3 units: all are ordered.');
    expect(button(/Waive a build/)).toBeNull();
    expect($$('.order-list li.bad')).toHaveLength(0);
    // The last waive took its button: the focus is on the orders, where it is written.
    await vi.waitFor(() => expect(document.activeElement).toBe($('#orders-text')));
  });
});

describe('sandbox page: removals', () => {
  it('says which units the rules remove if the player does not choose, by the rule set chosen', async () => {
    // Macedonia loses Pella to Rome: 3 units on 2 centres.
    await paste({ ...adjustment, owners: { ...adjustment.owners, Pel: 'Rome' } });
    click(button(/Macedonia/));
    const step = () => $('.step')!.textContent!.replace(/\s+/g, ' ').trim();
    expect(step()).toMatch(
      /^Macedonia must remove 1 unit: click one, then Remove\. Any left unchosen at the deadline \(or on Ready\), the rules choose: the units farthest from the centres it owns\./,
    );
    const rules = $<HTMLSelectElement>('.rules select')!;
    rules.value = '1971';
    rules.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    expect(step()).toMatch(/the units farthest from its home centres\./);
  });
});

describe('sandbox page: Escape', () => {
  it('on a target steps back one step, as Back does', () => {
    click($('g.unit[data-unit="Alx"]'));
    click(button(/Support/));
    click($$('.targets button').find((b) => b.textContent === 'Ptolemais')!);
    expect(pageText()).toContain('Support Ptolemais to where?');
    press($('.targets button'), 'Escape');
    expect(pageText()).toContain('Support which unit?');
    press($('.targets button'), 'Escape');
    expect($('.actions')).not.toBeNull();

    click(button(/Move/));
    press($('.targets button'), 'Escape');
    // Back to the unit's actions, not deselected.
    expect($('.actions')).not.toBeNull();
    expect($('g.unit[data-unit="Alx"]')!.classList.contains('selected')).toBe(true);
  });

  it('gives the focus back to the unit, whose keys then work again', async () => {
    click($('g.unit[data-unit="Alx"]'));
    click(button(/Move/));
    const target = $<HTMLButtonElement>('.targets button')!;
    target.focus();
    press(target, 'Escape');
    await vi.waitFor(() => expect(document.activeElement).toBe($('g.unit[data-unit="Alx"]')));
  });
});

describe('sandbox page: a unit picked near the edge of a zoomed map', () => {
  it('does not make the map slide under the pointer: it is in view already', () => {
    const viewBox = () => $('svg.dmap')!.getAttribute('viewBox')!.split(' ').map(Number);
    const units = computeOverlay(variant, start).units;
    const edge = (u: { at: readonly [number, number] }, [x, y, w, h]: number[]) => Math.min(u.at[0] - x, x + w - u.at[0], u.at[1] - y, y + h - u.at[1]);
    // Zoomed in, then panned step by step until some unit stands just inside an edge.
    for (let i = 0; i < 3; i++) press($('.map-frame'), '+');
    let near = units.find((u) => edge(u, viewBox()) > 20 && edge(u, viewBox()) < 60);
    for (let i = 0; i < 20 && !near; i++) {
      press($('.map-frame'), 'ArrowRight');
      near = units.find((u) => edge(u, viewBox()) > 20 && edge(u, viewBox()) < 60);
    }
    expect(near, 'a unit between 20 and 60 from the edge of the zoomed view').toBeDefined();
    const [x, y, w, h] = viewBox();
    click($(`g.unit[data-unit="${near!.location}"]`));
    expect($(`g.unit[data-unit="${near!.location}"]`)!.getAttribute('aria-pressed')).toBe('true');
    expect(viewBox()).toEqual([x, y, w, h]);
  });
});

describe('sandbox page: the focus follows the order panel’s buttons', () => {
  const unit = () => $('g.unit[data-unit="Rav"]');
  it('goes from an action to its first target, and from the target back to the unit, the order given', async () => {
    click(unit());
    click(button(/Move/));
    await vi.waitFor(() => expect(document.activeElement).toBe($('.targets button')));
    click($('.targets button[data-province="Cis"]'));
    expect(text()).toContain('A Rav - Cis');
    await vi.waitFor(() => expect(document.activeElement).toBe(unit()));
  });

  it('tells a screen reader each step in a few words, and the order once given (not the whole list of targets)', () => {
    const status = () => $('.order-panel [role="status"]')!.textContent;
    click(unit());
    // With the keys that order it from where the focus is, rather than many Tab stops on.
    expect(status()).toBe('Roman army in Ravenna: press H to hold, M to move, S to support or Z to destroy centre');
    click(button(/Move/));
    expect(status()).toBe('Move to where? Click a highlighted province.');
    click($('.targets button[data-province="Cis"]'));
    expect(status()).toBe('Ordered: A Rav - Cis');
    expect($$('.order-panel [aria-live]').filter((e) => e.getAttribute('aria-live') !== 'off')).toEqual([]);
  });

  it('goes from Hold back to the unit, from Back to the first action, from Deselect to the unit', async () => {
    click(unit());
    click(button(/Hold/));
    await vi.waitFor(() => expect(document.activeElement).toBe(unit()));
    click(unit());
    click(button(/Support/));
    await vi.waitFor(() => expect(document.activeElement).toBe($('.targets button')));
    click(button(/^Back$/));
    await vi.waitFor(() => expect(document.activeElement).toBe($('.actions button')));
    click(button(/^Deselect$/));
    await vi.waitFor(() => expect(document.activeElement).toBe(unit()));
  });
});

describe('sandbox page: replacing the work', () => {
  it('asks before Start over and Load this position throw away orders, and does nothing when told no', async () => {
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    try {
      // Nothing to lose yet: no question.
      await paste(adjustment);
      expect(confirm).not.toHaveBeenCalled();
      click(button(/Start over/));
      expect(confirm).not.toHaveBeenCalled();
      expect($('h1')!.textContent).toBe('Spring 240 BC Movement');

      click($('g.unit[data-unit="Rav"]'));
      click(button(/Hold/));
      click(button(/Start over/));
      await paste(adjustment);
      expect(confirm).toHaveBeenCalledTimes(2);
      expect($('h1')!.textContent).toBe('Spring 240 BC Movement');
      click(button(/Rome/));
      expect(text()).toBe('A Rav H');

      confirm.mockReturnValue(true);
      click(button(/Start over/));
      expect(confirm).toHaveBeenCalledTimes(3);
      click(button(/Rome/));
      expect(text()).toBe('');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('after Continue into a retreat, orders for the power with a dislodged unit', async () => {
    await paste({
      ...adjustment,
      phase: { season: 'spring', year: 240, type: 'movement' },
      units: [
        { power: 'Carthage', type: 'army', at: 'Had' },
        { power: 'Rome', type: 'army', at: 'Rav' },
        { power: 'Macedonia', type: 'army', at: 'Ven' },
        { power: 'Macedonia', type: 'army', at: 'Cis' },
      ],
    });
    expect($('.powers [aria-pressed="true"]')!.textContent).toContain('Carthage');
    click(button(/Macedonia/));
    const box = $<HTMLTextAreaElement>('#orders-text')!;
    box.value = 'A Ven - Rav\nA Cis S A Ven - Rav';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    click(button(/Carthage/));
    click(button(/^Adjudicate$/));
    click(button(/Continue/));
    expect($('h1')!.textContent).toBe('Spring 240 BC Retreat');
    expect($('.powers [aria-pressed="true"]')!.textContent).toContain('Rome');
    expect(pageText()).not.toContain('has no dislodged unit');
  });
});

describe('sandbox page: a support’s second step', () => {
  const stepText = () => $('.order-panel .hint')!.textContent;
  it('offers to support a unit where it stands only where the supporter could move there', () => {
    // Carthage's fleet cannot reach Hadrumetum, inland: no support to hold there.
    click($('g.unit[data-unit="Car"]'));
    click(button(/Support/));
    click($$('.targets button').find((b) => b.textContent === 'Hadrumetum')!);
    expect(stepText()).toBe(
      'Support Hadrumetum to where? Click a highlighted province (it cannot be supported where it stands: this unit could not move there).',
    );
    expect($$('.targets button').map((b) => b.textContent)).not.toContain('Hadrumetum');
    press($('.targets button'), 'Escape');
    press($('.targets button'), 'Escape');
    press($('.actions button'), 'Escape');

    // Rome's army in Ravenna can reach Rome: the fleet there may be supported in place.
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Support/));
    click($$('.targets button').find((b) => b.textContent === 'Rome')!);
    expect(stepText()).toBe('Support Rome to where? Click its own province to support it holding.');
    expect($$('.targets button').map((b) => b.textContent)).toContain('Rome (hold)');
  });
});
