import { describe, expect, test } from 'vitest';
import { shippedMapData, getVariant, variantIds } from '../../shared/variants.ts';
import { loadVariant } from '../../shared/variant/checked.ts';
import { MapDataSchema } from '../../shared/variant/schema.ts';

/**
 * The maps this build ships are compiled without a second validation (shared/variants.ts): the browser
 * compiles one on every visit to a game. So each file must already be valid and in the schema's output
 * form, every default written out, which is what this checks.
 */
describe.each(variantIds())('the shipped map %s', (id) => {
  test('is valid and already in the schema’s output form (every default written out)', () => {
    const parsed = MapDataSchema.safeParse(shippedMapData[id]);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    expect(parsed.data).toStrictEqual(shippedMapData[id]);
  });

  test('compiles to the same variant as a full validation would give', () => {
    const validated = loadVariant(structuredClone(shippedMapData[id]));
    expect(validated.ok).toBe(true);
    // The rules are functions of each compiled variant: compared by the modules in force.
    const { rules, ...shipped } = getVariant(id)!;
    const { rules: rulesValidated, ...full } = validated.ok ? validated.value : ({} as never);
    expect(shipped).toEqual(full);
    expect(rules.names).toEqual(rulesValidated.names);
  });
});
