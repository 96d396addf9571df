/**
 * Deployment on the measured table with the engines in the browser: a Diadochi side's ships and an Oi Navarcoi!
 * side's squadrons picked and dragged (or typed) to their places within the zone, every change checked whole by
 * the engine (a place outside the zone or on another piece refused with its reason, the piece kept at its last good
 * place), the plot handed in as the engine's deploy action; the engine's own buttons where no zone is given.
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { diadochiNaval } from '../../shared/naval/diadochi-naval/engine.ts';
import type { State as DiadochiState } from '../../shared/naval/diadochi-naval/state.ts';
import { streamDice } from '../../shared/naval/dice.ts';
import { oiNavarcoi } from '../../shared/naval/oi-navarcoi/engine.ts';
import type { State as OiState } from '../../shared/naval/oi-navarcoi/state.ts';
import { standsOf } from '../../shared/naval/oi-navarcoi/layout.ts';
import TablePanel from '../../web/src/battles/TablePanel.svelte';
import { TableEntry } from '../../web/src/battles/table-entry.svelte.ts';
import { tablePicture } from '../../web/src/battles/table-picture.ts';
import { tableDeployment } from './table-fixtures.ts';

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
const buttons = (root: HTMLElement, start: string) => Array.from(root.querySelectorAll('button')).filter((b) => b.textContent?.trim().startsWith(start));
const field = (root: HTMLElement, label: string) =>
  Array.from(root.querySelectorAll('.fields label'))
    .find((l) => l.textContent?.includes(label))!
    .querySelector('input, select') as HTMLInputElement;
function type(input: HTMLInputElement, value: string | number) {
  input.value = String(value);
  input.dispatchEvent(new Event('change', { bubbles: true }));
  flushSync();
}

describe('a Diadochi side plotting its ships by dragging them', () => {
  // Squadron against squadron: the Antigonids' eight ships in line abreast at y 3.5 (x 9 to 16) on a 25-cable table;
  // their zone is their half at least 8 cables from the centreline: y up to 4.5.
  const { detail } = tableDeployment('diadochi-naval', 'squadron-clash', 'antigonids');
  const state = detail.state as DiadochiState;

  it('offers every ship of the side within its zone, and hands in the plot dragged as the engine’s deploy action', () => {
    const entry = new TableEntry(() => detail);
    const acted: unknown[] = [];
    const root = panel(entry, 'cable', acted);
    expect(entry.deployment!.zone).toEqual({ x0: 0, y0: 0, x1: 25, y1: 4.5 });
    expect(entry.pickable).toEqual(state.ships.filter((s) => s.side === 'antigonids').map((s) => s.id));
    // The engine's own button (the scenario's places) gives way to the hand-in of the plot on the board.
    expect(root.querySelectorAll('.actions button')).toHaveLength(0);
    expect(buttons(root, 'Hand in:').map((b) => b.textContent)).toEqual(['Hand in: plots the positions of 8 ships']);

    entry.pickPiece('demetrius-1');
    entry.drag({ x: 4, y: 2 });
    flushSync();
    expect(entry.pending).toBeNull();
    expect(entry.ghost).toMatchObject({ refused: false, bases: [{ x: 4, y: 2, heading: 0 }] });
    expect(entry.placedBases['demetrius-1'][0]).toMatchObject({ x: 4, y: 2 });
    entry.rotate(45.4);
    type(field(root, 'East'), 3.5);
    expect(entry.placementOf('demetrius-1')).toEqual({ x: 3.5, y: 2, heading: 45 });
    expect(root.querySelector('.ok')!.textContent).toBe('The plot as it stands is legal.');

    buttons(root, 'Hand in:')[0].click();
    expect(acted).toHaveLength(1);
    const plot = acted[0] as { kind: string; placements: { ship: string; x: number; y: number; heading: number }[] };
    expect(plot.placements).toHaveLength(8);
    expect(plot.placements[0]).toEqual({ ship: 'demetrius-1', x: 3.5, y: 2, heading: 45 });
    expect(plot.placements[1]).toEqual({ ship: 'demetrius-2', x: 10, y: 3.5, heading: 0 });
    expect(diadochiNaval.check(state, 'antigonids', plot as never)).toBeNull();
    const applied = diadochiNaval.apply(state, 'antigonids', plot as never, streamDice('a-test-seed-of-sixteen-or-more-characters', 'x'));
    expect(applied.ok).toBe(true);
  });

  it('refuses a place outside the zone or on another ship with the engine’s reason, the ship kept at its last good place', () => {
    const entry = new TableEntry(() => detail);
    const root = panel(entry, 'cable', []);
    entry.pickPiece('demetrius-1');
    entry.drag({ x: 5, y: 3 });
    entry.drag({ x: 5, y: 9 });
    flushSync();
    const refusal = diadochiNaval.check(state, 'antigonids', {
      kind: 'deploy',
      placements: state.ships
        .filter((s) => s.side === 'antigonids')
        .map((s) => (s.id === 'demetrius-1' ? { ship: s.id, x: 5, y: 9, heading: 0 } : { ship: s.id, x: s.x, y: s.y, heading: s.heading })),
    });
    expect(refusal?.code).toBe('outside_zone');
    expect(entry.pending!.refusal).toBe(refusal!.message);
    expect(root.querySelector('.refusal')!.textContent).toBe(`Refused: ${refusal!.message}`);
    expect(entry.ghost).toMatchObject({ refused: true, bases: [{ x: 5, y: 9 }] });
    expect(entry.placedBases['demetrius-1'][0]).toMatchObject({ x: 5, y: 3 });
    expect(buttons(root, 'Hand in:')[0].disabled).toBe(true);
    // Onto the next ship in the line.
    entry.drag({ x: 10, y: 3.5 });
    flushSync();
    expect(entry.pending!.refusal).toMatch(/cannot stand there: .*overlap/);
    // Another ship picked: the refused place is given up, the first ship where the engine last took it.
    entry.pickPiece('demetrius-2');
    flushSync();
    expect(entry.pending).toBeNull();
    expect(entry.placementOf('demetrius-1')).toEqual({ x: 5, y: 3, heading: 0 });
    expect(buttons(root, 'Hand in:')[0].disabled).toBe(false);
    // The keys move the ship picked: up is north, Page Down turns it to starboard.
    expect(entry.nudge('ArrowDown', false)).toBe(true);
    expect(entry.nudge('PageDown', false)).toBe(true);
    expect(entry.placementOf('demetrius-2')).toEqual({ x: 10, y: 3, heading: 15 });
    buttons(root, 'Back to the scenario')[0].click();
    flushSync();
    expect(entry.placedBases).toEqual({});
    expect(entry.placementOf('demetrius-1')).toEqual({ x: 9, y: 3.5, heading: 0 });
  });
});

describe('an Oi Navarcoi! side re-placing its squadrons', () => {
  it('places a squadron in another formation within the zone, keeps the signals the engine offers, refuses outside it', () => {
    // Clash in open seas: Athens' zone is x 10–62, y 9–14 inches.
    const { detail } = tableDeployment('oi-navarcoi', 'clash', 'athens');
    const state = detail.state as OiState;
    const entry = new TableEntry(() => detail);
    const acted: unknown[] = [];
    const root = panel(entry, 'inch', acted);
    expect(entry.deployment!.zone).toEqual({ x0: 10, y0: 9, x1: 62, y1: 14 });
    entry.pickPiece('ath-1');
    flushSync();
    type(field(root, 'Formation'), 'epi-keras');
    entry.drag({ x: 14, y: 10 });
    flushSync();
    expect(entry.pending).toBeNull();
    expect(entry.ghost!.bases).toEqual(standsOf('epi-keras', 4, { x: 14, y: 10, heading: 0 }));
    entry.drag({ x: 14, y: 20 });
    expect(entry.pending!.refusal).toBe("Paralos squadron's centre must lie in Athens's deployment zone (10–62, 9–14).");
    entry.drag({ x: 14, y: 10.5 });
    flushSync();
    expect(entry.pending).toBeNull();
    const handIns = buttons(root, 'Hand in:');
    // One for each plan the engine offers (with and without signals written), each with the squadron re-placed.
    expect(handIns.length).toBe(oiNavarcoi.legalActions(state, 'athens').length);
    expect(handIns[0].textContent).toContain('1 squadron re-placed');
    handIns[handIns.length - 1].click();
    const plan = acted[0] as { placements: unknown[]; signals: unknown[] };
    expect(plan.placements).toEqual([{ squadron: 'ath-1', x: 14, y: 10.5, heading: 0, formation: 'epi-keras' }]);
    expect(plan.signals).toEqual((oiNavarcoi.legalActions(state, 'athens').at(-1) as { signals: unknown[] }).signals);
    expect(oiNavarcoi.check(state, 'athens', plan as never)).toBeNull();
  });

  it('leaves the engine’s buttons where the scenario gives no zone', () => {
    const { detail } = tableDeployment('oi-navarcoi', 'bottled-up', 'athens');
    const entry = new TableEntry(() => detail);
    const root = panel(entry, 'inch', []);
    expect(entry.deployment).toBeNull();
    expect(entry.pickable).toEqual([]);
    expect(root.querySelectorAll('.actions button').length).toBeGreaterThan(0);
  });
});

describe('a plot handed in and not yet revealed', () => {
  it('shows the side its own ships where it plotted them, and the other side the scenario’s places', () => {
    const { detail } = tableDeployment('diadochi-naval', 'squadron-clash', 'antigonids');
    const state = detail.state as DiadochiState;
    const plot = diadochiNaval.legalActions(state, 'antigonids')[0] as {
      kind: 'deploy';
      placements: { ship: string; x: number; y: number; heading: number }[];
    };
    plot.placements[0] = { ship: 'demetrius-1', x: 3, y: 2, heading: 30 };
    const applied = diadochiNaval.apply(state, 'antigonids', plot, streamDice('a-test-seed-of-sixteen-or-more-characters', 'x'));
    if (!applied.ok) throw new Error(applied.error.message);
    const base = (viewer: string) =>
      tablePicture('diadochi-naval', diadochiNaval.redact(applied.state, viewer)).pieces.find((p) => p.id === 'demetrius-1')!.bases[0];
    expect(base('antigonids')).toMatchObject({ x: 3, y: 2, heading: 30 });
    expect(base('ptolemies')).toMatchObject({ x: 9, y: 3.5, heading: 0 });
  });

  it('does the same for an Oi Navarcoi! squadron re-placed', () => {
    const { detail } = tableDeployment('oi-navarcoi', 'clash', 'athens');
    const state = detail.state as OiState;
    const plan = { kind: 'deploy' as const, placements: [{ squadron: 'ath-1', x: 14, y: 10, heading: 0, formation: 'epi-keras' as const }], signals: [] };
    const applied = oiNavarcoi.apply(state, 'athens', plan, streamDice('a-test-seed-of-sixteen-or-more-characters', 'x'));
    if (!applied.ok) throw new Error(applied.error.message);
    const stands = (viewer: string) => tablePicture('oi-navarcoi', oiNavarcoi.redact(applied.state, viewer)).pieces.find((p) => p.id === 'ath-1')!.bases;
    expect(stands('athens')).toEqual(standsOf('epi-keras', 4, { x: 14, y: 10, heading: 0 }));
    expect(stands('corinth')).toEqual(standsOf('epi-mias', 4, { x: 18, y: 12, heading: 0 }));
  });
});
