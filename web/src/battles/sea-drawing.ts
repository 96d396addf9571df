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

export function sideColour(sides: readonly string[], side: string): string {
  const i = sides.indexOf(side);
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
