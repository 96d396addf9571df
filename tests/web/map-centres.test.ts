/**
 * The supply-centre markers on the map: a click or a hover on one acts on the marker's own province, as on the
 * province itself, even where the marker is drawn over a neighbour (Athens' diamond over the Aegean, say).
 */
import { describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import drawing from '../../maps/diadochi-v/map.svg?drawing';
import MapView from '../../web/src/map/MapView.svelte';
import { position, start, variant } from './positions.ts';
import { sandboxPageEachTest } from './sandbox-dom.ts';

const { $, click, button, text } = sandboxPageEachTest();

/** The map alone, drawn with these props, for `check`; removed after. */
function withMap(props: Omit<Parameters<typeof MapView>[1], 'variant' | 'drawing'>, check: (host: HTMLElement) => void) {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const map = mount(MapView, { target: host, props: { variant, drawing, ...props } });
  flushSync();
  try {
    check(host);
  } finally {
    unmount(map);
    host.remove();
  }
}

/** A shape inside a centre's marker, where the pointer lands. */
const marker = (id: string) => $(`svg.dmap g.centre[data-centre="${id}"] :is(circle, rect)`);

describe('supply-centre markers on the map', () => {
  it('a click on a highlighted province’s marker picks that province, as a click on the province does', () => {
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Move/));
    expect($('#p-Cis')!.classList.contains('target')).toBe(true);
    click(marker('Cis'));
    expect(text()).toBe('A Rav - Cis');
  });

  it('a click on the marker of a province with a unit selects that unit', () => {
    click(marker('Rom'));
    expect($('g.unit[data-unit="Rom"]')!.classList.contains('selected')).toBe(true);
    expect($('#p-Rom')!.classList.contains('selected')).toBe(true);
  });

  it('a click on Athens’ build-centre diamond is a click on Athens, not on the Aegean it is drawn over', () => {
    click($('g.unit[data-unit="Kor"]'));
    click(button(/Move/));
    expect($('#p-Ath')!.classList.contains('target')).toBe(true);
    click(marker('Ath'));
    expect(text()).toBe('F Kor - Ath');
  });

  it('a click on a province’s name is a click on that province, wherever the name lies', async () => {
    // The names are drawn a frame or two after the map.
    await vi.waitFor(() => expect($('svg.dmap .labels text[data-province="Ath"]')).not.toBeNull());
    click($('g.unit[data-unit="Kor"]'));
    click(button(/Move/));
    click($('svg.dmap .labels text[data-province="Ath"]'));
    expect(text()).toBe('F Kor - Ath');
    // The impassable lands' names take no clicks.
    expect($('svg.dmap .labels text.k-impassable')!.hasAttribute('data-province')).toBe(false);
  });

  it('hovering a marker names its province in the tooltip', () => {
    const shape = marker('Ath')!;
    shape.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, pointerType: 'mouse', clientX: 10, clientY: 10 }));
    flushSync();
    expect($('.tooltip strong')?.textContent).toBe('Athens');
  });

  it('a click hides the tooltip over the province clicked until the pointer moves on to another', () => {
    const hoverOver = (id: string) => {
      $(`#p-${id}`)!.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, pointerType: 'mouse', clientX: 10, clientY: 10 }));
      flushSync();
    };
    hoverOver('Rav');
    expect($('.tooltip strong')?.textContent).toBe('Ravenna');
    $('#p-Rav')!.dispatchEvent(new PointerEvent('click', { bubbles: true, pointerType: 'mouse', clientX: 10, clientY: 10 }));
    flushSync();
    hoverOver('Rav');
    expect($('.tooltip')).toBeNull();
    hoverOver('Cis');
    expect($('.tooltip strong')?.textContent).not.toBe('Ravenna');
    hoverOver('Rav');
    expect($('.tooltip strong')?.textContent).toBe('Ravenna');
  });

  it("a click on a unit's counter hides the tooltip over it until the pointer moves on to another province", () => {
    const counter = () => $('svg.dmap g.unit[data-unit="Rav"]')!;
    const hover = (element: Element) => {
      element.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, pointerType: 'mouse', clientX: 10, clientY: 10 }));
      flushSync();
    };
    hover(counter());
    expect($('.tooltip strong')?.textContent).toBe('Ravenna');
    counter().dispatchEvent(new PointerEvent('click', { bubbles: true, pointerType: 'mouse', clientX: 10, clientY: 10 }));
    flushSync();
    expect($('.tooltip')).toBeNull();
    hover(counter());
    expect($('.tooltip')).toBeNull();
    hover($('#p-Cis')!);
    hover(counter());
    expect($('.tooltip strong')?.textContent).toBe('Ravenna');
  });

  it('keeps the markers out of the accessibility tree', () => {
    expect($('svg.dmap g.centres')!.getAttribute('aria-hidden')).toBe('true');
  });
});

describe('a build centre’s marker in an adjustment phase', () => {
  it('gives the click to its own province, the build site, as a click on the province would', () => {
    const onprovince = vi.fn();
    const builds = position(start.units, { season: 'winter', type: 'adjustment' });
    withMap({ position: builds, targets: new Set(['Ath', 'Car']), onprovince }, (host) => {
      for (const id of ['Ath', 'Car']) {
        const shape = host.querySelector(`svg.dmap g.centre[data-centre="${id}"] :is(circle, rect)`)!;
        shape.dispatchEvent(new MouseEvent('click', { bubbles: true }));
        expect(onprovince).toHaveBeenLastCalledWith(id);
        // A pointer over the marker of a province the click may pick.
        expect(shape.closest('g.centre')!.classList.contains('live')).toBe(true);
      }
      expect(onprovince).toHaveBeenCalledTimes(2);
      expect(host.querySelector('g.centre[data-centre="Rom"]')!.classList.contains('live')).toBe(false);
    });
  });
});

describe('build sites in an adjustment phase', () => {
  it('are ringed (a halo), so that they stand out from the other centres; a centre with a unit in it is not', () => {
    const builds = position(
      start.units.filter((u) => u.at !== 'Rom'),
      { season: 'winter', type: 'adjustment' },
    );
    withMap({ position: builds, selectable: new Set(['Rom', 'Nea']) }, (host) => {
      const site = (id: string) => host.querySelector(`svg.dmap g.centre[data-centre="${id}"]`)!.classList.contains('site');
      expect(site('Rom')).toBe(true);
      // Neapolis holds a fleet: a removal would be picked by its unit, not by a site.
      expect(site('Nea')).toBe(false);
      expect(site('Bru')).toBe(false);
    });
  });
});

describe('a retreat', () => {
  it('marks only the dislodged unit as the one to order, not the unit that dislodged it in the same province', () => {
    const retreat = position(
      [{ power: 'Rome', type: 'army', at: 'Ill' }],
      { season: 'fall', type: 'retreat' },
      {
        dislodged: [{ power: 'Macedonia', type: 'army', at: 'Ill', attackerFrom: 'Ven' }],
      },
    );
    withMap({ position: retreat, selectable: new Set(['Ill']), selectedProvince: 'Ill' }, (host) => {
      const units = Array.from(host.querySelectorAll('g.unit'));
      expect(units.map((u) => [u.getAttribute('aria-label'), u.classList.contains('selectable'), u.classList.contains('selected')])).toEqual([
        ['Roman army in Illyria', false, false],
        ['dislodged Macedonian army in Illyria', true, true],
      ]);
    });
  });
});
