/**
 * The map's drawn layers as markup: the drawing's own static layers, the province shapes and the supply-centre
 * markers. A Svelte block per province (about a hundred, each with its own effects) was the largest part of mounting
 * the board on a cold load, and the centre markers the next largest: each layer is one string of markup, parsed by
 * the browser in one go, and one effect keeps what changes up to date, writing only attributes whose value changed.
 */
import type { ProvinceShape } from './drawing.ts';
import type { CentreMarker, PowerStyle } from '../../../shared/drawing/overlay.ts';
import { inkOn } from '../../../shared/drawing/patterns.ts';

/** A value as an attribute's, between double quotes. */
export function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Puts markup (the drawing's own static layers) into an element: parsed as SVG by the browser. */
export function markup(content: string) {
  return (node: SVGElement) => {
    node.innerHTML = content;
  };
}

/** How a province's shape is drawn, and what it says, for the player's choices now. */
export interface ProvinceLook {
  /** A legal target of the order being given. */
  target: boolean;
  /** Something the player may order stands there. */
  selectable: boolean;
  selected: boolean;
  /** A build site: the province itself is what is ordered (and focused). */
  site: boolean;
  /** Its owner's fill, if any. */
  style: string | null;
  /** Its name for screen readers. */
  label: string;
}

/** The province shapes as one string of markup. */
export function provinceMarkup(provinces: readonly ProvinceShape[]): string {
  return provinces
    .map((p) => `<path id="p-${attr(p.id)}" data-province="${attr(p.id)}" class="province ${attr(p.kind)}" fill-rule="evenodd" d="${attr(p.d)}"></path>`)
    .join('');
}

/**
 * The province shapes' layer: their markup, and one effect keeping what changes (owner's fill, target, selection,
 * role, focus, name for screen readers) up to date.
 */
export function provinceLayer(shapesMarkup: () => string, look: (province: string) => ProvinceLook) {
  return (node: SVGGElement) => {
    node.innerHTML = shapesMarkup();
    const shapes = Array.from(node.children, (shape) => ({ id: shape.getAttribute('data-province')!, shape, written: new Map<string, string | null>() }));
    $effect(() => {
      for (const { id, shape, written } of shapes) {
        const { target, selectable, selected, site, style, label } = look(id);
        shape.classList.toggle('target', target);
        shape.classList.toggle('selectable', selectable);
        shape.classList.toggle('selected', selected);
        writeAttribute(shape, written, 'style', style);
        // Only legal targets and build sites take focus (role button then); the rest, a unit's province included
        // (the unit takes the focus), are named images for screen readers.
        writeAttribute(shape, written, 'role', target || site ? 'button' : 'img');
        writeAttribute(shape, written, 'tabindex', target || site ? '0' : null);
        writeAttribute(shape, written, 'aria-label', label);
        // A site is what is ordered there: after a keyboard order the page puts the focus back on it, as on a unit.
        writeAttribute(shape, written, 'data-unit', site ? id : null);
      }
    });
  };
}

/** Sets an attribute (removes it for null) unless `written` says it already has that value. */
function writeAttribute(element: Element, written: Map<string, string | null>, name: string, value: string | null) {
  if (written.get(name) === value) return;
  written.set(name, value);
  if (value === null) element.removeAttribute(name);
  else element.setAttribute(name, value);
}

/** Outside the marker and its rebel halo: the ring of a lent centre, by kind. */
const LOAN_RING: Record<CentreMarker['kind'], number> = { single: 6.6, double: 8.2, triple: 8.9, build: 6.6 };

/**
 * A lent centre's marks: a ring in the colour of the power its supply goes to (edged in ink, so a pale colour shows
 * on a pale province), and a small chain link above right, so a loan is told without the colour.
 */
export function loanMarkup(kind: CentreMarker['kind'], holder: PowerStyle | undefined): string {
  const r = LOAN_RING[kind];
  const colour = attr(holder?.colour ?? '#fbf6e6');
  const link = '<rect x="-4.4" y="-1.7" width="5.4" height="3.4" rx="1.7"></rect><rect x="-1" y="-1.7" width="5.4" height="3.4" rx="1.7"></rect>';
  return (
    `<g class="loan"><circle r="${r}" fill="none" stroke="#1d1309" stroke-width="2.8"></circle>` +
    `<circle r="${r}" fill="none" stroke="${colour}" stroke-width="1.6"></circle>` +
    `<g transform="translate(${(r * 0.78).toFixed(1)} ${(-r * 0.78).toFixed(1)}) rotate(-45)" fill="none">` +
    `<g stroke="#fbf6e6" stroke-width="2.4">${link}</g><g stroke="#1d1309" stroke-width="1">${link}</g></g></g>`
  );
}

/**
 * A supply-centre marker as markup. Build centres are diamonds; supply centres rings by kind (one, two or three), a
 * dashed halo for a rebel centre, a dot for one that cannot be destroyed, a cross for a destroyed one (dashed ring
 * while rebuilt); in the owner's colour. A lent centre is ringed in its borrower's colour with a chain link.
 */
export function centreMarkup(c: CentreMarker, owner: PowerStyle | undefined, holder?: PowerStyle): string {
  const fill = attr(owner ? owner.colour : '#fbf6e6');
  const ink = attr(owner ? inkOn(owner.colour) : '#2a1d0c');
  // A halo shown only on a site a click may build on (class site, below): the markers alone look like any other centre.
  const parts: string[] = ['<circle class="halo" r="10"></circle>'];
  if (c.kind === 'build') {
    parts.push(`<rect x="-3.6" y="-3.6" width="7.2" height="7.2" transform="rotate(45)" fill="${fill}" stroke="#2a1d0c" stroke-width="0.9"></rect>`);
  } else {
    if (c.rebel)
      parts.push(`<circle r="${c.kind === 'single' ? 5.6 : 7.2}" fill="none" stroke="#7a2a12" stroke-width="0.8" stroke-dasharray="1.4 1.2"></circle>`);
    if (c.kind === 'triple') {
      parts.push(
        `<circle r="6.2" fill="${fill}" stroke="#2a1d0c" stroke-width="0.8"></circle>`,
        '<circle r="4.4" fill="none" stroke="#fbf6e6" stroke-width="0.8"></circle>',
        '<circle r="2.6" fill="none" stroke="#2a1d0c" stroke-width="0.8"></circle>',
      );
    } else if (c.kind === 'double') {
      parts.push(
        `<circle r="5.2" fill="${fill}" stroke="#2a1d0c" stroke-width="0.8"></circle>`,
        `<circle r="2.7" fill="none" stroke="${ink}" stroke-width="0.9"></circle>`,
      );
    } else {
      parts.push(`<circle r="3.6" fill="${fill}" stroke="#2a1d0c" stroke-width="0.9"></circle>`);
    }
    if (c.indestructible) parts.push(`<circle r="1" fill="${ink}"></circle>`);
  }
  if (c.destroyed) {
    parts.push('<path d="M-4.5 -4.5 L4.5 4.5 M4.5 -4.5 L-4.5 4.5" stroke="#1d1309" stroke-width="1.6" stroke-linecap="round"></path>');
    if (c.rebuilding) parts.push('<circle r="7.5" fill="none" stroke="#1d1309" stroke-width="0.8" stroke-dasharray="2 1.5"></circle>');
  }
  if (c.loan) parts.push(loanMarkup(c.kind, holder));
  const classes = `centre ${attr(c.kind)}${c.destroyed ? ' destroyed' : ''}${c.loan ? ' lent' : ''}`;
  return `<g transform="translate(${c.at[0]} ${c.at[1]})" class="${classes}" data-centre="${attr(c.province)}">${parts.join('')}</g>`;
}

/**
 * The centre markers' layer: their markup, redrawn whole when the position changes, and one effect marking the
 * markers of provinces a click may pick (`live`: a pointer over them, as over the province), of build sites (`site`:
 * their halo shown) and of centres that changed hands in the outcome shown (`changed`), and placing each beside its
 * province's name as written at the zoom shown (`at`; null keeps the marker's own place).
 */
export function centreLayer(
  markersMarkup: () => string,
  look: (province: string) => { live: boolean; site: boolean; changed: boolean; at: readonly [number, number] | null },
) {
  return (node: SVGGElement) => {
    node.innerHTML = markersMarkup();
    const markers = Array.from(node.children, (marker) => ({ id: marker.getAttribute('data-centre')!, marker, written: new Map<string, string | null>() }));
    $effect(() => {
      for (const { id, marker, written } of markers) {
        const { live, site, changed, at } = look(id);
        marker.classList.toggle('live', live);
        marker.classList.toggle('site', site);
        marker.classList.toggle('changed', changed);
        if (at) writeAttribute(marker, written, 'transform', `translate(${at[0].toFixed(1)} ${at[1].toFixed(1)})`);
      }
    });
  };
}
