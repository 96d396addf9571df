/**
 * Pure drawing of the hex sea: hex outlines, the view box that fits the whole board, each side's colour, and what
 * a ship's counter shows (type, crew, squadron letter, damage badges) and says to a screen reader.
 */
import { type Facing, type Hex, centre, toColumnRow } from '../../../shared/naval/hex.ts';
import type { Counter } from '../../../shared/naval/ruleset.ts';
import { type Sea, allHexes } from '../../../shared/naval/sea.ts';

/** A hex's circumradius in drawing units. */
export const HEX_SIZE = 10;
const HALF_HEIGHT = (HEX_SIZE * Math.sqrt(3)) / 2;
const MARGIN = 2;

export type HexKind = 'sea' | 'land' | 'reef';

/** A flat-topped hex's outline around its centre, as SVG points. */
export function hexPoints(h: Hex, size = HEX_SIZE): string {
  const c = centre(h, size);
  const out: string[] = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    out.push(`${round(c.x + size * Math.cos(a))},${round(c.y + size * Math.sin(a))}`);
  }
  return out.join(' ');
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The view box holding every hex of the board with a small margin. */
export function seaViewBox(sea: Pick<Sea, 'columns' | 'rows'>): { x: number; y: number; width: number; height: number } {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const h of allHexes(sea)) {
    const c = centre(h, HEX_SIZE);
    minX = Math.min(minX, c.x - HEX_SIZE);
    maxX = Math.max(maxX, c.x + HEX_SIZE);
    minY = Math.min(minY, c.y - HALF_HEIGHT);
    maxY = Math.max(maxY, c.y + HALF_HEIGHT);
  }
  return { x: round(minX - MARGIN), y: round(minY - MARGIN), width: round(maxX - minX + 2 * MARGIN), height: round(maxY - minY + 2 * MARGIN) };
}

/** Every hex of the board with what it is. */
export function seaHexes(sea: Sea): { hex: Hex; kind: HexKind }[] {
  const land = new Set(sea.land.map(key));
  const reefs = new Set(sea.reefs.map(key));
  return allHexes(sea).map((hex) => ({ hex, kind: land.has(key(hex)) ? 'land' : reefs.has(key(hex)) ? 'reef' : 'sea' }));
}

const key = (h: Hex) => `${h.q},${h.r}`;

/** The rotation, in degrees clockwise from north, of a ship facing `f` (hexside 0 is north, then clockwise). */
export const facingDegrees = (f: Facing): number => 60 * f;

/** Side colours, in the order the set-up lists the sides: dark enough for white letters, told apart without red–green alone. */
export const SIDE_COLOURS = ['#8c2f14', '#1f4e79', '#4b6b22', '#5d3a78'] as const;

/** A side as the boards know it: its id, and for a campaign game's battle its power's colour on the map. */
export type ColouredSide = string | { readonly id: string; readonly colour?: string };

/** The seas the sides are drawn on: the hex sea's (app.css --sea) and the measured table's. */
export const SEA_BACKGROUNDS = ['#c4d4d0', '#9fc3d6'] as const;

function luminance(colour: string): number {
  const c = Number.parseInt(colour.slice(1), 16);
  const [r, g, b] = [(c >> 16) & 255, (c >> 8) & 255, c & 255].map((x) => {
    const s = x / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours (1 to 21), as WCAG reckons it. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const hex2 = (n: number) => Math.round(n).toString(16).padStart(2, '0');

/** Darkened by `k` (1: as it is). */
function darkened(colour: string, k: number): string {
  const c = Number.parseInt(colour.slice(1), 16);
  return `#${[(c >> 16) & 255, (c >> 8) & 255, c & 255].map((x) => hex2(x * k)).join('')}`;
}

/**
 * A power's map colour as a ship is drawn in it: the same hue, darkened just enough that a counter's white letters
 * read on it (4.5:1) and its hull stands out from either sea (3:1). The map's colours are chosen for a pale map and
 * dark ink; a counter has white letters. `apartFrom`: a shade already on the board it must also differ from in
 * lightness (Rome's red and Carthage's crimson are told apart by hue alone otherwise).
 */
export function shipShade(colour: string, apartFrom: readonly string[] = []): string {
  for (let k = 1; k > 0; k -= 0.02) {
    const shade = darkened(colour, k);
    if (contrast(shade, '#ffffff') < 4.5 || SEA_BACKGROUNDS.some((sea) => contrast(shade, sea) < 3)) continue;
    if (apartFrom.every((other) => contrast(shade, other) >= SHADES_APART)) return shade;
  }
  return '#000000';
}

/** How far apart in lightness two sides' shades stand when their hues are close. */
const SHADES_APART = 1.4;

/** Whether two colours' hues lie within 40° of each other (or either is grey). */
function closeHues(a: string, b: string): boolean {
  const hue = (colour: string) => {
    const c = Number.parseInt(colour.slice(1), 16);
    const [r, g, b] = [(c >> 16) & 255, (c >> 8) & 255, c & 255].map((x) => x / 255);
    const max = Math.max(r, g, b);
    const d = max - Math.min(r, g, b);
    if (d === 0) return null;
    const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    return (h * 60 + 360) % 360;
  };
  const [x, y] = [hue(a), hue(b)];
  if (x === null || y === null) return true;
  const apart = Math.abs(x - y);
  return Math.min(apart, 360 - apart) < 40;
}

/**
 * The colour a side is drawn in: its power's map colour (shaded for the boards) when the battle was fought for a
 * campaign game's sea, else by its place in the set-up's order. A later side whose power's hue is close to an
 * earlier side's is shaded darker still, so the two read apart.
 */
export function sideColour(sides: readonly ColouredSide[], side: string): string {
  const i = sides.findIndex((s) => (typeof s === 'string' ? s : s.id) === side);
  const colourOf = (s: ColouredSide | undefined) => (s !== undefined && typeof s !== 'string' ? s.colour : undefined);
  const own = colourOf(sides[i]);
  if (own) {
    const near = sides
      .slice(0, i)
      .map(colourOf)
      .filter((c): c is string => !!c && closeHues(c, own));
    return shipShade(
      own,
      near.map((c) => shipShade(c)),
    );
  }
  return SIDE_COLOURS[Math.max(i, 0) % SIDE_COLOURS.length];
}

/** Hexes as printed maps number them: column and row from 01 ("0503"). */
export function hexLabel(h: Hex): string {
  const { col, row } = toColumnRow(h);
  return `${String(col + 1).padStart(2, '0')}${String(row + 1).padStart(2, '0')}`;
}

/** The few letters of a ship's type on its counter: "Trireme" → "Tri", "heptere" → "Hep". */
export function typeAbbreviation(type: string): string {
  const word = type.trim().split(/\s+/)[0] ?? '';
  return word.charAt(0).toUpperCase() + word.slice(1, 3).toLowerCase();
}

/** The squadron's letter: the name's last word when it is one letter or digit ("Squadron B" → "B"), else its first letter. */
export function squadronLetter(name: string | undefined): string | null {
  if (!name) return null;
  const last = name.trim().split(/\s+/).at(-1) ?? '';
  if (/^[A-Za-z0-9]$/.test(last)) return last.toUpperCase();
  return name.trim().charAt(0).toUpperCase() || null;
}

const CREWS = ['green', 'poor', 'average', 'expert', 'elite', 'veteran'];

/** The crew's quality from a counter's marks ("elite crew" or "green"), or null when the ruleset marks none (average in Classis). */
export function crewOf(marks: readonly string[]): string | null {
  for (const m of marks) {
    const word = m.replace(/ crew$/, '');
    if (CREWS.includes(word)) return word;
  }
  return null;
}

/** A damage or state badge on a counter: its glyph, and the mark it stands for (its tooltip). */
export interface Badge {
  readonly glyph: string;
  readonly kind: 'crippled' | 'grappled' | 'holes' | 'captured' | 'rammed' | 'damage' | 'raked' | 'command';
  readonly mark: string;
}

/**
 * The marks a counter shows as badges, most serious first (at most four fit): crippled, holes, damage, captured or
 * surrendered, grappled, rammed, raked oars, out of command. Every mark is also in the ship's name in words.
 */
export function badgesOf(marks: readonly string[]): Badge[] {
  const out: Badge[] = [];
  for (const mark of marks) {
    if (/^crippled/.test(mark)) out.push({ glyph: '✕', kind: 'crippled', mark });
    else if (/open holes?$/.test(mark) || /^\d+ holes?$/.test(mark)) out.push({ glyph: `${Number.parseInt(mark, 10) || ''}●`, kind: 'holes', mark });
    else if (/^damage /.test(mark)) out.push({ glyph: mark.replace(/^damage (\d+)\/.*$/, '$1'), kind: 'damage', mark });
    else if (/^(captured|surrendered|recaptured)/.test(mark)) out.push({ glyph: 'P', kind: 'captured', mark });
    else if (/^grappled/.test(mark)) out.push({ glyph: '#', kind: 'grappled', mark });
    else if (mark === 'rammed') out.push({ glyph: 'R', kind: 'rammed', mark });
    else if (/^oars raked/.test(mark)) out.push({ glyph: '≋', kind: 'raked', mark });
    else if (mark === 'out of command') out.push({ glyph: '?', kind: 'command', mark });
  }
  const order: Badge['kind'][] = ['crippled', 'holes', 'damage', 'captured', 'grappled', 'rammed', 'raked', 'command'];
  return out.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind)).slice(0, 4);
}

/** A counter in words for a screen reader and its tooltip: "Rhodes trireme Nike, facing south-east, at 0305; squadron A, flagship; crippled, grappled". */
export function counterWords(c: Counter, sideName: string, facingWords: string, hexName: (h: Hex) => string = hexLabel): string {
  const extra = [c.squadron ? (/^squadron\b/i.test(c.squadron) ? c.squadron : `squadron ${c.squadron}`) : '', c.flagship ? 'flagship' : '']
    .filter(Boolean)
    .join(', ');
  const marks = c.marks.filter((m) => m !== 'flagship');
  return `${sideName} ${c.type.toLowerCase()} ${c.name}${c.sunk ? ', sunk' : `, facing ${facingWords}`}, at ${hexName(c.hex)}${extra ? `; ${extra}` : ''}${marks.length ? `; ${marks.join(', ')}` : ''}`;
}
