/**
 * The map's drawn layers as markup: the drawing's own static layers, the province shapes and the supply-centre
 * markers. A Svelte block per province (about a hundred, each with its own effects) was the largest part of mounting
 * the board on a cold load, and the centre markers the next largest: each layer is one string of markup, parsed by
 * the browser in one go, and one effect keeps what changes up to date, writing only attributes whose value changed.
 */
import type { ProvinceShape } from './drawing.ts';
import { attr } from '../../../shared/drawing/centres.ts';

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
