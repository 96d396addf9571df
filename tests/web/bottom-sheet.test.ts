/**
 * The sandbox's panel as a phone shows it, a sheet over the map (the game page's is tested in game-view.test.ts):
 * - a tap on a unit raises it part way (peek) to the unit's actions, the map's pane shrinking above it;
 * - an action whose next step is a tap on the map lowers it, and so does the order given;
 * - the handle raises and lowers it by a tap or a swipe (a swipe is not also a tap);
 * - a result's glyph clicked on the map raises it to the result.
 */
import { describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { sandboxPageEachTest } from './sandbox-dom.ts';

const { $, click, button, text } = sandboxPageEachTest();

const side = () => $('aside.side')!;
const sheet = () => (side().classList.contains('open') ? (side().classList.contains('peek') ? 'peek' : 'open') : 'lowered');
/** The map's pane gives way to a peeking sheet (its frame ends where the sheet begins). */
const mapMadeRoom = () => $('.map-pane')!.parentElement!.classList.contains('peek');
const handle = () => $<HTMLButtonElement>('button.sheet-handle')!;

function pointer(type: string, clientY: number) {
  handle().dispatchEvent(new PointerEvent(type, { bubbles: true, pointerId: 1, pointerType: 'touch', clientY }));
  flushSync();
}
/** A swipe ends with the click the browser sends on release. */
function swipe(from: number, to: number) {
  pointer('pointerdown', from);
  pointer('pointermove', (from + to) / 2);
  pointer('pointermove', to);
  pointer('pointerup', to);
  click(handle());
}

describe('the sandbox’s sheet, following the orders', () => {
  it('rises part way to a tapped unit’s actions, goes down for Move’s targets on the map, and stays down once the order is given', () => {
    expect(sheet()).toBe('lowered');
    click($('g.unit[data-unit="Rav"]'));
    expect(sheet()).toBe('peek');
    expect(mapMadeRoom()).toBe(true);
    expect(button(/Move/)).not.toBeNull();
    click(button(/Move/));
    expect(sheet()).toBe('lowered');
    expect(mapMadeRoom()).toBe(false);
    click($('#p-Cis'));
    expect(text()).toBe('A Rav - Cis');
    expect(sheet()).toBe('lowered');
  });

  it('goes down once an order needing no target is given', () => {
    click($('g.unit[data-unit="Rav"]'));
    expect(sheet()).toBe('peek');
    click(button(/Hold/));
    expect(text()).toBe('A Rav H');
    expect(sheet()).toBe('lowered');
  });

  it('goes down when the unit is let go (Escape)', () => {
    click($('g.unit[data-unit="Rav"]'));
    expect(sheet()).toBe('peek');
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    flushSync();
    expect(sheet()).toBe('lowered');
  });

  it('rises to a result clicked on the map', () => {
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Move/));
    click($('#p-Cis'));
    click(button(/^Adjudicate$/));
    expect(sheet()).toBe('lowered');
    click($('svg.dmap .glyph'));
    expect(sheet()).toBe('open');
  });
});

describe('the sandbox’s sheet handle', () => {
  it('is a button saying what it does, and whether the sheet is up', () => {
    expect(handle().getAttribute('aria-expanded')).toBe('false');
    expect(handle().textContent?.trim()).toBe('Raise the panel');
    click(handle());
    expect(handle().getAttribute('aria-expanded')).toBe('true');
    expect(handle().textContent?.trim()).toBe('Lower the panel');
  });

  it('a tap raises and lowers the sheet; a swipe up raises it, a swipe down lowers it', () => {
    click(handle());
    expect(sheet()).toBe('open');
    click(handle());
    expect(sheet()).toBe('lowered');
    swipe(600, 400);
    expect(sheet()).toBe('open');
    swipe(400, 420);
    expect(sheet()).toBe('lowered');
    // A swipe up on a raised sheet leaves it raised.
    swipe(600, 400);
    swipe(600, 400);
    expect(sheet()).toBe('open');
  });

  it('moved by hand, the sheet goes the whole way, and is left there when the order is given', () => {
    click($('g.unit[data-unit="Rav"]'));
    expect(sheet()).toBe('peek');
    swipe(600, 400);
    expect(sheet()).toBe('open');
    click(button(/Hold/));
    expect(sheet()).toBe('open');
  });
});
