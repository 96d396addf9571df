/**
 * The hex sea mounted in a DOM: each ship drawn at its hex's centre with its bow turned to its facing, its marks
 * as badges and in words, land and reefs told apart, the highlighted hexes as buttons, and clicks and keys on
 * hexes and ships reported.
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { centre } from '../../shared/naval/hex.ts';
import type { BoardView } from '../../shared/naval/ruleset.ts';
import HexSea from '../../web/src/battles/HexSea.svelte';
import { HEX_SIZE } from '../../web/src/battles/sea-drawing.ts';

const sides = [
  { id: 'rhodes', name: 'Rhodes' },
  { id: 'macedon', name: 'Macedon' },
];
const board: BoardView = {
  sea: { columns: 8, rows: 6, land: [{ q: 0, r: 0 }], reefs: [{ q: 6, r: -1 }] },
  wrecks: [{ q: 4, r: 2 }],
  wind: 1,
  counters: [
    {
      id: 'nike',
      name: 'Nike',
      side: 'rhodes',
      type: 'trireme',
      hex: { q: 2, r: 1 },
      facing: 2,
      marks: ['expert', 'flagship', 'crippled', 'grappled'],
      squadron: 'Squadron B',
      flagship: true,
    },
    {
      id: 'leon',
      name: 'Leon',
      side: 'macedon',
      type: 'Quinquereme',
      hex: { q: 5, r: 0 },
      facing: 5,
      marks: ['elite crew', '2 open holes', 'surrendered to Rhodes'],
    },
    { id: 'kyma', name: 'Kyma', side: 'macedon', type: 'trireme', hex: { q: 3, r: 3 }, facing: 0, marks: [], sunk: true },
  ],
};

let target: HTMLElement;
let component: ReturnType<typeof mount> | null = null;
afterEach(() => {
  if (component) unmount(component);
  component = null;
  target?.remove();
});

function draw(props: Partial<Parameters<typeof HexSea>[1]> = {}) {
  target = document.createElement('div');
  document.body.appendChild(target);
  component = mount(HexSea, { target, props: { board, sides, ...props } });
  flushSync();
}
const ship = (id: string) => target.querySelector<SVGGElement>(`g.counter[data-ship="${id}"]`)!;

describe('the ships on the sea', () => {
  it('are drawn at the centre of their hex, the hull turned to the facing', () => {
    draw();
    const at = centre({ q: 2, r: 1 }, HEX_SIZE);
    expect(ship('nike').getAttribute('transform')).toBe(`translate(${at.x} ${at.y})`);
    expect(ship('nike').querySelector('.hull')!.getAttribute('transform')).toBe('rotate(120)');
    expect(ship('leon').querySelector('.hull')!.getAttribute('transform')).toBe('rotate(300)');
  });

  it('show the type, squadron letter, flagship star, crew and damage marks, and say them all in words', () => {
    draw();
    const nike = ship('nike');
    expect(nike.querySelector('.type')!.textContent).toBe('Tri');
    expect(nike.querySelector('.squadron text')!.textContent).toBe('B');
    // The star is drawn, not written: a phone's fonts may lack the character.
    expect(nike.querySelector('path.flag.star')).not.toBeNull();
    expect(ship('leon').querySelector('.flag')).toBeNull();
    expect(nike.querySelector('.crew text')!.textContent).toBe('E');
    expect(Array.from(nike.querySelectorAll('.badge')).map((b) => b.classList[1])).toEqual(['crippled', 'grappled']);
    expect(nike.getAttribute('aria-label')).toBe('Rhodes trireme Nike, facing south-east, at 0303; Squadron B, flagship; expert, crippled, grappled');
    const leon = ship('leon');
    expect(Array.from(leon.querySelectorAll('.badge')).map((b) => `${b.classList[1]} ${b.textContent}`)).toEqual(['holes 2●', 'captured P']);
    expect(leon.querySelector('.hull')!.getAttribute('style')).toContain('#1f4e79');
  });

  it("keeps every mark of a counter inside its own hex, clear of a neighbour's", () => {
    draw();
    const nike = ship('nike');
    // Each mark, taken as a disc round its centre, stays on its side of each of the hex's six sides (flat-topped:
    // the sides face 30°, 90°, … at the apothem's distance).
    const apothem = (HEX_SIZE * Math.sqrt(3)) / 2;
    const marks = Array.from(nike.querySelectorAll<SVGGElement>('.squadron, .crew, .badge, .flag'));
    expect(marks.length).toBe(5);
    for (const mark of marks) {
      const [x, y] = (mark.getAttribute('transform') ?? '').match(/-?[\d.]+/g)!.map(Number);
      const radius = mark.classList.contains('crew') ? Math.SQRT2 * 2 : 2.4;
      for (let side = 0; side < 6; side++) {
        const a = (Math.PI / 6) * (2 * side + 1);
        expect(x * Math.cos(a) + y * Math.sin(a) + radius).toBeLessThanOrEqual(apothem);
      }
    }
  });

  it('leaves a sunk ship off the sea and names it under it; wrecks, land and reefs are drawn apart', () => {
    draw();
    expect(ship('kyma')).toBeNull();
    expect(target.querySelector('.legend')!.textContent).toContain('Sunk: Kyma');
    expect(target.querySelector('polygon.hex.land[data-hex="0,0"]')).not.toBeNull();
    expect(target.querySelector('polygon.hex.reef[data-hex="6,-1"]')).not.toBeNull();
    expect(target.querySelectorAll('polygon.hex.sea').length).toBe(8 * 6 - 2);
    expect(target.querySelectorAll('g.wreck').length).toBe(1);
    expect(target.querySelector('.legend')!.textContent).toContain('Wind from the north-east');
  });

  it('fits the whole board in its view box', () => {
    draw();
    const [x, y, w, h] = target.querySelector('svg')!.getAttribute('viewBox')!.split(' ').map(Number);
    // Eight columns of flat-topped hexes: 7 × 1.5 sizes between the first and last centres, a size either side.
    expect(w).toBeCloseTo(7 * 1.5 * HEX_SIZE + 2 * HEX_SIZE + 4, 1);
    expect(x).toBeLessThan(-HEX_SIZE + 0.1);
    expect(h).toBeGreaterThan(6 * Math.sqrt(3) * HEX_SIZE);
    expect(y).toBeLessThan(0);
  });
});

describe('choosing on the sea', () => {
  it('highlights the hexes to choose as named buttons, and reports a click or Enter on one', () => {
    const onhex = vi.fn();
    draw({
      highlight: [
        { q: 3, r: 1 },
        { q: 2, r: 2 },
      ],
      highlightVerb: 'Row to',
      onhex,
    });
    const targets = Array.from(target.querySelectorAll<SVGPolygonElement>('polygon.target'));
    expect(targets.map((t) => [t.getAttribute('aria-label'), t.getAttribute('role'), t.getAttribute('tabindex')])).toEqual([
      ['Row to 0403', 'button', '0'],
      ['Row to 0304', 'button', '0'],
    ]);
    targets[0].dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(onhex).toHaveBeenLastCalledWith({ q: 3, r: 1 });
    targets[1].dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(onhex).toHaveBeenLastCalledWith({ q: 2, r: 2 });
    // A plain sea hex reports its hex too.
    target.querySelector('polygon.hex[data-hex="1,2"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(onhex).toHaveBeenLastCalledWith({ q: 1, r: 2 });
  });

  it('makes one’s own ships buttons that say whether they are selected, ringed when they are', () => {
    const onship = vi.fn();
    draw({ selectable: ['nike'], selected: 'nike', onship });
    expect(ship('nike').getAttribute('role')).toBe('button');
    expect(ship('nike').getAttribute('aria-pressed')).toBe('true');
    expect(ship('nike').querySelector('circle.ring')).not.toBeNull();
    expect(ship('leon').getAttribute('role')).toBe('img');
    expect(ship('leon').hasAttribute('tabindex')).toBe(false);
    ship('nike').dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true }));
    expect(onship).toHaveBeenCalledWith('nike');
  });

  it('takes a click on an enemy ship in a highlighted hex as the hex (a move that engages it)', () => {
    const onhex = vi.fn();
    const onship = vi.fn();
    draw({ highlight: [{ q: 5, r: 0 }], onhex, onship });
    ship('leon')
      .querySelector('.body')!
      .dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(onhex).toHaveBeenCalledWith({ q: 5, r: 0 });
    expect(onship).not.toHaveBeenCalled();
  });
});
