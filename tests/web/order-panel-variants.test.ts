/**
 * The order panel's first hint names the keys of the orders the variant has: Destroy (Z) and Rebuild (R) only where
 * its rules let units destroy centres (Diadochi V), not on a map without them (Standard).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import { getVariant, initialState } from '../../shared/index.ts';
import OrderPanel from '../../web/src/orders/OrderPanel.svelte';
import { OrderEntry } from '../../web/src/orders/order-entry.svelte.ts';

let target: HTMLElement | undefined;
let panel: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (panel) unmount(panel);
  target?.remove();
  panel = undefined;
});

function hintFor(id: string): string {
  const variant = getVariant(id)!;
  const entry = new OrderEntry(variant, initialState(variant), [variant.powers[0]]);
  target = document.createElement('div');
  document.body.appendChild(target);
  panel = mount(OrderPanel, { target, props: { entry, variant } });
  flushSync();
  return Array.from(target.querySelectorAll('p.muted'), (p) => p.textContent!.replace(/\s+/g, ' ').trim()).find((t) => t.startsWith('Click')) ?? '';
}

describe('the order panel’s keys, by variant', () => {
  it('Diadochi V: hold, move, support, convoy, destroy and rebuild', () => {
    expect(hintFor('diadochi-v')).toBe('Click a unit on the map, or Tab to it and press H, M, S, C, Z or R.');
  });

  it('Standard: hold, move, support and convoy, no Z or R', () => {
    expect(hintFor('standard')).toBe('Click a unit on the map, or Tab to it and press H, M, S or C.');
  });
});
