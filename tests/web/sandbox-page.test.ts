/**
 * The sandbox page mounted in a DOM: the map, the order panel and the results
 * working together as a player uses them, by mouse, by keyboard and by typing.
 */
import { describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { sandboxPageEachTest } from './sandbox-dom.ts';

const { $, $$, click, button, text, pageText, remount } = sandboxPageEachTest();

describe('sandbox page', () => {
  it('keeps the orders across a reload', () => {
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Move/));
    click($('#p-Cis'));
    remount();
    click(button(/Rome/));
    expect(text()).toBe('A Rav - Cis');
  });

  it('draws every province and unit with an accessible name', () => {
    expect($$('svg.dmap path.province')).toHaveLength(102);
    const units = $$('svg.dmap g.unit');
    expect(units).toHaveLength(17);
    expect(units.map((u) => u.getAttribute('aria-label'))).toContain('Roman army in Ravenna');
    expect(units.every((u) => u.getAttribute('tabindex') === '0')).toBe(true);
    expect($('#p-Rom')!.getAttribute('aria-label')).toMatch(/^Rome; Roman triple supply centre/);
    expect($('h1')!.textContent).toBe('Spring 240 BC Movement');
  });

  it('marks every supply and build centre by kind, owner and special rule', () => {
    const centre = (id: string) => $(`svg.dmap g.centre[data-centre="${id}"]`)!;
    const fills = (id: string) => Array.from(centre(id).querySelectorAll('circle, rect'), (shape) => shape.getAttribute('fill'));
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

  it('on a touch screen, the hints say tap and leave out the keyboard', () => {
    const hint = () => $('.order-panel p.muted, section p.muted')?.textContent?.replace(/\s+/g, ' ').trim();
    expect(hint()).toBe('Click a unit on the map, or Tab to it and press H, M, S, C, Z or R.');
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(pointer: coarse)', media: query }));
    try {
      remount();
      expect(hint()).toBe('Tap a unit on the map, or type the orders below.');
      click($('g.unit[data-unit="Rav"]'));
      click(button(/Move/));
      expect(pageText()).toContain('Move to where? Tap a highlighted province.');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
