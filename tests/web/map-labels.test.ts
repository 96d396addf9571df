/**
 * The provinces' names on the map: full names where they fit in their province at the size drawn (more of them as
 * the player zooms in), abbreviations elsewhere, and room left for a centre's marker beside the name.
 */
import { describe, expect, it } from 'vitest';
import drawing from '../../maps/diadochi-v/map.svg?drawing';
import { labelRooms, textWidth, writtenLabel } from '../../web/src/map/label-room.ts';
import { variant } from './positions.ts';

const names = new Map(variant.data.provinces.map((p) => [p.id, p.name]));
const centres = new Set(variant.data.provinces.filter((p) => p.centre || p.buildCentre).map((p) => p.id));
const rooms = labelRooms(drawing.provinces, drawing.labels);
const fullNames = (size: number) =>
  drawing.labels.filter((l) => writtenLabel(l.text, names.get(l.id) ?? l.text, rooms.get(l.id), size, centres.has(l.id)).text !== l.text).map((l) => l.id);

describe('names on the map', () => {
  it('finds, for nearly every name, the room its province gives it on its line', () => {
    expect(rooms.size).toBeGreaterThan(drawing.labels.length * 0.9);
    // A square around the point: as far left as right.
    const square = labelRooms([{ id: 'Sq', kind: 'land', d: 'M0 0L100 0L100 50L0 50Z' }], [{ id: 'Sq', kind: 'land', x: 30, y: 25, text: 'SQU' }]);
    expect(square.get('Sq')).toEqual({ left: 30, right: 70 });
    // A point in the hole of a ring has no room (even-odd).
    const ring = labelRooms(
      [{ id: 'R', kind: 'land', d: 'M0 0L100 0L100 100L0 100ZM40 40L60 40L60 60L40 60Z' }],
      [{ id: 'R', kind: 'land', x: 50, y: 50, text: 'RRR' }],
    );
    expect(ring.has('R')).toBe(false);
  });

  it('writes a full name only where it fits, with room for a centre marker on its right', () => {
    const room = { left: 40, right: 40 };
    const wide = textWidth('Macedonia', 10.5);
    expect(wide).toBeGreaterThan(50);
    expect(writtenLabel('Mac', 'Macedonia', room, 10.5, false).text).toBe('Macedonia');
    expect(writtenLabel('Mac', 'Macedonia', room, 10.5, true).text).toBe('Mac');
    expect(writtenLabel('Mac', 'Macedonia', { left: 20, right: 80 }, 10.5, false).text).toBe('Mac');
    expect(writtenLabel('Mac', 'Macedonia', undefined, 10.5, false).text).toBe('Mac');
  });

  it('shows many full names at a laptop’s size, and more as the names grow smaller relative to the map (zoomed in)', () => {
    const far = fullNames(16);
    const near = fullNames(10.5);
    expect(far.length).toBeGreaterThan(20);
    expect(near.length).toBeGreaterThan(far.length);
    for (const id of far) expect(near).toContain(id);
  });
});
