/** The sentences the results list shows for what happened at the end of a phase: provinces by name, never by id. */
import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import { adjudicate, resultsAsNow, type OrderResult, type SubmittedOrder } from '../../shared/index.ts';
import ResultsPanel from '../../web/src/results/ResultsPanel.svelte';
import { controlText, disbandedText, eventText, isListed, resultBadge, resultOrder } from '../../web/src/results/labels.ts';
import { adjustment, variant } from './positions.ts';

describe('results in words', () => {
  it('names provinces, coasts left out, in every sentence', () => {
    expect(disbandedText(variant, { power: 'Macedonia', type: 'army', at: 'Epi' })).toBe(
      "Macedonia's army in Epirus had nowhere to retreat and was disbanded.",
    );
    expect(disbandedText(variant, { power: 'Macedonia', type: 'fleet', at: 'Lar/ec' })).toBe(
      "Macedonia's fleet in Larissa had nowhere to retreat and was disbanded.",
    );
    expect(eventText(variant, { kind: 'centre-captured', province: 'Syr', from: 'Carthage', to: 'Rome' })).toBe('Rome took Syracuse from Carthage.');
    expect(controlText(variant, { province: 'Ath', from: null, to: 'Macedonia' })).toBe('Macedonia took control of Athens, a special build centre.');
  });

  it('badges a dislodged unit as dislodged, not as having held', () => {
    const by = { unit: 'F ISS', from: 'ISS' } as const;
    expect(resultBadge({ code: 'held' })).toBe('Held');
    expect(resultBadge({ code: 'held', dislodgedBy: by })).toBe('Dislodged');
    expect(resultBadge({ code: 'unordered', dislodgedBy: by })).toBe('Dislodged');
    expect(resultBadge({ code: 'support-cut', dislodgedBy: by })).toBe('Support cut, dislodged');
    // Chosen by the rules for a power that ordered too few removals, whether or not it is in civil disorder.
    expect(resultBadge({ code: 'civil-disorder' })).toBe('Removed by rule');
  });
});

/**
 * Winter results, adjudicated by the engine on the Winter 240 BC position: Rome has 3 builds (sites Nea and Bru),
 * Carthage 1 (site Had); Egypt, Macedonia and Syria each have a build due but no free site to use it on.
 */
describe('Winter results as the list shows them', () => {
  const winter = (orders: SubmittedOrder[]): OrderResult[] => {
    const r = adjudicate(variant, adjustment, orders);
    if (!r.ok) throw new Error(r.error.join());
    return r.value.results;
  };

  let panel: ReturnType<typeof mount> | undefined;
  let target: HTMLElement | undefined;
  afterEach(() => {
    if (panel) unmount(panel);
    target?.remove();
    panel = target = undefined;
  });
  /** Each power's heading and its rows' words (badge, then what it says beside it), as the player reads them. */
  const shown = (results: OrderResult[]) => {
    target = document.createElement('div');
    document.body.appendChild(target);
    panel = mount(ResultsPanel, { target, props: { variant, results, events: [], controls: [], disbanded: [], active: null, onselect: () => {} } });
    flushSync();
    return Object.fromEntries(
      Array.from(target.querySelectorAll('section.power'), (s) => [
        s.querySelector('h3')!.textContent!.trim(),
        Array.from(s.querySelectorAll('button.row'), (b) => Array.from(b.children, (c) => c.textContent!.trim()).join(' · ')),
      ]),
    );
  };

  it('gives no row to a power that had nothing it could build: it waived nothing', () => {
    const results = winter([
      { power: 'Rome', order: 'Build A Nea' },
      { power: 'Rome', order: 'Build F Bru' },
      { power: 'Rome', order: 'Waive' },
      { power: 'Carthage', order: 'Build A Had' },
    ]);
    // The engine notes the unusable builds; the list leaves them out, as it leaves out powers with no builds due.
    expect(results.filter((r) => !isListed(r)).map((r) => r.power)).toEqual(['Egypt', 'Macedonia', 'Syria']);
    const rows = shown(results);
    expect(Object.keys(rows)).toEqual(['Carthage', 'Rome']);
    expect(JSON.stringify(rows)).not.toMatch(/Egypt|Macedonia|Syria/);
    // A waive the player gave is still a waive.
    expect(rows.Rome).toEqual(['Built · Build A Nea', 'Built · Build F Bru', 'Waived · Waive']);
  });

  it('says of builds left unordered that they were not used, not that they were waived', () => {
    const results = winter([{ power: 'Rome', order: 'Build A Nea' }]);
    const rows = shown(results);
    expect(rows.Carthage).toEqual(['No order · 1 build not used']);
    expect(rows.Rome).toEqual(['Built · Build A Nea', 'No order · 2 builds not used']);
    expect(JSON.stringify(rows)).not.toContain('Waive');
    // In words, not in an order's notation: no order was given.
    expect(target!.querySelectorAll('button.row code')).toHaveLength(1);
  });

  it('keeps the words for unordered units and for orders as given', () => {
    expect(resultOrder({ code: 'unordered', order: 'A Par H', parsed: { kind: 'hold', unit: { type: 'army', at: 'Par' } } })).toEqual({
      text: 'A Par H',
      notation: true,
    });
    expect(resultOrder({ code: 'waived', order: 'Waive', parsed: { kind: 'waive' } })).toEqual({ text: 'Waive', notation: true });
    expect(resultOrder({ code: 'unordered', order: 'Waive', parsed: { kind: 'waive' } })).toEqual({ text: 'Builds not used', notation: false });
    expect(isListed({ code: 'waived' })).toBe(true);
  });

  it('reads what the engine says in codes and counts, not in its sentences', () => {
    // Reworded sentences change nothing the list shows.
    const results = winter([{ power: 'Rome', order: 'Build A Nea' }]).map((r) => ({ ...r, reason: 'Reworded.' }));
    const rows = shown(results);
    expect(rows.Rome).toEqual(['Built · Build A Nea', 'No order · 2 builds not used']);
    expect(Object.keys(rows)).toEqual(['Carthage', 'Rome']);
  });

  it('shows a phase recorded by an older engine as this one writes it (results read through resultsAsNow)', () => {
    const now = winter([{ power: 'Rome', order: 'Build A Nea' }]);
    // What engine version 5 recorded: the unusable builds "waived", no counts.
    const then = now.map(({ unused: _unused, ...r }) => (r.code === 'no-build-site' ? { ...r, code: 'waived' as const } : r));
    expect(resultsAsNow(then, 5)).toEqual(now);
    expect(resultsAsNow(now, 6)).toEqual(now);
  });
});
