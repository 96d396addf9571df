/**
 * A contested sea's battle mark on the Diplomacy map stands in its sea and hides nothing: for every sea of
 * Diadochi V, with a counter on every province's unit point (a board full to the brim) and every name written as
 * the map writes it, at the sizes of a laptop at 100 % and of a phone (names and counters at their largest), the
 * mark's box meets no counter's box and no name's box; after the results, the moves into the sea and the fleet that
 * won it are clear of it too.
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import drawing from '../../maps/diadochi-v/map.svg?drawing';
import type { Glyph } from '../../shared/drawing/glyphs.ts';
import { DISLODGED_OFFSET, locationPoint } from '../../shared/drawing/overlay.ts';
import { labelRooms, MARKER_GAP, writtenLabel } from '../../web/src/map/label-room.ts';
import SeaBattleMarks from '../../web/src/map/SeaBattleMarks.svelte';
import {
  type MarkScene,
  type UnitOnMap,
  depthInside,
  markBox,
  MARK_RADIUS,
  nameBox,
  overlaps,
  seaMarkPlace,
  segmentDistance,
  unitBox,
} from '../../web/src/map/sea-mark-place.ts';
import { variant } from './positions.ts';

const seas = variant.data.provinces.filter((p) => p.kind === 'sea').map((p) => p.id);
const names = new Map(variant.data.provinces.map((p) => [p.id, p.name]));
const centres = new Set(variant.data.provinces.filter((p) => p.centre || p.buildCentre).map((p) => p.id));
const rooms = labelRooms(drawing.provinces, drawing.labels);

/** The names as MapView writes them at this size and counter scale. */
function writtenNames(size: number, scale: number) {
  const drop = (size - 10.5) / 2 + 7.5 * (scale - 1.25);
  return new Map(
    drawing.labels.map((l) => {
      const w = writtenLabel(l.text, names.get(l.id) ?? l.text, rooms.get(l.id), size, centres.has(l.id));
      return [l.id, { ...w, x: l.x, y: l.y + drop, markerX: l.x + w.width / 2 + MARKER_GAP }] as const;
    }),
  );
}

/** A counter on every province's unit point. */
const everyUnit: UnitOnMap[] = variant.data.provinces.flatMap((p) => {
  const at = locationPoint(variant, p.id);
  return at ? [{ at, dislodged: false }] : [];
});

/** Laptop at 100 % (the smallest counters and names), in between, and a phone (the largest). */
const SIZES = [
  { scale: 1.25, labelSize: 10.5, glyphScale: 1 },
  { scale: 1.4, labelSize: 13, glyphScale: 1.4 },
  { scale: 1.6, labelSize: 16, glyphScale: 1.8 },
];

function scene(size: (typeof SIZES)[number], units: UnitOnMap[], glyphs: Glyph[] = []): MarkScene {
  return {
    provinces: drawing.provinces,
    unitPoint: (p) => locationPoint(variant, p),
    units,
    names: [...writtenNames(size.labelSize, size.scale).values()],
    glyphs,
    ...size,
  };
}

describe('the battle mark’s place', () => {
  it('Diadochi V has its seas drawn, each with a unit point', () => {
    expect(seas.length).toBeGreaterThan(15);
    for (const sea of seas) expect(locationPoint(variant, sea), sea).not.toBeNull();
  });

  for (const size of SIZES)
    it(`in every sea at counters ×${size.scale} and names of ${size.labelSize}, the sea's own fleet drawn: in the sea, on no counter and no name`, () => {
      const problems: string[] = [];
      const outside: string[] = [];
      for (const sea of seas) {
        const units = [{ at: locationPoint(variant, sea)!, dislodged: false }];
        const s = scene(size, units);
        const at = seaMarkPlace(sea, s)!;
        const box = markBox(at, size.scale);
        // Its middle in the sea; a small bay whose own name and fleet fill it (three at most): just beside its fleet.
        const home = units[0].at;
        if (depthInside(drawing.provinces.find((p) => p.id === sea)!, at) < 0) {
          outside.push(sea);
          if (Math.hypot(at[0] - home[0], at[1] - home[1]) > 60 * size.scale) problems.push(`${sea}: far from its fleet`);
        }
        if (overlaps(box, unitBox(units[0], size.scale))) problems.push(`${sea}: over its fleet`);
        for (const n of s.names) if (overlaps(box, nameBox(n, size.labelSize))) problems.push(`${sea}: over a name at ${n.x},${n.y}`);
      }
      expect(problems).toEqual([]);
      expect(outside.length, outside.join(', ')).toBeLessThanOrEqual(3);
    });

  for (const size of SIZES)
    it(`in every sea at counters ×${size.scale} and names of ${size.labelSize}: a counter on every province: on no counter and no name`, () => {
      const s = scene(size, everyUnit);
      const problems: string[] = [];
      for (const sea of seas) {
        const at = seaMarkPlace(sea, s)!;
        const box = markBox(at, size.scale);
        const shape = drawing.provinces.find((p) => p.id === sea)!;
        // In the sea, or where every coast around a small sea is held, just beside its unit.
        const home = locationPoint(variant, sea)!;
        if (depthInside(shape, at) < 0 && Math.hypot(at[0] - home[0], at[1] - home[1]) > 60 * size.scale) problems.push(`${sea}: far from its sea`);
        for (const u of s.units) if (overlaps(box, unitBox(u, size.scale))) problems.push(`${sea}: over the counter at ${u.at.join(',')}`);
        for (const n of s.names) if (overlaps(box, nameBox(n, size.labelSize))) problems.push(`${sea}: over a name at ${n.x},${n.y}`);
      }
      expect(problems).toEqual([]);
    });

  it('after the results of the Ionian Sea: clear of the fleet that won it, the one dislodged, and both moves into it', () => {
    const ion = locationPoint(variant, 'ION')!;
    const nea = locationPoint(variant, 'Nea')!;
    const kor = locationPoint(variant, 'Kor')!;
    const glyphs: Glyph[] = [
      { kind: 'arrow', style: 'move', from: nea, to: ion, power: 'Rome', outcome: 'success', ref: 0, text: 'F Nea - ION' },
      { kind: 'arrow', style: 'move', from: kor, to: ion, power: 'Macedonia', outcome: 'failure', ref: 1, text: 'F Kor - ION' },
      {
        kind: 'support',
        from: locationPoint(variant, 'Syr')!,
        to: ion,
        target: ion,
        hold: true,
        power: 'Rome',
        outcome: 'success',
        ref: 2,
        text: 'F Syr S F ION',
      },
    ];
    for (const size of SIZES) {
      const units = [...everyUnit, { at: [ion[0] + DISLODGED_OFFSET[0], ion[1] + DISLODGED_OFFSET[1]] as const, dislodged: true }];
      const at = seaMarkPlace('ION', scene(size, units, glyphs))!;
      const box = markBox(at, size.scale);
      for (const u of units) expect(overlaps(box, unitBox(u, size.scale))).toBe(false);
      const r = MARK_RADIUS * size.scale;
      expect(segmentDistance(at, nea, ion)).toBeGreaterThan(r);
      expect(segmentDistance(at, kor, ion)).toBeGreaterThan(r);
      // The old place, just above the name, stood on the winner's fleet at 100 %: this one does not.
      expect(overlaps(box, unitBox({ at: ion, dislodged: false }, size.scale))).toBe(false);
    }
  });
});

describe('the marks on the map', () => {
  let target: HTMLElement;
  let component: ReturnType<typeof mount> | null = null;
  afterEach(() => {
    if (component) unmount(component);
    target.remove();
  });

  it('draws each sea’s mark where its place is, the same at any zoom as the geometry says', () => {
    target = document.createElement('div');
    document.body.appendChild(target);
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    target.appendChild(svg);
    const size = SIZES[0];
    const written = writtenNames(size.labelSize, size.scale);
    component = mount(SeaBattleMarks, {
      target: svg,
      props: {
        marks: [{ sea: 'ION', status: 'decided', text: 'Ionian Sea: Rome won' }],
        variant,
        drawing,
        units: [{ at: locationPoint(variant, 'ION')!, dislodged: false }],
        glyphs: [],
        names: written,
        ...size,
        dragged: () => false,
      },
    });
    flushSync();
    const mark = target.querySelector('g.sea-mark[data-sea="ION"]')!;
    const [x, y] = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(mark.getAttribute('transform')!)!.slice(1).map(Number);
    const expected = seaMarkPlace('ION', { ...scene(size, [{ at: locationPoint(variant, 'ION')!, dislodged: false }]) })!;
    expect([x, y]).toEqual([expected[0], expected[1]]);
    expect(overlaps(markBox([x, y], size.scale), unitBox({ at: locationPoint(variant, 'ION')!, dislodged: false }, size.scale))).toBe(false);
  });
});
