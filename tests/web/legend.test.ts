/**
 * The legend draws each order's shape as the map draws it, so a player finds on the map what the legend shows; and
 * a retreat and a convoy, both in the power's colour on the map, are told apart by their pattern and their ends.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import Legend from '../../web/src/results/Legend.svelte';
import mapView from '../../web/src/map/MapView.svelte?raw';

/** The map's own styles for order shapes, from MapView.svelte's style block: selector → declarations. */
const mapStyles = (() => {
  const css = mapView.slice(mapView.lastIndexOf('<style>')).replace(/\/\*[\s\S]*?\*\//g, '');
  const rules = new Map<string, Record<string, string>>();
  for (const [, selectors, body] of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const declarations = Object.fromEntries(
      body
        .split(';')
        .map((d) => d.split(':').map((x) => x.trim()))
        .filter((d) => d.length === 2 && d[0]),
    );
    for (const selector of selectors.split(',')) rules.set(selector.trim(), { ...rules.get(selector.trim()), ...declarations });
  }
  return rules;
})();

/** What the map declares for a shape drawn with these classes, later rules over earlier ones. */
function mapStyle(...selectors: string[]): Record<string, string> {
  return Object.assign({}, ...selectors.map((s) => mapStyles.get(s) ?? {}));
}

/** A stroke as drawn: width, dashes, caps (SVG's defaults where nothing is said). */
function stroke(s: { width?: string | null; dasharray?: string | null; linecap?: string | null }) {
  return { width: Number(s.width ?? 1), dasharray: (s.dasharray ?? 'none').split(/[\s,]+/).map(Number), linecap: s.linecap ?? 'butt' };
}

/** The ink and the gaps as the eye sees them: round or square caps lengthen every dash by the line's width. */
function seen({ width, dasharray, linecap }: ReturnType<typeof stroke>): { ink: number; gap: number } {
  const [dash, gap] = dasharray;
  if (Number.isNaN(dash)) return { ink: Infinity, gap: 0 };
  const cap = linecap === 'butt' ? 0 : width;
  return { ink: dash + cap, gap: Math.max(0, gap - cap) };
}

let target: HTMLElement;
let legend: ReturnType<typeof mount>;
beforeEach(() => {
  target = document.createElement('div');
  document.body.appendChild(target);
  legend = mount(Legend, { target, props: {} });
  flushSync();
});
afterEach(() => {
  unmount(legend);
  target.remove();
});

/** The shapes drawn for an entry: the elements between the previous entry's words and its own. */
function shapesOf(label: string): Element[] {
  const text = Array.from(target.querySelectorAll('text.entry')).find((t) => t.textContent === label)!;
  const shapes: Element[] = [];
  for (let e = text.previousElementSibling; e && !e.matches('text.entry'); e = e.previousElementSibling) shapes.unshift(e);
  return shapes;
}
const attrs = (e: Element) => ({ width: e.getAttribute('stroke-width'), dasharray: e.getAttribute('stroke-dasharray'), linecap: e.getAttribute('stroke-linecap') });
const css = (r: Record<string, string>) => ({ width: r['stroke-width'], dasharray: r['stroke-dasharray'], linecap: r['stroke-linecap'] });

describe('the legend’s retreat and convoy', () => {
  it('are drawn with the strokes the map draws them with', () => {
    const retreat = shapesOf('Retreat').find((e) => e.tagName === 'line')!;
    const convoy = shapesOf('Convoy').find((e) => e.tagName === 'line')!;
    expect(mapStyle('.shaft.retreat')['stroke-dasharray']).toBeTruthy();
    expect(mapStyle('.convoy-line')['stroke-dasharray']).toBeTruthy();
    expect(stroke(attrs(retreat))).toEqual(stroke(css(mapStyle('.shaft', '.shaft.retreat'))));
    expect(stroke(attrs(convoy))).toEqual(stroke(css(mapStyle('.convoy-line'))));
  });

  it('end as on the map: a retreat in an arrowhead, a convoy in a ring (not a dot)', () => {
    const [retreat, ...after] = shapesOf('Retreat');
    expect(retreat.getAttribute('marker-end')).toBe('url(#legend-head)');
    expect(after).toEqual([]);
    const end = shapesOf('Convoy').find((e) => e.tagName === 'circle')!;
    const map = mapStyle('.convoy-end');
    expect(map.fill).toBe('none');
    expect(end.getAttribute('fill')).toBe(map.fill);
    expect(end.getAttribute('stroke-width')).toBe(map['stroke-width']);
    expect(end.getAttribute('stroke')).toBe(shapesOf('Convoy').find((e) => e.tagName === 'line')!.getAttribute('stroke'));
  });

  it('differ by pattern, not only by colour: a retreat reads as an unbroken line, a convoy as separate dots', () => {
    const retreat = seen(stroke(attrs(shapesOf('Retreat').find((e) => e.tagName === 'line')!)));
    const convoy = seen(stroke(attrs(shapesOf('Convoy').find((e) => e.tagName === 'line')!)));
    expect(retreat.gap).toBeLessThan(0.5);
    expect(convoy.gap).toBeGreaterThanOrEqual(1);
  });
});
