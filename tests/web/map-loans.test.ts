/**
 * Loans of centres (Diadochi V) on the map: a lent centre's marker is ringed in the colour of the power its supply
 * goes to, with a chain link; its province says so to a screen reader, and its tooltip says who lent it to whom and
 * since when. The position's loans are the engine's: a chain is told from the owner on, and its ring is the last
 * borrower's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import drawing from '../../maps/diadochi-v/map.svg?drawing';
import MapView from '../../web/src/map/MapView.svelte';
import Legend from '../../web/src/results/Legend.svelte';
import { centreLoans, loanWords } from '../../shared/drawing/overlay.ts';
import type { GameState } from '../../shared/index.ts';
import { start, variant } from './positions.ts';

const colour = (power: string) => variant.data.powers.find((p) => p.id === power)!.colour;
const withLoans = (loans: GameState['loans']): GameState => ({ ...start, loans });

let host: HTMLElement | null = null;
let view: ReturnType<typeof mount> | null = null;
function show(position: GameState, loanSince?: (link: { centre: string; from: string; to: string }) => string | null) {
  host = document.createElement('div');
  document.body.appendChild(host);
  view = mount(MapView, { target: host, props: { variant, drawing, position, loanSince } });
  flushSync();
  return host;
}
afterEach(() => {
  if (view) unmount(view);
  host?.remove();
  view = host = null;
});

const marker = (id: string) => host!.querySelector(`g.centre[data-centre="${id}"]`)!;
/** The colour of the ring drawn in the power's colour (the other, wider one is its ink edge). */
const ringColour = (id: string) => marker(id).querySelector('g.loan > circle:nth-of-type(2)')?.getAttribute('stroke') ?? null;

describe('a lent centre on the map', () => {
  it('is ringed in the borrower’s colour with a chain link; a centre not lent has neither', () => {
    show(withLoans([{ centre: 'Cyp', from: 'Egypt', to: 'Syria' }]));
    expect(marker('Cyp').classList.contains('lent')).toBe(true);
    expect(ringColour('Cyp')).toBe(colour('Syria'));
    expect(marker('Cyp').querySelectorAll('g.loan rect')).toHaveLength(4);
    // The marker itself keeps its owner's colour: the centre is still Egypt's.
    expect(marker('Cyp').querySelector(':scope > circle:not(.halo)')?.getAttribute('fill')).toBe(colour('Egypt'));
    expect(marker('Alx').classList.contains('lent')).toBe(false);
    expect(marker('Alx').querySelector('g.loan')).toBeNull();
  });

  it('says it is lent in its province’s name, with the phase the loan was made in', () => {
    show(withLoans([{ centre: 'Cyp', from: 'Egypt', to: 'Syria' }]), () => 'Spring 240 BC Movement');
    expect(host!.querySelector('#p-Cyp')!.getAttribute('aria-label')).toContain(
      'Egyptian supply centre; lent by Egypt to Syria (since Spring 240 BC Movement)',
    );
    expect(host!.querySelector('#p-Alx')!.getAttribute('aria-label')).not.toContain('lent');
  });

  it('tells its loan in the tooltip when the pointer is over it', () => {
    show(withLoans([{ centre: 'Cyp', from: 'Egypt', to: 'Syria' }]), () => 'Spring 240 BC Movement');
    host!.querySelector('#p-Cyp')!.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, pointerType: 'mouse', clientX: 10, clientY: 10 }));
    flushSync();
    expect(host!.querySelector('.tooltip .loan')?.textContent).toBe('Lent by Egypt to Syria (since Spring 240 BC Movement)');
  });

  it('lent on, is ringed in the last borrower’s colour and told from its owner on', () => {
    // Given in the other order: the words follow the centre from its owner, not the list.
    show(
      withLoans([
        { centre: 'Cyp', from: 'Syria', to: 'Rome' },
        { centre: 'Cyp', from: 'Egypt', to: 'Syria' },
      ]),
    );
    expect(ringColour('Cyp')).toBe(colour('Rome'));
    expect(host!.querySelector('#p-Cyp')!.getAttribute('aria-label')).toContain('lent by Egypt to Syria, and on by Syria to Rome');
  });
});

describe('the loans as the engine keeps them', () => {
  it('a loan whose chain the engine cannot read (a centre lent by a power that does not hold it) is not drawn', () => {
    expect(centreLoans(variant, withLoans([{ centre: 'Cyp', from: 'Syria', to: 'Rome' }])).size).toBe(0);
  });

  it('words without a known start say only who lent to whom', () => {
    const loan = centreLoans(variant, withLoans([{ centre: 'Cyp', from: 'Egypt', to: 'Syria' }])).get('Cyp')!;
    expect(loan.holder).toBe('Syria');
    expect(loanWords(loan)).toBe('Lent by Egypt to Syria');
  });
});

describe('the legend', () => {
  it('has a lent centre, drawn with the map’s ring and chain link, and its name says so', async () => {
    const target = document.createElement('div');
    document.body.appendChild(target);
    const legend = mount(Legend, { target, props: {} });
    flushSync();
    try {
      const words = Array.from(target.querySelectorAll('text.entry'), (t) => t.textContent);
      expect(words).toContain('Lent centre');
      const entry = target.querySelector('g.loan')!;
      expect(entry.querySelectorAll('circle')).toHaveLength(3);
      expect(entry.querySelectorAll('rect')).toHaveLength(4);
      await new Promise((resolve) => setTimeout(resolve));
      expect(target.querySelector('svg')!.getAttribute('aria-label')).toContain('Lent centre');
      expect(target.textContent).toContain('A lent centre is ringed in the colour of the power it is lent to');
    } finally {
      unmount(legend);
      target.remove();
    }
  });
});
