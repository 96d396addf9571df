/**
 * A held phase's results after a sea battle that sank a whole fleet: the sea's line names the fleet lost, and the
 * phase's events say it left the board (from the engine's own adjudication with the sea decided).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import { SeaBattleSchema } from '../../shared/api/campaign.ts';
import { adjudicate } from '../../shared/index.ts';
import SeaResults from '../../web/src/results/SeaResults.svelte';
import ResultsPanel from '../../web/src/results/ResultsPanel.svelte';
import { variant } from './positions.ts';

/** Rome's and Macedonia's fleets only, both ready to sail for the Ionian Sea. */
function emptyStart() {
  return {
    variant: variant.id,
    phase: { season: 'spring' as const, year: -240, type: 'movement' as const },
    units: [
      { power: 'Rome', type: 'fleet' as const, at: 'Nea' },
      { power: 'Macedonia', type: 'fleet' as const, at: 'Kor' },
    ],
    dislodged: [],
    standoffs: [],
    owners: {},
    control: {},
    destroyed: [],
    rebuilding: [],
    loans: [],
  };
}

/** The Ionian Sea as the server sends it once Rome's battle sank Macedonia's fleet. */
const sea = SeaBattleSchema.parse({
  sea: 'ION',
  seaName: 'Ionian Sea',
  status: 'decided',
  powers: ['Macedonia', 'Rome'],
  sides: [
    { id: 'macedonia', name: 'Macedonia', powers: ['Macedonia'], fleets: [{ power: 'Macedonia', unit: 'F Kor', at: 'Kor', role: 'attacker' }] },
    { id: 'rome', name: 'Rome', powers: ['Rome'], fleets: [{ power: 'Rome', unit: 'F Nea', at: 'Nea', role: 'attacker' }] },
  ],
  battleId: '00000000-0000-4000-8000-000000000001',
  outcome: { winner: 'Rome', destroyed: ['Kor'] },
  decidedBy: 'battle',
  deadlineAt: null,
  odds: null,
});

describe('a fleet lost in a sea battle, in the results', () => {
  let shown: ReturnType<typeof mount> | undefined;
  let target: HTMLElement | undefined;
  afterEach(() => {
    if (shown) unmount(shown);
    target?.remove();
    shown = target = undefined;
  });
  const place = () => {
    target = document.createElement('div');
    document.body.appendChild(target);
    return target;
  };

  it('the sea’s line says which fleet was lost with all its ships; a sea without losses says nothing of it', () => {
    shown = mount(SeaResults, { target: place(), props: { seas: [sea, { ...sea, sea: 'AEG', seaName: 'Aegean Sea', outcome: { winner: 'Rome' } }] } });
    flushSync();
    const lines = Array.from(target!.querySelectorAll('li'), (li) => li.textContent!.replace(/\s+/g, ' ').trim());
    expect(lines[0]).toBe("Ionian Sea: Macedonia against Rome. Rome won in battle. Macedonia's F Kor was lost with all its ships. The battle");
    expect(lines[1]).toBe('Aegean Sea: Macedonia against Rome. Rome won in battle. The battle');
  });

  it('the phase’s events say the fleet was lost in the battle, by the provinces’ names', () => {
    const out = adjudicate(
      variant,
      emptyStart(),
      [
        { power: 'Rome', order: 'F Nea - ION' },
        { power: 'Macedonia', order: 'F Kor - ION' },
      ],
      { decided: [{ province: 'ION', outcome: { winner: 'Rome', destroyed: ['Kor'] } }] },
    );
    if (!out.ok) throw new Error(out.error.join('; '));
    shown = mount(ResultsPanel, {
      target: place(),
      props: { variant, results: out.value.results, events: out.value.events, controls: [], disbanded: [], active: null, onselect: () => {} },
    });
    flushSync();
    expect(target!.textContent).toContain("Macedonia's fleet in Korinth was lost with all its ships in the battle for Ionian Sea.");
    expect(out.value.next.units).toEqual([{ power: 'Rome', type: 'fleet', at: 'ION' }]);
  });
});
