/**
 * Supply-centre markers as SVG markup, for the board (web/src/map/MapView.svelte and its layers) and the
 * server's map images (map-image.ts). Pure strings: no DOM, so they are drawn alike in a browser and in Node.
 */
import type { CentreMarker, PowerStyle } from './overlay.ts';
import { inkOn } from './patterns.ts';

/** A value as an attribute's, between double quotes. */
export function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Text as an element's content. */
export function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
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
  const parts: string[] = ['<circle class="halo" r="10" fill="none"></circle>'];
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
