/**
 * Province names as the map writes them: the full name where it fits inside its province at the size it is drawn,
 * else the drawing's three-letter abbreviation, and where a supply centre's marker then goes (just right of the
 * name). Pure geometry on the drawing's shapes, so it is tested without a browser.
 */
import type { MapDrawing, MapLabel, ProvinceShape } from './drawing.ts';

/** How far a province reaches left and right of its name's point, along the line the name is written on. */
export interface Room {
  left: number;
  right: number;
}

/** Average advance of a letter, in ems: bold Georgia in mixed case, and in capitals (the abbreviations). */
const EM_MIXED = 0.6;
const EM_CAPITALS = 0.72;
/** Space between a name and its centre's marker, and the marker's own half-width beyond it. */
export const MARKER_GAP = 7;
const MARKER_ROOM = MARKER_GAP + 7;

/** The x where the horizontal line y crosses the polygons' edges (the shapes are M/L/Z paths with absolute points). */
function crossings(d: string, y: number): number[] {
  const xs: number[] = [];
  for (const ring of d.split(/[Zz]/)) {
    const numbers = ring.match(/-?\d*\.?\d+(?:e-?\d+)?/g);
    if (!numbers || numbers.length < 6) continue;
    const n = numbers.length / 2;
    for (let i = 0; i < n; i++) {
      const x1 = Number(numbers[2 * i]);
      const y1 = Number(numbers[2 * i + 1]);
      const j = (i + 1) % n;
      const x2 = Number(numbers[2 * j]);
      const y2 = Number(numbers[2 * j + 1]);
      // Half-open, so a vertex on the line counts once.
      if (y1 <= y !== y2 <= y) xs.push(x1 + ((y - y1) * (x2 - x1)) / (y2 - y1));
    }
  }
  return xs.sort((a, b) => a - b);
}

/** The room around each name's point inside its own province (none for a name outside its shape). */
export function labelRooms(provinces: readonly ProvinceShape[], labels: readonly MapLabel[]): Map<string, Room> {
  const shapes = new Map(provinces.map((p) => [p.id, p.d]));
  const rooms = new Map<string, Room>();
  for (const l of labels) {
    const d = shapes.get(l.id);
    if (!d) continue;
    const xs = crossings(d, l.y);
    // Inside between the 2k-th and (2k+1)-th crossings (even-odd, as the shapes are filled).
    for (let i = 0; i + 1 < xs.length; i += 2) {
      if (xs[i] <= l.x && l.x <= xs[i + 1]) {
        rooms.set(l.id, { left: l.x - xs[i], right: xs[i + 1] - l.x });
        break;
      }
    }
  }
  return rooms;
}

const cache = new WeakMap<MapDrawing, Map<string, Room>>();
/** labelRooms of a drawing, worked out once. */
export function roomsOf(drawing: MapDrawing): Map<string, Room> {
  let rooms = cache.get(drawing);
  if (!rooms) cache.set(drawing, (rooms = labelRooms(drawing.provinces, drawing.labels)));
  return rooms;
}

/** The width of a text in bold Georgia at `size` (an estimate: the page lays nothing out to measure it). */
export function textWidth(text: string, size: number): number {
  const em = text === text.toUpperCase() ? EM_CAPITALS : EM_MIXED;
  return text.length * em * size;
}

export interface WrittenLabel {
  text: string;
  /** Its estimated width, in the drawing's units. */
  width: number;
}

/**
 * The full name when it fits in the province, centred on the name's point, with room for the centre's marker on its
 * right when it has one; else the abbreviation.
 */
export function writtenLabel(abbreviation: string, name: string, room: Room | undefined, size: number, centre: boolean): WrittenLabel {
  const full = textWidth(name, size);
  if (room && full / 2 <= room.left && full / 2 + (centre ? MARKER_ROOM : 0) <= room.right) return { text: name, width: full };
  return { text: abbreviation, width: textWidth(abbreviation, size) };
}
