/**
 * What the map says of its supply centres and provinces (the names screen readers hear, and the tooltip), and how a
 * centre's marker is drawn: pure functions of the position, tested without mounting the map.
 */
import { describe, expect, it } from 'vitest';
import { computeOverlay, describeCentre, describeProvince, powerStyles } from '../../shared/drawing/overlay.ts';
import { centreMarkup } from '../../shared/drawing/centres.ts';
import { start, variant } from './positions.ts';

const powers = new Map(powerStyles(variant).map((p) => [p.id, p]));
const overlay = computeOverlay(variant, { ...start, destroyed: ['Syr'], rebuilding: ['Syr'] });
const centre = (id: string) => overlay.centres.find((c) => c.province === id)!;

describe('a supply centre in words', () => {
  it('says whose it is, what it supplies, and what sets it apart', () => {
    expect(describeCentre(centre('Rom'), powers)).toBe('Roman triple supply centre (for Rome) (indestructible)');
    expect(describeCentre(centre('Alx'), powers)).toBe('Egyptian double supply centre (indestructible)');
    expect(describeCentre(centre('Nea'), powers)).toBe('Roman supply centre');
    expect(describeCentre(centre('Ath'), powers)).toBe('neutral special build centre');
    expect(describeCentre(centre('Arm'), powers)).toBe('neutral supply centre (rebel)');
    expect(describeCentre(centre('Syr'), powers)).toBe('neutral double supply centre (destroyed, being rebuilt)');
  });
});

describe('a province in words', () => {
  const nea = { name: 'Neapolis', centre: 'Roman supply centre', units: [], adjustment: true, target: false };

  it('offers a build site to the keyboard, and says what was ordered there', () => {
    expect(describeProvince({ ...nea, site: true, ordered: undefined })).toBe('Neapolis; Roman supply centre; a build site: B or Enter to build here');
    expect(describeProvince({ ...nea, site: true, ordered: 'Build F Nea' })).toBe(
      'Neapolis; Roman supply centre; a build site: B or Enter to build here; ordered: Build F Nea',
    );
  });

  it('leaves the order of a unit to the unit, which says it itself', () => {
    const rav = overlay.units.find((u) => u.province === 'Rav')!;
    expect(describeProvince({ name: 'Ravenna', centre: undefined, units: [rav], site: false, adjustment: false, ordered: 'A Rav - Cis', target: true })).toBe(
      'Ravenna; Roman army in Ravenna; a target for the order being given',
    );
  });

  it('outside an adjustment, says a province ordered as itself may be selected', () => {
    expect(describeProvince({ ...nea, adjustment: false, site: true, ordered: undefined })).toBe(
      'Neapolis; Roman supply centre; can be ordered: Enter to select',
    );
  });
});

describe("a centre's marker", () => {
  /** The marker drawn in an SVG, as the map's layer parses it. */
  function drawn(id: string): Element {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    const c = centre(id);
    svg.innerHTML = centreMarkup(c, c.owner ? powers.get(c.owner) : undefined);
    return svg.firstElementChild!;
  }

  it('crosses out a destroyed centre, with a dashed ring while it is rebuilt', () => {
    const syr = drawn('Syr');
    expect(syr.getAttribute('class')).toBe('centre double destroyed');
    expect(syr.querySelector('path')!.getAttribute('d')).toBe('M-4.5 -4.5 L4.5 4.5 M4.5 -4.5 L-4.5 4.5');
    expect(syr.querySelector('circle[r="7.5"]')!.getAttribute('stroke-dasharray')).toBe('2 1.5');
    expect(drawn('Alx').querySelector('path')).toBeNull();
  });

  it("draws a centre in its owner's colour and a neutral one in parchment, at its own province", () => {
    const nea = drawn('Nea');
    expect(nea.getAttribute('data-centre')).toBe('Nea');
    expect(nea.querySelector('circle:not(.halo)')!.getAttribute('fill')).toBe(powers.get('Rome')!.colour);
    expect(drawn('Arm').querySelector('circle[r="3.6"]')!.getAttribute('fill')).toBe('#fbf6e6');
  });
});
