/** The sentences the results list shows for what happened at the end of a phase: provinces by name, never by id. */
import { describe, expect, it } from 'vitest';
import { controlText, disbandedText, eventText, resultBadge } from '../../web/src/results/labels.ts';
import { variant } from './positions.ts';

describe('results in words', () => {
  it('names provinces, coasts left out, in every sentence', () => {
    expect(disbandedText(variant, { power: 'Macedonia', type: 'army', at: 'Epi' })).toBe("Macedonia's army in Epirus had nowhere to retreat and was disbanded.");
    expect(disbandedText(variant, { power: 'Macedonia', type: 'fleet', at: 'Lar/ec' })).toBe("Macedonia's fleet in Larissa had nowhere to retreat and was disbanded.");
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
