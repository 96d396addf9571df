/**
 * A whole position as one standalone SVG document: the variant's drawing (maps/<variant>/map.svg) with the owners'
 * fills, the supply-centre markers, the unit counters and the orders' shapes over it, and a band below naming the
 * game, the phase and each power with its pattern and centres. The server sends it as the map image of a phase
 * (and rasterises it to PNG); nothing here decides what may be shown: the caller passes only what its viewer may see.
 *
 * The geometry is the board's (overlay.ts, glyphs.ts, patterns.ts, centres.ts); the look follows the board's
 * components (web/src/map/MapUnits.svelte, OrderGlyphs.svelte) at the whole-map zoom, written with presentation
 * attributes only, so any SVG renderer draws it alike (no CSS variables, calc() or filter functions).
 * Pure: strings in, a string out.
 */
import type { GameState, Variant } from '../index.ts';
import { attr, centreMarkup, text } from './centres.ts';
import type { Glyph } from './glyphs.ts';
import { computeOverlay, powerStyles, type PowerStyle, type UnitCounter } from './overlay.ts';
import { inkOn, patternMark, tint } from './patterns.ts';

export interface MapImageInput {
  /** The variant's drawing, as its map.svg file says it. */
  drawing: string;
  variant: Variant;
  /** The position drawn (units, owners, centres). */
  position: GameState;
  /** The orders' shapes drawn over it (none for a phase whose orders are not public). */
  glyphs: readonly Glyph[];
  /** The band's first line: the game's name and the phase, e.g. "Ides · Spring 240 BC, movement". */
  caption: string;
  /** Centres per power, for the band (the supply table's count). */
  centres: ReadonlyMap<string, number>;
}

/** The band under the map: its height in the drawing's units. */
export const BAND_HEIGHT = 44;
/** How much bigger than the drawing's own counters are drawn, as the board draws them on the whole map. */
const COUNTER_SCALE = 1.25;
/** Order marks (holds, builds…) at the whole-map zoom. */
const MARK_SCALE = 1;
/** Lines' widths at the whole-map zoom. */
const LINE_SCALE = 1.2;
const PAPER = '#fbf6e6';
const INK = '#1d1309';

/** The drawing's size, from its root element's viewBox (or width and height). */
export function drawingSize(drawing: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/.exec(drawing)?.[0];
  if (!root) throw new Error('map drawing: no <svg> element');
  const viewBox = /\sviewBox="([^"]+)"/.exec(root)?.[1];
  if (viewBox) {
    const [, , width, height] = viewBox
      .trim()
      .split(/[\s,]+/)
      .map(Number);
    if (width > 0 && height > 0) return { width, height };
  }
  const width = Number(/\swidth="([\d.]+)"/.exec(root)?.[1]);
  const height = Number(/\sheight="([\d.]+)"/.exec(root)?.[1]);
  if (width > 0 && height > 0) return { width, height };
  throw new Error('map drawing: its <svg> has neither a viewBox nor a width and height');
}

const n = (x: number) => (Math.round(x * 100) / 100).toString();

/** Per power: its fill pattern (tint and marks) and its arrowhead. */
function powerDefs(powers: readonly PowerStyle[]): string {
  return powers
    .map(
      (p) =>
        `<pattern id="own-${p.index}" patternUnits="userSpaceOnUse" width="8" height="8">` +
        `<rect width="8" height="8" fill="${attr(tint(p.colour, 0.42))}"/>` +
        `<path d="${patternMark(p.index)}" stroke="${attr(tint(p.colour, 0.85))}" stroke-width="1.3" stroke-linecap="round" fill="none"/></pattern>` +
        `<marker id="head-${p.index}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4.2" markerHeight="4.2" orient="auto">` +
        `<path d="M0 0 L10 5 L0 10 Z" fill="${attr(p.colour)}" stroke="${PAPER}" stroke-width="0.8"/></marker>`,
    )
    .join('');
}

const LIFT =
  '<filter id="lift" x="-30%" y="-30%" width="160%" height="160%"><feDropShadow dx="0" dy="0.8" stdDeviation="0.7" flood-color="#2a1d0c" flood-opacity="0.45"/></filter>';

/** A unit counter: the board's (MapUnits.svelte), not interactive. */
export function unitMarkup(u: UnitCounter, p: PowerStyle | undefined): string {
  const colour = attr(p?.colour ?? '#666666');
  const ink = inkOn(p?.colour ?? '#666666');
  const parts = [`<title>${text(u.label)}</title>`];
  if (u.dislodged) parts.push(`<circle r="11.5" fill="rgba(255,255,255,0.55)" stroke="#9b1c1c" stroke-width="1.4" stroke-dasharray="2.5 1.6"/>`);
  const edge = `stroke="${PAPER}" stroke-width="1.3" filter="url(#lift)"`;
  parts.push(
    u.type === 'army'
      ? `<rect x="-9" y="-7.5" width="18" height="15" rx="3" fill="${colour}" ${edge}/>`
      : `<path d="M-10 -6.5 H10 L7 6.5 H-7 Z" fill="${colour}" ${edge}/>`,
  );
  parts.push(
    `<text x="-2.6" y="0.4" fill="${ink}" font-family="Georgia, serif" font-weight="bold" font-size="10" text-anchor="middle" dominant-baseline="central">${u.type === 'army' ? 'A' : 'F'}</text>`,
    `<text x="${u.type === 'army' ? 4.9 : 4.2}" y="${u.type === 'army' ? 3.6 : 2.9}" fill="${ink}" opacity="0.9" font-family="sans-serif" font-weight="bold" font-size="7" text-anchor="middle" dominant-baseline="central">${text(p?.initial ?? '?')}</text>`,
  );
  if (u.dislodged)
    parts.push(`<path d="M9 -13 L5 -7 L8.5 -7 L5.5 -1" fill="none" stroke="#9b1c1c" stroke-width="1.6" stroke-linejoin="round" stroke-linecap="round"/>`);
  return `<g class="unit" data-unit="${attr(u.location)}" transform="translate(${n(u.at[0])} ${n(u.at[1])}) scale(${COUNTER_SCALE})">${parts.join('')}</g>`;
}

const line = (a: readonly [number, number], b: readonly [number, number], extra: string) =>
  `<line x1="${n(a[0])}" y1="${n(a[1])}" x2="${n(b[0])}" y2="${n(b[1])}" ${extra}/>`;

function cross(at: readonly [number, number], half: number): string {
  const [x, y] = at;
  return `<path d="M${n(x - half)} ${n(y - half)} L${n(x + half)} ${n(y + half)} M${n(x + half)} ${n(y - half)} L${n(x - half)} ${n(y + half)}" stroke="${PAPER}" stroke-width="3.6" stroke-linecap="round"/><path d="M${n(x - half)} ${n(y - half)} L${n(x + half)} ${n(y + half)} M${n(x + half)} ${n(y - half)} L${n(x - half)} ${n(y + half)}" stroke="${INK}" stroke-width="2" stroke-linecap="round"/>`;
}

/** An order's shape: the board's (OrderGlyphs.svelte): which order and how it went told by the line's pattern and ends, not by colour. */
export function glyphMarkup(g: Glyph, p: PowerStyle | undefined): string {
  const c = attr(p?.colour ?? '#333333');
  const failed = g.outcome === 'failure' || g.outcome === 'illegal';
  const parts: string[] = [`<title>${text(g.text)}</title>`];
  if (g.kind === 'arrow') {
    const width = (g.style === 'retreat' ? 2.4 : 2.6) * LINE_SCALE;
    const dash = failed ? '4 3' : g.style === 'convoyed-move' ? '9 4' : g.style === 'retreat' ? '7 3 2 3' : null;
    const cap = dash ? 'butt' : 'round';
    const dashing = dash ? ` stroke-dasharray="${dash}"` : '';
    // The paper edge the board draws with a drop shadow, as a wider line under the shaft.
    parts.push(line(g.from, g.to, `stroke="${PAPER}" stroke-width="${n(width + 1.6)}" stroke-linecap="${cap}"${dashing} stroke-opacity="0.9"`));
    parts.push(
      line(
        g.from,
        g.to,
        `stroke="${c}" stroke-width="${n(width)}" stroke-linecap="${cap}"${dashing}${failed ? ' stroke-opacity="0.75"' : ''} marker-end="url(#head-${p?.index ?? 0})"`,
      ),
    );
    if (failed) parts.push(cross([g.from[0] * 0.25 + g.to[0] * 0.75, g.from[1] * 0.25 + g.to[1] * 0.75], 3.5));
  } else if (g.kind === 'support') {
    parts.push(line(g.from, g.to, `stroke="${PAPER}" stroke-width="${n(1.6 * LINE_SCALE + 1.4)}" stroke-dasharray="3.5 2.2" stroke-opacity="0.8"`));
    parts.push(line(g.from, g.to, `stroke="${c}" stroke-width="${n(1.6 * LINE_SCALE)}" stroke-dasharray="3.5 2.2"`));
    parts.push(
      g.hold
        ? `<circle cx="${n(g.target[0])}" cy="${n(g.target[1])}" r="12" fill="none" stroke="${c}" stroke-width="1.6" stroke-dasharray="3.5 2.2"/>`
        : `<circle cx="${n(g.to[0])}" cy="${n(g.to[1])}" r="1.8" fill="${c}"/>`,
    );
    if (failed) parts.push(cross([(g.from[0] + g.to[0]) / 2, (g.from[1] + g.to[1]) / 2], 3));
  } else if (g.kind === 'convoy') {
    parts.push(line(g.from, g.to, `stroke="${c}" stroke-width="${n(1.8 * LINE_SCALE)}" stroke-dasharray="0.1 3.6" stroke-linecap="round"`));
    parts.push(`<circle cx="${n(g.to[0])}" cy="${n(g.to[1])}" r="2.4" fill="none" stroke="${c}" stroke-width="1.4"/>`);
    if (failed) parts.push(cross([(g.from[0] + g.to[0]) / 2, (g.from[1] + g.to[1]) / 2], 3));
  } else {
    parts.push(`<g transform="translate(${n(g.at[0])} ${n(g.at[1])}) scale(${MARK_SCALE})">${markShape(g, c)}</g>`);
  }
  const opacity = g.outcome === 'illegal' ? ' opacity="0.5"' : '';
  return `<g class="glyph ${g.kind} ${g.outcome}"${opacity}>${parts.join('')}</g>`;
}

function markShape(g: Extract<Glyph, { kind: 'mark' }>, c: string): string {
  switch (g.symbol) {
    case 'hold':
      return `<path d="M-5.4 -13 L5.4 -13 L13 -5.4 L13 5.4 L5.4 13 L-5.4 13 L-13 5.4 L-13 -5.4 Z" fill="none" stroke="${c}" stroke-width="2"/>`;
    case 'destroy':
      return `<path d="M0 -22 C5 -17 7 -13 4 -9 C7 -10 8 -12 8 -14 C11 -9 9 -4 3 -3 L-3 -3 C-9 -4 -10 -10 -6 -15 C-6 -12 -4 -10 -3 -10 C-5 -14 -3 -19 0 -22 Z" fill="#c2410c" stroke="${INK}" stroke-width="0.8"/>`;
    case 'rebuild':
      return `<rect x="-7" y="-21" width="14" height="8" rx="1" fill="#d6c49a" stroke="${INK}" stroke-width="0.8"/><path d="M-7 -17 H7 M-2.5 -21 V-17 M2.5 -17 V-13" stroke="${INK}" stroke-width="0.7"/>`;
    case 'build': {
      const ghost = `fill="rgba(251,246,230,0.7)" stroke="${c}" stroke-width="1.6" stroke-dasharray="2.5 1.5"`;
      const unit =
        g.unit === 'army'
          ? `<rect x="-9" y="-7.5" width="18" height="15" rx="3" ${ghost}/>`
          : g.unit === 'fleet'
            ? `<path d="M-10 -6.5 H10 L7 6.5 H-7 Z" ${ghost}/>`
            : '';
      return (
        `<circle r="15" fill="rgba(255,236,170,0.35)" stroke="${c}" stroke-width="2.4" stroke-dasharray="3 2"/>${unit}` +
        `<g transform="translate(11 -11)"><circle r="5.5" fill="${c}" stroke="${PAPER}" stroke-width="1"/><path d="M-3 0 H3 M0 -3 V3" stroke="${PAPER}" stroke-width="1.6"/></g>`
      );
    }
    case 'dislodged':
      return '<circle r="12.5" fill="none" stroke="#9b1c1c" stroke-width="2.2"/>';
    default:
      return `<path d="M-10 -10 L10 10 M10 -10 L-10 10" stroke="${PAPER}" stroke-width="4.2" stroke-linecap="round"/><path d="M-10 -10 L10 10 M10 -10 L-10 10" stroke="#9b1c1c" stroke-width="2.6" stroke-linecap="round"/>`;
  }
}

/** The band under the map: the caption, then each power's swatch (its pattern), name and centres. */
function bandMarkup(
  width: number,
  top: number,
  caption: string,
  powers: readonly PowerStyle[],
  names: ReadonlyMap<string, string>,
  centres: ReadonlyMap<string, number>,
): string {
  const parts = [
    `<rect x="0" y="${top}" width="${width}" height="${BAND_HEIGHT}" fill="${PAPER}"/>`,
    `<line x1="0" y1="${top + 0.5}" x2="${width}" y2="${top + 0.5}" stroke="#6b5a3e" stroke-width="1"/>`,
  ];
  // The powers from the right edge leftwards, each as wide as its words need (about 0.6 em a letter).
  let x = width - 12;
  for (const p of [...powers].reverse()) {
    const words = `${names.get(p.id) ?? p.id} ${centres.get(p.id) ?? 0}`;
    const w = 22 + words.length * 7.4;
    x -= w;
    parts.push(
      `<rect x="${n(x)}" y="${top + 13}" width="18" height="18" rx="2" fill="url(#own-${p.index})" stroke="${attr(p.colour)}" stroke-width="1.6"/>`,
      `<text x="${n(x + 24)}" y="${top + BAND_HEIGHT / 2}" fill="${INK}" font-family="sans-serif" font-size="12.5" dominant-baseline="central">${text(words)}</text>`,
    );
    x -= 8;
  }
  // The caption in the room left of them (bold 15-unit letters, about 9 units each), cut short with an ellipsis.
  const room = Math.max(12, Math.floor((x - 24) / 9));
  const shown = caption.length <= room ? caption : `${caption.slice(0, room - 1).trimEnd()}…`;
  parts.push(
    `<text x="12" y="${top + BAND_HEIGHT / 2}" fill="${INK}" font-family="Georgia, serif" font-weight="bold" font-size="15" dominant-baseline="central">${text(shown)}</text>`,
  );
  return `<g class="band">${parts.join('')}</g>`;
}

/** The whole image. Throws on a drawing that is not an SVG document with a size. */
export function composeMapImage(input: MapImageInput): string {
  const { drawing, variant, position, glyphs } = input;
  const { width, height } = drawingSize(drawing);
  const powers = powerStyles(variant);
  const byId = new Map(powers.map((p) => [p.id, p]));
  const overlay = computeOverlay(variant, position);

  // The root element: taller by the band, its own size in pixels.
  const rootTag = /<svg\b[^>]*>/.exec(drawing)![0];
  const total = height + BAND_HEIGHT;
  const root = rootTag
    .replace(/\s(viewBox|width|height)="[^"]*"/g, '')
    .replace(/^<svg\b/, `<svg viewBox="0 0 ${width} ${total}" width="${width}" height="${total}"`)
    .replace(/^<svg\b(?![^>]*\sxmlns=)/, '<svg xmlns="http://www.w3.org/2000/svg"');
  let body = drawing.slice(drawing.indexOf(rootTag) + rootTag.length, drawing.lastIndexOf('</svg>'));
  // The land and sea beyond the board (for the bands a screen of another shape shows around it) lie outside the
  // picture: left out rather than drawn unseen.
  body = body.replace(/<g id="surroundings">[\s\S]*?<\/g>/, '');

  // Owners' fills: a style on the province's own shape, which outranks the drawing's stylesheet (one pass over the drawing).
  const fillOf = new Map<string, number>();
  for (const [province, power] of overlay.fills) {
    const p = byId.get(power);
    if (p) fillOf.set(province, p.index);
  }
  body = body.replace(/<path id="p-([^"]+)" /g, (tag, province: string) => {
    const index = fillOf.get(province);
    return index === undefined ? tag : `${tag}style="fill:url(#own-${index})" `;
  });

  const centres = overlay.centres.map((c) => centreMarkup(c, c.owner ? byId.get(c.owner) : undefined, c.loan ? byId.get(c.loan.holder) : undefined)).join('');
  const centresLayer = `<g class="centres">${centres}</g>`;
  // Under the names, as on the board; a drawing without a names layer gets them on top.
  const labelsAt = body.indexOf('<g id="labels"');
  body = labelsAt >= 0 ? body.slice(0, labelsAt) + centresLayer + body.slice(labelsAt) : body + centresLayer;

  const names = new Map(variant.data.powers.map((p) => [p.id, p.id]));
  return [
    root,
    `<defs>${powerDefs(powers)}${LIFT}<style>.centre .halo{fill:none;stroke:none}.centre.destroyed circle,.centre.destroyed rect{opacity:0.55}</style></defs>`,
    body,
    `<g class="units">${overlay.units.map((u) => unitMarkup(u, byId.get(u.power))).join('')}</g>`,
    `<g class="glyphs">${glyphs.map((g) => glyphMarkup(g, byId.get(g.power))).join('')}</g>`,
    bandMarkup(width, height, input.caption, powers, names, input.centres),
    '</svg>',
  ].join('\n');
}
