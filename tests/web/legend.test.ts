/**
 * The legend draws each order's shape as the map draws it, so a player finds on the map what the legend shows; and
 * the shapes, all in the power's colour on the map, are told apart by their pattern and their ends, not by colour.
 */
import { getVariant, type Variant } from '../../shared/index.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import Legend from '../../web/src/results/Legend.svelte';
import mapView from '../../web/src/map/OrderGlyphs.svelte?raw';

/** The map's own styles for order shapes, from OrderGlyphs.svelte's style block: selector → declarations. */
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

/** A stroke as drawn: width, dashes, caps, opacity (SVG's defaults where nothing is said). */
function stroke(s: { width?: string | null; dasharray?: string | null; linecap?: string | null; opacity?: string | null }) {
  return {
    width: Number(s.width ?? 1),
    dasharray: (s.dasharray ?? 'none').split(/[\s,]+/).map(Number),
    linecap: s.linecap ?? 'butt',
    opacity: Number(s.opacity ?? 1),
  };
}

/**
 * The smallest gap the eye sees, in map units: a pixel where the map shows the whole of its 1600 units on a laptop's
 * 1030 pixels, the view it opens at (on a phone's first view a unit takes more pixels). A narrower gap runs the dashes
 * on either side of it together.
 */
const MIN_GAP = 1600 / 1030;

/**
 * The ink and the gaps of one period as the eye sees them: round or square caps lengthen every dash by the line's
 * width (half at each end) and shorten every gap as much, and a gap narrower than MIN_GAP joins its dashes into one.
 * An unbroken line is one endless dash. (An odd list of dashes repeats, as in SVG.)
 */
function seen({ width, dasharray, linecap }: ReturnType<typeof stroke>): { ink: number[]; gap: number[] } {
  if (dasharray.some(Number.isNaN) || dasharray.every((d) => d === 0)) return { ink: [Infinity], gap: [] };
  const cap = linecap === 'butt' ? 0 : width;
  const period = dasharray.length % 2 === 1 ? [...dasharray, ...dasharray] : dasharray;
  let pairs: [number, number][] = [];
  for (let i = 0; i < period.length; i += 2) pairs.push([period[i] + cap, period[i + 1] - cap]);
  for (let i = pairs.findIndex(([, g]) => g < MIN_GAP); i >= 0; i = pairs.findIndex(([, g]) => g < MIN_GAP)) {
    if (pairs.length === 1) return { ink: [Infinity], gap: [] };
    const next = (i + 1) % pairs.length;
    const joined: [number, number] = [pairs[i][0] + pairs[i][1] + pairs[next][0], pairs[next][1]];
    pairs = pairs.filter((_, j) => j !== i && j !== next);
    pairs.splice(Math.min(i, pairs.length), 0, joined);
  }
  return { ink: pairs.map(([d]) => d), gap: pairs.map(([, g]) => g) };
}

/**
 * Two patterns look alike when both are unbroken, or when they have as many dashes in a period and each dash and
 * each gap (longest with longest) is less than half as long again as the other's.
 */
function alike(a: ReturnType<typeof seen>, b: ReturnType<typeof seen>): boolean {
  if (a.ink.length !== b.ink.length) return false;
  const near = (x: number[], y: number[]) => {
    const [xs, ys] = [[...x].sort((p, q) => p - q), [...y].sort((p, q) => p - q)];
    return xs.every((v, i) => (v === Infinity && ys[i] === Infinity) || Math.max(v, ys[i]) / Math.min(v, ys[i]) < 1.5);
  };
  return near(a.ink, b.ink) && near(a.gap, b.gap);
}

let target: HTMLElement;
let legend: ReturnType<typeof mount>;
beforeEach(() => {
  target = document.createElement('div');
  document.body.appendChild(target);
  // As on the results, where the legend also shows a failed order.
  legend = mount(Legend, { target, props: { results: true } });
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
const attrs = (e: Element) => ({
  width: e.getAttribute('stroke-width'),
  dasharray: e.getAttribute('stroke-dasharray'),
  linecap: e.getAttribute('stroke-linecap'),
  opacity: e.getAttribute('stroke-opacity'),
});
/** The map scales its lines' widths with the zoom (`calc(2.6px * var(--s, 1))`); the legend draws them at scale 1. */
const atScaleOne = (width: string | undefined) => width?.replace(/^calc\(([\d.]+)px \* var\(--s, 1\)\)$/, '$1');
const css = (r: Record<string, string>) => ({
  width: atScaleOne(r['stroke-width']),
  dasharray: r['stroke-dasharray'],
  linecap: r['stroke-linecap'],
  opacity: r['stroke-opacity'],
});

/** How a line ends: in an arrowhead, a ring or a dot. */
type End = 'arrowhead' | 'ring' | 'dot';

/** Every order the legend draws as a line: its words, the map's rules for that line (later over earlier), how the map ends it. */
const LINES: { label: string; map: string[]; end: End }[] = [
  { label: 'Move', map: ['.shaft'], end: 'arrowhead' },
  { label: 'Move by convoy', map: ['.shaft', '.shaft.convoyed-move'], end: 'arrowhead' },
  { label: 'Failed (bounced, cut)', map: ['.shaft', '.failure .shaft'], end: 'arrowhead' },
  { label: 'Retreat', map: ['.shaft', '.shaft.retreat'], end: 'arrowhead' },
  { label: 'Support', map: ['.support-line'], end: 'dot' },
  { label: 'Convoy', map: ['.convoy-line'], end: 'ring' },
];

/** The markup the map draws order shapes with (OrderGlyphs.svelte), to read how each line ends. */
const glyphMarkup = mapView.slice(mapView.indexOf('<g class="glyphs"'), mapView.lastIndexOf('<style>'));

/** How the map ends a line, read from its markup and styles. */
function mapEnd(label: string): { end: End; r?: number } {
  if (['Move', 'Move by convoy', 'Failed (bounced, cut)', 'Retreat'].includes(label)) {
    expect(glyphMarkup).toMatch(/<line class="shaft \{g\.style\}"[^>]*marker-end="url\(#head-/);
    return { end: 'arrowhead' };
  }
  const cls = label === 'Support' ? 'support-end' : 'convoy-end';
  const r = Number(new RegExp(`<circle class="${cls}"[^>]*\\br="([\\d.]+)"`).exec(glyphMarkup)![1]);
  return { end: mapStyle(`.${cls}`).fill === 'none' ? 'ring' : 'dot', r };
}

/** How the legend ends an entry's line: its arrowhead, or the circle drawn with it. */
function legendEnd(label: string): { end: End; r?: number; at?: boolean } {
  const shapes = shapesOf(label);
  const line = shapes.find((e) => e.tagName === 'line')!;
  if (line.getAttribute('marker-end')) return { end: 'arrowhead' };
  const circle = shapes.find((e) => e.tagName === 'circle')!;
  return {
    end: circle.getAttribute('fill') === 'none' ? 'ring' : 'dot',
    r: Number(circle.getAttribute('r')),
    at: circle.getAttribute('cx') === line.getAttribute('x2') && circle.getAttribute('cy') === line.getAttribute('y2'),
  };
}
const lineOf = (label: string) => shapesOf(label).find((e) => e.tagName === 'line')!;

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
    expect(end.getAttribute('stroke')).toBe(
      shapesOf('Convoy')
        .find((e) => e.tagName === 'line')!
        .getAttribute('stroke'),
    );
  });

  it('differ by pattern, not only by colour: a retreat reads as dash and dot, a convoy as separate dots', () => {
    const retreat = seen(stroke(attrs(lineOf('Retreat'))));
    const convoy = seen(stroke(attrs(lineOf('Convoy'))));
    expect(retreat.ink).toHaveLength(2);
    expect(Math.min(...retreat.gap)).toBeGreaterThanOrEqual(MIN_GAP);
    expect(convoy.ink).toHaveLength(1);
    // A dot: no longer than the line is wide.
    expect(convoy.ink[0]).toBeLessThanOrEqual(stroke(attrs(lineOf('Convoy'))).width * 1.1);
    expect(convoy.gap[0]).toBeGreaterThanOrEqual(MIN_GAP);
  });
});

describe('every order the legend draws as a line', () => {
  it.each(LINES)('$label: has the stroke the map draws it with', ({ label, map }) => {
    const rule = mapStyle(...map);
    expect(rule['stroke-width']).toBeTruthy();
    expect(stroke(attrs(lineOf(label)))).toEqual(stroke(css(rule)));
  });

  it.each(LINES)('$label: ends as the map ends it', ({ label, end }) => {
    const map = mapEnd(label);
    const drawn = legendEnd(label);
    expect(map.end).toBe(end);
    expect(drawn.end).toBe(end);
    if (end === 'arrowhead') return;
    expect(drawn.r).toBe(map.r);
    expect(drawn.at).toBe(true);
  });

  it('a failed one is crossed as on the map', () => {
    const [, cross] = shapesOf('Failed (bounced, cut)');
    const map = mapStyle('.fail-mark');
    expect(cross.tagName).toBe('path');
    expect(cross.getAttribute('stroke-width')).toBe(map['stroke-width']);
    expect(cross.getAttribute('stroke-linecap')).toBe(map['stroke-linecap']);
    expect(glyphMarkup).toContain('<path class="fail-mark"');
  });

  it('failed, is drawn so whatever kind of move it was: the failure’s dashes come after the kinds’, as strong', () => {
    const at = (rule: string) => mapView.lastIndexOf(rule);
    expect(at('.failure .shaft')).toBeGreaterThan(at('.shaft.convoyed-move {'));
    expect(at('.failure .shaft')).toBeGreaterThan(at('.shaft.retreat {'));
    for (const kind of ['.shaft.convoyed-move', '.shaft.retreat']) {
      const drawn = stroke(css(mapStyle('.shaft', kind, '.failure .shaft')));
      expect({ ...drawn, width: 0 }).toEqual({ ...stroke(css(mapStyle('.shaft', '.failure .shaft'))), width: 0 });
    }
  });

  it('reads as the pattern it is meant to: a move unbroken, a move by convoy long dashes, a failed one short dashes', () => {
    const pattern = (label: string, source: 'map' | 'legend') =>
      seen(stroke(source === 'map' ? css(mapStyle(...LINES.find((l) => l.label === label)!.map)) : attrs(lineOf(label))));
    for (const source of ['map', 'legend'] as const) {
      expect(pattern('Move', source).ink).toEqual([Infinity]);
      const convoyed = pattern('Move by convoy', source);
      const failed = pattern('Failed (bounced, cut)', source);
      // One dash in a period, with a gap the eye sees (an unbroken line has none).
      for (const dashed of [convoyed, failed]) {
        expect(dashed.gap).toHaveLength(1);
        expect(dashed.gap[0]).toBeGreaterThanOrEqual(MIN_GAP);
      }
      expect(convoyed.ink[0]).toBeGreaterThanOrEqual(failed.ink[0] * 2);
    }
  });

  it.each(['map', 'legend'] as const)('no two look alike on the %s, by pattern and ends', (source) => {
    const looks = LINES.map(({ label, map, end }) => ({
      label,
      end,
      pattern: seen(stroke(source === 'map' ? css(mapStyle(...map)) : attrs(lineOf(label)))),
    }));
    const twins: string[] = [];
    for (const [i, a] of looks.entries())
      for (const b of looks.slice(i + 1)) if (a.end === b.end && alike(a.pattern, b.pattern)) twins.push(`${a.label} / ${b.label}`);
    expect(twins).toEqual([]);
  });
});

describe('seeing a stroke', () => {
  it('counts round caps into the dashes, and runs together dashes whose gaps they close', () => {
    expect(seen(stroke({ width: '2', dasharray: '4 3' }))).toEqual({ ink: [4], gap: [3] });
    // Round caps of a line 2 wide leave gaps of 1, narrower than MIN_GAP: the line reads as unbroken.
    expect(seen(stroke({ width: '2', dasharray: '4 3', linecap: 'round' }))).toEqual({ ink: [Infinity], gap: [] });
    expect(seen(stroke({ width: '1', dasharray: '4 3', linecap: 'round' }))).toEqual({ ink: [5], gap: [2] });
    // Dash and dot, whose short gaps round caps close: one long dash and one gap.
    expect(seen(stroke({ width: '2', dasharray: '6 3 1 5', linecap: 'round' }))).toEqual({ ink: [8 + 1 + 3], gap: [3] });
    expect(seen(stroke({ dasharray: '3' }))).toEqual({ ink: [3], gap: [3] });
    expect(seen(stroke({ dasharray: '2 2 6' }))).toEqual({ ink: [2, 6, 2], gap: [2, 2, 6] });
    expect(seen(stroke({}))).toEqual({ ink: [Infinity], gap: [] });
  });

  it('tells patterns apart by the number of dashes and by their lengths', () => {
    const look = (dasharray: string, linecap = 'butt') => seen(stroke({ width: '2.5', dasharray, linecap }));
    expect(alike(look('none'), look('5 2.5', 'round'))).toBe(true);
    expect(alike(look('9 4'), look('4 3'))).toBe(false);
    expect(alike(look('9 4'), look('7 3 2 3'))).toBe(false);
    expect(alike(look('4 3'), look('4.5 3.5'))).toBe(true);
    expect(alike(look('4 3'), look('none'))).toBe(false);
  });
});

describe("the legend of a variant's map", () => {
  const entries = (variant: Variant, results = false) => {
    const holder = document.createElement('div');
    document.body.appendChild(holder);
    const shown = mount(Legend, { target: holder, props: { results, variant } });
    flushSync();
    const words = Array.from(holder.querySelectorAll('text.entry'), (t) => t.textContent);
    const note = holder.querySelector('p')!.textContent!;
    const height = Number(holder.querySelector('svg')!.getAttribute('viewBox')!.split(' ')[3]);
    unmount(shown);
    holder.remove();
    return { words, note, height };
  };

  it("lists Diadochi V's own centres and orders, its triple named from its data", () => {
    const { words, note } = entries(getVariant('diadochi-v')!, true);
    for (const own of [
      'Double centre',
      'Triple (Rome, for Rome)',
      'Special build centre',
      'Rebel centre',
      'Destroyed centre',
      'Destroy (Z)',
      'Rebuild (R)',
      'Lent centre',
    ])
      expect(words).toContain(own);
    expect(words).toContain('Failed (bounced, cut)');
    expect(note).toContain('A lent centre is ringed');
  });

  it('lists for Standard only what its map can show: no doubles, rebels, destroyed or lent centres', () => {
    const { words, note, height } = entries(getVariant('standard')!);
    expect(words).toEqual([
      'Supply centre',
      'Army (power initial)',
      'Fleet',
      'Dislodged unit',
      'Legal target',
      'Move',
      'Support',
      'Convoy',
      'Retreat',
      'Hold',
      'Build',
      'Remove',
      'Build site (Winter)',
      'Move by convoy',
    ]);
    expect(note).not.toContain('lent');
    // Seven rows of two, not the twelve of the fullest legend.
    expect(height).toBe(7 * 24 + 8);
  });
});
