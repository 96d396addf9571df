/**
 * The measured table drawn: at scale from the engine's tableView (each base's corners, north up), the scale bar in
 * the table's unit, terrain and flotsam, each piece's marks as badges and in words, the side to move's pieces as
 * buttons; and the ghost dragged with the pointer, turned by its handle and nudged with the keys.
 */
import { type ComponentProps, flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tableView } from '../../shared/naval/diadochi-naval/view.ts';
import type { State as DiadochiState } from '../../shared/naval/diadochi-naval/state.ts';
import type { State as OiState } from '../../shared/naval/oi-navarcoi/state.ts';
import { cornersOf } from '../../shared/naval/table/index.ts';
import TableSea from '../../web/src/battles/TableSea.svelte';
import { tablePicture } from '../../web/src/battles/table-picture.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { replayBattle } from '../../web/src/battles/replay.ts';
import { logEntries } from './battles-fixtures.ts';
import { tableBattle } from './table-fixtures.ts';

let target: HTMLElement;
let component: ReturnType<typeof mount> | null = null;
afterEach(() => {
  if (component) unmount(component);
  component = null;
  target?.remove();
});

function draw(props: ComponentProps<typeof TableSea>) {
  target = document.createElement('div');
  document.body.appendChild(target);
  component = mount(TableSea, { target, props });
  flushSync();
}
const svg = () => target.querySelector('svg')!;
const piece = (id: string) => target.querySelector<SVGGElement>(`g.piece[data-piece="${id}"]`)!;
const numbers = (points: string) => points.split(' ').map((p) => p.split(',').map(Number));

describe('the table at scale', () => {
  it('draws each ship base at its corners, north up, and a scale bar in cables', () => {
    const { detail } = tableBattle('diadochi-naval', 'squadron-clash');
    const state = detail.state as DiadochiState;
    draw({ picture: tablePicture('diadochi-naval', state), sides: detail.sides });
    const view = svg().getAttribute('viewBox')!.split(' ').map(Number);
    // The whole 25 by 25 cable table and its margin fit the view.
    expect(view[0]).toBeLessThan(0);
    expect(view[0] + view[2]).toBeGreaterThan(25);
    expect(view[1] + view[3]).toBeGreaterThan(25);
    const ship = tableView(state).ships.find((s) => s.id === 'demetrius-1')!;
    const drawn = numbers(piece('demetrius-1').querySelector('polygon.base')!.getAttribute('points')!);
    expect(drawn).toEqual(cornersOf({ x: ship.x, y: ship.y, heading: ship.heading, width: ship.width, length: ship.length }).map((c) => [c.x, 25 - c.y]));
    // A ship heading north has its bow at the top of the drawing (the smaller y).
    const bow = numbers(piece('demetrius-1').querySelector('polygon.bow')!.getAttribute('points')!);
    expect(bow[0][1]).toBeLessThan(Math.min(...drawn.map((c) => c[1])) + 1e-9);
    expect(target.querySelector('.scale text')!.textContent).toBe('5 cables');
    expect(Number(target.querySelector('.scale line')!.getAttribute('x2'))).toBe(5);
    expect(svg().getAttribute('aria-label')).toContain('25 cables by 25 cables, north up');
  });

  it('draws a squadron as its four stands, in inches', () => {
    const { detail } = tableBattle('oi-navarcoi', 'clash');
    draw({ picture: tablePicture('oi-navarcoi', detail.state), sides: detail.sides });
    expect(piece('ath-1').querySelectorAll('polygon.base')).toHaveLength(4);
    expect(target.querySelector('.scale text')!.textContent).toBe('10 inches');
    expect(piece('ath-1').getAttribute('aria-label')).toContain('Paralos squadron, Athens, epi mias');
  });

  it('shows the marks: flagship, crippled, grappled, captured, out of formation; disordered, routing, in melee', () => {
    const { detail } = tableBattle('diadochi-naval', 'squadron-clash', (s: DiadochiState) => {
      s.ships[1].crippled = true;
      s.ships[2].grappledWith = s.ships[10].id;
      s.ships[10].grappledWith = s.ships[2].id;
      s.ships[3].status = 'captured';
      s.ships[3].capturedBy = s.ships[10].side;
      s.ships[4].outOfFormation = true;
    });
    draw({ picture: tablePicture('diadochi-naval', detail.state), sides: detail.sides });
    const badges = (id: string) => Array.from(piece(id).querySelectorAll('.badge')).map((b) => b.classList[1]);
    const state = detail.state as DiadochiState;
    expect(badges(state.ships[1].id)).toEqual(['crippled']);
    expect(badges(state.ships[2].id)).toEqual(['grappled']);
    expect(badges(state.ships[3].id)).toEqual(['captured']);
    expect(piece(state.ships[3].id).classList.contains('faded')).toBe(true);
    expect(badges(state.ships[4].id)).toEqual(['formation']);
    const flagship = state.squadrons[0].flagship!;
    expect(piece(flagship).querySelector('.star')).not.toBeNull();
    expect(piece(flagship).getAttribute('aria-label')).toContain('flagship');

    const oi = tableBattle('oi-navarcoi', 'clash', (s: OiState) => {
      s.squadrons[0].disordered = true;
      s.squadrons[1].engaged = [s.squadrons[5].id];
    });
    unmount(component!);
    target.remove();
    draw({ picture: tablePicture('oi-navarcoi', oi.detail.state), sides: oi.detail.sides });
    expect(Array.from(piece('ath-1').querySelectorAll('.badge')).map((b) => b.classList[1])).toEqual(['disordered']);
    expect(Array.from(piece('ath-2').querySelectorAll('.badge')).map((b) => b.classList[1])).toEqual(['melee']);
  });

  it('draws land, islands and beaches, and zooms in and back to the whole table', () => {
    const { detail } = tableBattle('diadochi-naval', 'squadron-clash', (s: DiadochiState) => {
      s.table.terrain = [
        {
          id: 'isle',
          kind: 'island',
          name: 'Psyttaleia',
          outline: [
            { x: 2, y: 10 },
            { x: 5, y: 10 },
            { x: 4, y: 13 },
          ],
          standing: {},
        },
        {
          id: 'shore',
          kind: 'beach',
          name: '',
          outline: [
            { x: 20, y: 10 },
            { x: 25, y: 10 },
            { x: 25, y: 14 },
          ],
          standing: {},
        },
      ];
    });
    draw({ picture: tablePicture('diadochi-naval', detail.state), sides: detail.sides });
    expect(numbers(target.querySelector('polygon.terrain.island')!.getAttribute('points')!)).toEqual([
      [2, 15],
      [5, 15],
      [4, 12],
    ]);
    expect(target.querySelector('polygon.terrain.beach')).not.toBeNull();
    expect(target.querySelector('.terrain-name')!.textContent).toBe('Psyttaleia');
    const whole = svg().getAttribute('viewBox');
    target.querySelector<HTMLButtonElement>('button[aria-label="Zoom in"]')!.click();
    flushSync();
    const zoomed = svg().getAttribute('viewBox')!.split(' ').map(Number);
    expect(zoomed[2]).toBeLessThan(Number(whole!.split(' ')[2]));
    const fit = Array.from(target.querySelectorAll('button')).find((b) => b.textContent === 'Whole table')!;
    fit.click();
    flushSync();
    expect(svg().getAttribute('viewBox')).toBe(whole);
  });
});

describe('the ghost on the table', () => {
  /** The SVG as 250 × 280 px on the screen, so that a table point has a place under the pointer. */
  function sized() {
    vi.spyOn(svg(), 'getBoundingClientRect').mockReturnValue({ left: 0, top: 0, width: 250, height: 280, right: 250, bottom: 280, x: 0, y: 0, toJSON() {} });
  }
  /** The screen point of a table point, by the view box (kept in proportion, centred). */
  function screenOf(x: number, y: number) {
    const [vx, vy, vw, vh] = svg().getAttribute('viewBox')!.split(' ').map(Number);
    const s = Math.min(250 / vw, 280 / vh);
    const ox = (250 - vw * s) / 2;
    const oy = (280 - vh * s) / 2;
    return { clientX: ox + (x - vx) * s, clientY: oy + (25 - y - vy) * s };
  }
  const pointer = (el: Element, type: string, at: { clientX: number; clientY: number }) =>
    el.dispatchEvent(new PointerEvent(type, { bubbles: true, pointerId: 1, pointerType: 'mouse', ...at }));

  it('reports the middle it is dragged to in table units, the handle a heading, and keys', () => {
    const { detail } = tableBattle('diadochi-naval', 'squadron-clash');
    const dragged: { x: number; y: number }[] = [];
    const headings: number[] = [];
    const keys: string[] = [];
    draw({
      picture: tablePicture('diadochi-naval', detail.state),
      sides: detail.sides,
      ghost: { bases: [{ x: 10, y: 20, heading: 180, width: 1, length: 1 }], refused: false, words: 'Leon stays' },
      ondrag: (p: { x: number; y: number }) => dragged.push(p),
      onrotate: (h: number) => headings.push(h),
      onnudge: (k: string) => keys.push(k) > 0,
    });
    sized();
    const ghost = target.querySelector('g.ghost')!;
    // Grabbed a quarter cable east of its middle, let go 3 cables further south.
    pointer(ghost, 'pointerdown', screenOf(10.25, 20));
    pointer(svg(), 'pointermove', screenOf(10.25, 17));
    pointer(svg(), 'pointerup', screenOf(10.25, 17));
    expect(dragged).toHaveLength(1);
    expect(dragged[0].x).toBeCloseTo(10, 6);
    expect(dragged[0].y).toBeCloseTo(17, 6);
    pointer(target.querySelector('.handle circle')!, 'pointerdown', screenOf(10, 18));
    pointer(svg(), 'pointermove', screenOf(11, 20));
    pointer(svg(), 'pointerup', screenOf(11, 20));
    expect(headings[0]).toBeCloseTo(90, 6);
    ghost.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }));
    expect(keys).toEqual(['ArrowUp']);
  });

  it('draws a refused move red, and the ruler with the allowance used', () => {
    const { detail } = tableBattle('diadochi-naval', 'squadron-clash');
    draw({
      picture: tablePicture('diadochi-naval', detail.state),
      sides: detail.sides,
      ghost: { bases: [{ x: 10, y: 12, heading: 180, width: 1, length: 1 }], refused: true, words: 'too far' },
      ruler: { from: { x: 10, y: 21.5 }, to: { x: 10, y: 12 }, used: 9.5, allowance: 4 },
    });
    expect(target.querySelector('g.ghost')!.classList.contains('refused')).toBe(true);
    expect(target.querySelector('.ruler')!.classList.contains('over')).toBe(true);
    expect(target.querySelector('.ruler text')!.textContent).toBe('9.5 cables of 4');
  });
});

describe('zooming and panning the table', () => {
  const W = 250;
  const H = 280;
  function sized() {
    vi.spyOn(svg(), 'getBoundingClientRect').mockReturnValue({ left: 0, top: 0, width: W, height: H, right: W, bottom: H, x: 0, y: 0, toJSON() {} });
  }
  const box = () => svg().getAttribute('viewBox')!.split(' ').map(Number);
  /** The screen point of a table point (25 cables deep), and the table point under a screen point, by the view box now. */
  function screenOf(x: number, y: number) {
    const [vx, vy, vw, vh] = box();
    const s = Math.min(W / vw, H / vh);
    return { clientX: (W - vw * s) / 2 + (x - vx) * s, clientY: (H - vh * s) / 2 + (25 - y - vy) * s };
  }
  function tableOf(at: { clientX: number; clientY: number }) {
    const [vx, vy, vw, vh] = box();
    const s = Math.min(W / vw, H / vh);
    return { x: vx + (at.clientX - (W - vw * s) / 2) / s, y: 25 - (vy + (at.clientY - (H - vh * s) / 2) / s) };
  }
  const pointer = (el: Element, type: string, at: { clientX: number; clientY: number }, id = 1, pointerType = 'mouse') => {
    el.dispatchEvent(new PointerEvent(type, { bubbles: true, pointerId: id, pointerType, button: 0, ...at }));
    flushSync();
  };
  const wheel = (at: { clientX: number; clientY: number }, deltaY: number) => {
    const e = new WheelEvent('wheel', { bubbles: true, cancelable: true, deltaY, ...at });
    // happy-dom's WheelEvent leaves out the pointer's place.
    Object.defineProperties(e, { clientX: { value: at.clientX }, clientY: { value: at.clientY } });
    svg().dispatchEvent(e);
    flushSync();
    return e;
  };
  function table(props: Partial<ComponentProps<typeof TableSea>> = {}) {
    const { detail } = tableBattle('diadochi-naval', 'squadron-clash');
    draw({ picture: tablePicture('diadochi-naval', detail.state), sides: detail.sides, ...props });
    sized();
  }

  it('zooms a gentle step a wheel notch, about the pointer, no closer than a twelfth of the table nor farther than all of it', () => {
    table();
    const whole = box();
    const at = screenOf(20, 5);
    const e = wheel(at, -100);
    expect(e.defaultPrevented).toBe(true);
    const once = box();
    expect(whole[2] / once[2]).toBeGreaterThan(1.1);
    expect(whole[2] / once[2]).toBeLessThan(1.26);
    // The point under the pointer is still under it.
    expect(tableOf(at).x).toBeCloseTo(20, 6);
    expect(tableOf(at).y).toBeCloseTo(5, 6);
    for (let i = 0; i < 40; i++) wheel(at, -100);
    expect(whole[2] / box()[2]).toBeCloseTo(12, 6);
    expect(target.querySelector('.level')!.textContent).toBe('1200 %');
    expect(target.querySelector<HTMLButtonElement>('button[aria-label="Zoom in"]')!.disabled).toBe(true);
    for (let i = 0; i < 40; i++) wheel(at, 100);
    expect(box()).toEqual(whole);
    expect(target.querySelector<HTMLButtonElement>('button[aria-label="Zoom out"]')!.disabled).toBe(true);
  });

  it('pans by a drag on the water, and a drag of the ghost moves the ghost, not the view', () => {
    const dragged: { x: number; y: number }[] = [];
    table({
      ghost: { bases: [{ x: 12, y: 12, heading: 0, width: 1, length: 1 }], refused: false, words: 'Leon stays' },
      ondrag: (p: { x: number; y: number }) => dragged.push(p),
    });
    wheel(screenOf(12, 12), -1000);
    wheel(screenOf(12, 12), -1000);
    const zoomed = box();
    const s = Math.min(W / zoomed[2], H / zoomed[3]);
    const sea = target.querySelector('rect.sea')!;
    const from = screenOf(10, 16);
    pointer(sea, 'pointerdown', from);
    pointer(svg(), 'pointermove', { clientX: from.clientX + 2, clientY: from.clientY });
    // Within a click's slop, nothing moves.
    expect(box()).toEqual(zoomed);
    pointer(svg(), 'pointermove', { clientX: from.clientX + 40, clientY: from.clientY + 20 });
    pointer(svg(), 'pointerup', { clientX: from.clientX + 40, clientY: from.clientY + 20 });
    const panned = box();
    expect(panned[0]).toBeCloseTo(zoomed[0] - 40 / s, 6);
    expect(panned[1]).toBeCloseTo(zoomed[1] - 20 / s, 6);
    expect(panned[2]).toBe(zoomed[2]);
    expect(dragged).toEqual([]);
    // The ghost grabbed at its middle and dragged: the view stays, the ghost goes.
    const ghost = target.querySelector('g.ghost')!;
    pointer(ghost, 'pointerdown', screenOf(12, 12));
    pointer(svg(), 'pointermove', screenOf(13, 14));
    pointer(svg(), 'pointerup', screenOf(13, 14));
    expect(box()).toEqual(panned);
    expect(dragged).toHaveLength(1);
    expect(dragged[0].x).toBeCloseTo(13, 6);
    expect(dragged[0].y).toBeCloseTo(14, 6);
  });

  it('pinches with two fingers, even when the first had the ghost: the ghost stays where it was left', () => {
    const dragged: { x: number; y: number }[] = [];
    table({
      ghost: { bases: [{ x: 12, y: 12, heading: 0, width: 1, length: 1 }], refused: false, words: 'Leon stays' },
      ondrag: (p: { x: number; y: number }) => dragged.push(p),
    });
    const whole = box();
    const ghost = target.querySelector('g.ghost')!;
    const sea = target.querySelector('rect.sea')!;
    const a = screenOf(12, 12);
    pointer(ghost, 'pointerdown', a, 1, 'touch');
    pointer(svg(), 'pointermove', { clientX: a.clientX + 10, clientY: a.clientY }, 1, 'touch');
    expect(dragged).toHaveLength(1);
    const b = { clientX: a.clientX + 30, clientY: a.clientY + 30 };
    pointer(sea, 'pointerdown', b, 2, 'touch');
    // The fingers spread (the first at a + 10 px, the second from 20, 30 px away from it to 60, 60).
    pointer(svg(), 'pointermove', { clientX: b.clientX + 40, clientY: b.clientY + 30 }, 2, 'touch');
    expect(whole[2] / box()[2]).toBeCloseTo(Math.hypot(60, 60) / Math.hypot(20, 30), 6);
    expect(dragged).toHaveLength(1);
    pointer(svg(), 'pointerup', { clientX: b.clientX + 40, clientY: b.clientY + 30 }, 2, 'touch');
    // The finger left behind neither drags the ghost nor pans.
    const after = box();
    pointer(svg(), 'pointermove', { clientX: a.clientX + 60, clientY: a.clientY }, 1, 'touch');
    expect(box()).toEqual(after);
    expect(dragged).toHaveLength(1);
  });

  it('zooms with + and − and shows the whole table with 0, from a piece with the focus', () => {
    const { detail } = tableBattle('diadochi-naval', 'squadron-clash');
    draw({ picture: tablePicture('diadochi-naval', detail.state), sides: detail.sides, pickable: ['demetrius-1'] });
    const whole = box();
    const ship = piece('demetrius-1');
    ship.dispatchEvent(new KeyboardEvent('keydown', { key: '+', bubbles: true, cancelable: true }));
    flushSync();
    expect(whole[2] / box()[2]).toBeCloseTo(1.5, 6);
    ship.dispatchEvent(new KeyboardEvent('keydown', { key: '0', bubbles: true, cancelable: true }));
    flushSync();
    expect(box()).toEqual(whole);
  });
});

describe('the deployment zone, the pieces placed, an attack aimed', () => {
  it('draws the zone, the pieces where they were placed, the enemies in reach as buttons and a manoeuvre’s way', () => {
    const { detail } = tableBattle('diadochi-naval', 'squadron-clash');
    const aimed: string[] = [];
    draw({
      picture: tablePicture('diadochi-naval', detail.state),
      sides: detail.sides,
      zone: { x0: 0, y0: 0, x1: 25, y1: 4.5 },
      placed: { 'demetrius-1': [{ x: 3, y: 2, heading: 90, width: 1, length: 1 }] },
      targets: ['menelaus-1'],
      target: 'menelaus-1',
      outcome: {
        bases: [{ x: 5, y: 20, heading: 0, width: 1, length: 1 }],
        path: [
          { x: 1, y: 1 },
          { x: 2, y: 3 },
        ],
        words: 'through',
      },
      ontarget: (id: string) => aimed.push(id),
    });
    const zone = target.querySelector('.zone rect')!;
    expect([zone.getAttribute('x'), zone.getAttribute('y'), zone.getAttribute('width'), zone.getAttribute('height')].map(Number)).toEqual([0, 20.5, 25, 4.5]);
    expect(numbers(piece('demetrius-1').querySelector('polygon.base')!.getAttribute('points')!)).toEqual(
      cornersOf({ x: 3, y: 2, heading: 90, width: 1, length: 1 }).map((c) => [c.x, 25 - c.y]),
    );
    const enemy = piece('menelaus-1');
    expect(enemy.classList.contains('target')).toBe(true);
    expect(enemy.classList.contains('aimed')).toBe(true);
    expect(enemy.getAttribute('role')).toBe('button');
    enemy.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    enemy.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(aimed).toEqual(['menelaus-1', 'menelaus-1']);
    expect(target.querySelector('.way polyline')!.getAttribute('points')).toBe('1,24 2,22');
    expect(target.querySelectorAll('.way polygon.base')).toHaveLength(1);
  });
});

describe('the replay of a table battle', () => {
  it('draws every step with the table’s own picture, the last the battle as it stands', () => {
    const { detail, record } = tableBattle('oi-navarcoi', 'clash');
    const replay = replayBattle(RULESETS['oi-navarcoi'], record.setup, logEntries(record), (state) => tablePicture('oi-navarcoi', state));
    expect(replay.stopped).toBeNull();
    expect(replay.boards).toHaveLength(record.actions.length + 1);
    expect(replay.boards[replay.boards.length - 1]).toEqual(tablePicture('oi-navarcoi', detail.state));
    expect(replay.boards[0].pieces.map((p) => p.id)).toEqual(['ath-1', 'ath-2', 'ath-3', 'ath-4', 'cor-1', 'cor-2', 'cor-3', 'cor-4']);
  });
});
