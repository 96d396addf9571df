/**
 * Planning a move on the measured table with the engines in the browser: a drag to an illegal position is refused
 * on the spot with the engine's reason, a legal one is planned where the engine puts it and taken, the numbers
 * typed are the same move as a drag, a second click on a ship picks its group, a run into an enemy squadron is an
 * attack on it, and what takes no position is a button in the engine's words.
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { diadochiNaval } from '../../shared/naval/diadochi-naval/engine.ts';
import type { State as DiadochiState } from '../../shared/naval/diadochi-naval/state.ts';
import { streamDice } from '../../shared/naval/dice.ts';
import { oiNavarcoi } from '../../shared/naval/oi-navarcoi/engine.ts';
import type { State as OiState } from '../../shared/naval/oi-navarcoi/state.ts';
import TablePanel from '../../web/src/battles/TablePanel.svelte';
import { TableEntry } from '../../web/src/battles/table-entry.svelte.ts';
import { tableBattle } from './table-fixtures.ts';

let target: HTMLElement | null = null;
let component: ReturnType<typeof mount> | null = null;
afterEach(() => {
  if (component) unmount(component);
  component = null;
  target?.remove();
  target = null;
});

function panel(entry: TableEntry, unit: string, acted: unknown[]) {
  target = document.createElement('div');
  document.body.appendChild(target);
  component = mount(TablePanel, { target, props: { entry, unit, busy: false, onact: (a: unknown) => acted.push(a) } });
  flushSync();
  return target;
}
const button = (root: HTMLElement, text: string) => Array.from(root.querySelectorAll('button')).find((b) => b.textContent?.trim() === text)!;
const field = (root: HTMLElement, label: string) =>
  Array.from(root.querySelectorAll('.fields label'))
    .find((l) => l.textContent?.includes(label))!
    .querySelector('input') as HTMLInputElement;
function type(input: HTMLInputElement, value: number) {
  input.value = String(value);
  input.dispatchEvent(new Event('change', { bubbles: true }));
  flushSync();
}

describe('a Diadochi ship planned on the table', () => {
  // Antigonus' eight ships stand in line abreast at y 3.5 cables (x 9 to 16), heading north; Antigonus moves first.
  const { detail, side } = tableBattle('diadochi-naval', 'squadron-clash');
  const state = detail.state as DiadochiState;

  it('refuses a drag onto the next ship in the line with the engine’s reason', () => {
    const entry = new TableEntry(() => detail);
    const acted: unknown[] = [];
    const root = panel(entry, 'cable', acted);
    entry.pickPiece('demetrius-1');
    // Dragged east onto demetrius-2: a turn of 90° to starboard and a cable's run.
    entry.drag({ x: 10, y: 3.5 });
    flushSync();
    expect(entry.numbers).toEqual({ turn: 90, distance: 1, after: 0 });
    const refusal = diadochiNaval.check(state, side, entry.planned!.action as never);
    expect(refusal?.code).toBe('blocked');
    expect(root.querySelector('.refusal')!.textContent).toBe(`Refused: ${refusal!.message}`);
    expect(button(root, 'Take this move').disabled).toBe(true);
    expect(entry.ghost!.refused).toBe(true);
  });

  it('refuses a run past the allowance, saying how far it is', () => {
    const entry = new TableEntry(() => detail);
    entry.pickPiece('demetrius-1');
    entry.drag({ x: 9, y: 10 });
    expect(entry.planned!.refusal).toBe('A single ship moves at most 4 cables; this move is 6.5.');
    expect(entry.ruler!.used).toBeCloseTo(6.5, 6);
    expect(entry.ruler!.allowance).toBe(4);
  });

  it('takes a legal drag: the ghost where the engine puts the ship, the order sent, and the engine carries it out', () => {
    const entry = new TableEntry(() => detail);
    const acted: unknown[] = [];
    const root = panel(entry, 'cable', acted);
    entry.pickPiece('demetrius-1');
    entry.drag({ x: 9, y: 6.5 });
    flushSync();
    expect(entry.planned!.refusal).toBeNull();
    expect(entry.ghost!.bases[0]).toMatchObject({ x: 9, heading: 0 });
    expect(entry.ghost!.bases[0].y).toBeCloseTo(6.5, 6);
    expect(root.querySelector('.ok')!.textContent).toContain('ahead 3 cables');
    expect(root.querySelector('.allowance')!.textContent).toContain('Used 3 cables of 4 cables; 1 cable left.');
    button(root, 'Take this move').click();
    expect(acted).toEqual([
      { kind: 'order', ships: ['demetrius-1'], formation: 'single', move: { kind: 'legs', legs: [{ kind: 'ahead', distance: 3 }], charge: true } },
    ]);
    const applied = diadochiNaval.apply(state, side, acted[0] as never, streamDice('a-test-seed-of-sixteen-or-more-characters', 'x'));
    expect(applied.ok).toBe(true);
  });

  it('plans the numbers typed as the same move: a turn, a run and a turn at the end', () => {
    const entry = new TableEntry(() => detail);
    const root = panel(entry, 'cable', []);
    entry.pickPiece('demetrius-8');
    flushSync();
    // A turn in place first sweeps the corners into the next ship: the engine says so.
    type(field(root, 'Turn first'), 30);
    type(field(root, 'Distance'), 2);
    expect(entry.planned!.refusal).toMatch(/^The move is blocked: .* would run into Demetrius’ 7\.$/);
    expect(root.querySelector('.refusal')!.textContent).toContain('would run into');
    // Clear ahead first, then the turn at the end.
    type(field(root, 'Turn first'), 0);
    type(field(root, 'Turn at the end'), 30);
    expect(entry.numbers).toEqual({ turn: 0, distance: 2, after: 30 });
    const b = entry.ghost!.bases[0];
    expect(b.x).toBeCloseTo(16, 6);
    expect(b.y).toBeCloseTo(5.5, 6);
    expect(b.heading).toBeCloseTo(30, 6);
    expect(entry.planned!.refusal).toBeNull();
    expect(root.querySelector('.ok')!.textContent).toContain('ahead 2 cables, turn 30° right');
    // The arrow keys nudge the same numbers.
    entry.nudge('ArrowUp', false);
    entry.nudge('ArrowRight', true);
    expect(entry.numbers).toEqual({ turn: 0, distance: 2.5, after: 31 });
  });

  it('picks the ship’s group on a second click, with its wheel and slant, and its formation changes as buttons', () => {
    const entry = new TableEntry(() => detail);
    const root = panel(entry, 'cable', []);
    entry.pickPiece('demetrius-1');
    entry.pickPiece('demetrius-1');
    flushSync();
    expect(entry.mover!.pieces).toHaveLength(8);
    expect(entry.mover!.kinds.map((k) => k.id)).toEqual(['wheel', 'oblique', 'back']);
    type(field(root, 'Wheel'), 20);
    type(field(root, 'Distance'), 1);
    expect(entry.planned!.refusal).toBeNull();
    expect(entry.planned!.action).toMatchObject({
      formation: 'abreast',
      move: {
        legs: [
          { kind: 'wheel', degrees: 20 },
          { kind: 'ahead', distance: 1 },
        ],
      },
    });
    const texts = Array.from(root.querySelectorAll('.actions button')).map((b) => b.textContent);
    expect(texts).toContain('ends the movement phase');
    expect(texts.some((t) => t?.includes('change formation, turning 90° right'))).toBe(true);
  });
});

describe('an Oi Navarcoi! squadron planned on the table', () => {
  it('advances, backs water, and refuses a wheel past its allowance', () => {
    const { detail, side } = tableBattle('oi-navarcoi', 'clash');
    const state = detail.state as OiState;
    const entry = new TableEntry(() => detail);
    const root = panel(entry, 'inch', []);
    entry.pickPiece('ath-2');
    flushSync();
    expect(entry.mover!.kinds.map((k) => k.id)).toEqual(['advance', 'back', 'follow-me']);
    const allowance = entry.kind!.allowance;
    entry.drag({ x: 30, y: 12 + 1.5 });
    expect(entry.numbers).toEqual({ turn: 0, distance: 1.5, after: 0 });
    expect(entry.planned!.refusal).toBeNull();
    expect(oiNavarcoi.check(state, side, entry.planned!.action as never)).toBeNull();
    type(field(root, 'Wheel'), 90);
    type(field(root, 'Advance after the wheel'), allowance);
    expect(entry.planned!.refusal).toMatch(/too far|takes/);
    expect(root.querySelector('.allowance')!.classList.contains('over')).toBe(true);
    entry.setKind('back');
    entry.drag({ x: 30, y: 11 });
    expect(entry.planned!.action).toEqual({ kind: 'move', squadron: 'ath-2', order: { type: 'back', distance: 1 } });
    expect(entry.planned!.refusal).toBeNull();
    const texts = Array.from(root.querySelectorAll('.actions button')).map((b) => b.textContent);
    expect(texts).toContain('end the movement');
  });

  it('makes a run into an enemy squadron an attack on it', () => {
    const { detail, side } = tableBattle('oi-navarcoi', 'clash', (s: OiState) => {
      const q = s.squadrons.find((x) => x.id === 'cor-2')!;
      q.y = 15;
    });
    const entry = new TableEntry(() => detail);
    entry.pickPiece('ath-2');
    entry.drag({ x: 30, y: 14.5 });
    expect(entry.planned!.refusal).toBeNull();
    expect(entry.planned!.action).toMatchObject({ kind: 'move', squadron: 'ath-2', attack: { target: 'cor-2', manoeuvre: 'melee' } });
    expect(oiNavarcoi.check(detail.state as OiState, side, entry.planned!.action as never)).toBeNull();
    expect(entry.words).toContain('attacking Corinthian centre');
  });
});

describe('a diekplous and a periplous made on the board', () => {
  // Paralos squadron (ath-2) in epi pollon faces the Corinthian centre (cor-2) in epi mias a few inches off.
  const { detail, side } = tableBattle('oi-navarcoi', 'clash', (s: OiState) => {
    const q = s.squadrons.find((x) => x.id === 'ath-2')!;
    q.formation = 'epi-pollon';
    s.squadrons.find((x) => x.id === 'cor-2')!.y = 16;
  });
  const state = detail.state as OiState;

  it('aims at the enemy clicked, offers the manoeuvres with the engine’s verdict, draws the way round and takes the diekplous', () => {
    const entry = new TableEntry(() => detail);
    const acted: unknown[] = [];
    const root = panel(entry, 'inch', acted);
    entry.pickPiece('ath-2');
    flushSync();
    expect(entry.targets).toContain('cor-2');
    entry.aim('cor-2');
    flushSync();
    expect(entry.planned!.target).toEqual({ id: 'cor-2', name: 'Corinthian centre' });
    // The run shown is the shortest that reaches the enemy: what the move uses of the allowance, not all of it.
    const run = entry.numbers.distance;
    expect(run).toBeLessThan(entry.kind!.allowance);
    expect(entry.planned!.used).toBeCloseTo(run, 6);
    expect(entry.mover!.plan(entry.kind!.id, { ...entry.numbers, distance: run - 0.2 }).target).toBeNull();
    expect(entry.planned!.action).toMatchObject({ squadron: 'ath-2', attack: { target: 'cor-2', manoeuvre: 'melee' } });
    expect(entry.planned!.refusal).toBeNull();
    const verdicts = Object.fromEntries(entry.manoeuvres.map((m) => [m.manoeuvre, m.refusal]));
    expect(verdicts.melee).toBeNull();
    expect(verdicts.diekplous).toBeNull();
    expect(verdicts.periplous).toBe('The periplous is made from epi mias.');
    const radios = Array.from(root.querySelectorAll('[role="radiogroup"][aria-label^="Attack on Corinthian centre"] label')).map((l) => l.textContent?.trim());
    expect(radios).toEqual(['Melee', 'Diekplous', 'Periplous (refused)']);

    entry.setManoeuvre('periplous');
    flushSync();
    expect(root.querySelector('.refusal')!.textContent).toBe('Refused: The periplous is made from epi mias.');
    expect(entry.ready).toBeNull();

    entry.setManoeuvre('diekplous');
    flushSync();
    const action = entry.planned!.action as { attack: { manoeuvre: string } };
    expect(action.attack.manoeuvre).toBe('diekplous');
    expect(oiNavarcoi.check(state, side, action as never)).toBeNull();
    // The way through: from the contact, through the enemy, to its rear (north of a squadron heading south).
    const outcome = entry.planned!.outcome!;
    expect(outcome.bases).toHaveLength(4);
    const cor = state.squadrons.find((x) => x.id === 'cor-2')!;
    expect(Math.min(...outcome.bases.map((b) => b.y))).toBeGreaterThan(cor.y);
    expect(outcome.path[1]).toMatchObject({ x: cor.x, y: cor.y });
    expect(root.querySelector('.outcome-words')!.textContent).toMatch(/^Diekplous: each side tests/);
    expect(entry.words).toMatch(/diekplous/i);
    Array.from(root.querySelectorAll('button'))
      .find((b) => b.textContent === 'Take this move')!
      .click();
    expect(acted).toEqual([action]);
    const applied = oiNavarcoi.apply(state, side, action as never, streamDice('a-test-seed-of-sixteen-or-more-characters', 'x'));
    expect(applied.ok).toBe(true);
    expect(applied.ok && JSON.stringify(applied.log)).toMatch(/Diekplous: /);
  });

  it('draws the periplous round the offshore flank for a line abreast', () => {
    const { detail: d2 } = tableBattle('oi-navarcoi', 'clash', (s: OiState) => {
      s.squadrons.find((x) => x.id === 'cor-2')!.y = 16;
    });
    const entry = new TableEntry(() => d2);
    entry.pickPiece('ath-2');
    entry.aim('cor-2');
    entry.setManoeuvre('periplous');
    expect(entry.planned!.refusal).toBeNull();
    expect(entry.planned!.action).toMatchObject({ attack: { target: 'cor-2', manoeuvre: 'periplous' } });
    const outcome = entry.planned!.outcome!;
    expect(outcome.path).toHaveLength(3);
    expect(outcome.bases).toHaveLength(4);
    // In contact with the flank, square to it: the stands head east or west.
    expect([90, 270]).toContain(Math.round(outcome.bases[0].heading));
    expect(entry.manoeuvres.find((m) => m.manoeuvre === 'diekplous')!.refusal).toBe('The diekplous is made from epi pollon.');
  });
});
