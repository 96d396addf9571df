/**
 * A Winter's builds on the map: before the outcome (orders, or the results' Before) the counter to come is drawn in
 * outline in its ring; once the outcome is shown the built counter stands there, and the mark rings it without
 * veiling it under that pale outline (the new units were washed out in the three-year play-through).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, unmount } from 'svelte';
import OrderGlyphs from '../../web/src/map/OrderGlyphs.svelte';
import type { Glyph } from '../../shared/drawing/glyphs.ts';

const build: Glyph = {
  kind: 'mark',
  symbol: 'build',
  unit: 'fleet',
  at: [120, 340],
  power: 'Carthage',
  outcome: 'success',
  ref: 0,
  text: 'Carthage: Build F Car.',
};
const powers = new Map([['Carthage', { id: 'Carthage', index: 0, adjective: 'Carthaginian', abbreviation: 'Car', colour: '#d33682', initial: 'C' }]]);

let svg: SVGSVGElement;
let glyphs: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (glyphs) unmount(glyphs);
  glyphs = undefined;
  svg.remove();
});

function draw(standing?: ReadonlySet<string>) {
  svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  document.body.appendChild(svg);
  glyphs = mount(OrderGlyphs, {
    target: svg,
    props: { glyphs: [build], powers, activeRef: null, scale: 1, markScale: 1, dragged: () => false, ...(standing ? { standing } : {}) },
  });
}

describe('a build on the map', () => {
  it('outlines the counter to come where none stands yet', () => {
    draw(new Set(['500 500']));
    expect(svg.querySelectorAll('.build-ghost')).toHaveLength(1);
    expect(svg.querySelector('.build-ring')!.classList.contains('built')).toBe(false);
  });

  it('rings the built counter, without the outline over it, once it stands there', () => {
    draw(new Set(['120 340']));
    expect(svg.querySelectorAll('.build-ghost')).toHaveLength(0);
    expect(svg.querySelector('.build-ring')!.classList.contains('built')).toBe(true);
    expect(svg.querySelectorAll('.build-badge')).toHaveLength(1);
  });
});
