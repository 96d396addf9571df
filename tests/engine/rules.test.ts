/**
 * A variant's own rules are modules it declares in its data (shared/rules/): the standard game has none,
 * Diadochi V each of its rules, and a map that declares one rule gets that one alone, with its effect.
 */
import { describe, expect, test } from 'vitest';
import { adjudicate, getVariant, initialState } from '../../shared/index.ts';
import { shippedMapData } from '../../shared/variants.ts';
import { loadVariant } from '../../shared/variant/checked.ts';
import { RULE_MODULES } from '../../shared/rules/index.ts';

describe('the rules a variant plays with', () => {
  test('the standard game has no rule of its own; Diadochi V has each of its rules, in order', () => {
    expect(getVariant('standard')!.rules.names).toEqual([]);
    expect(getVariant('diadochi-v')!.rules.names).toEqual([
      'centre-values',
      'build-centres',
      'destroy-rebuild',
      'rebels',
      'loans',
      'fleet-build-limit',
      'self-supporting-victory',
    ]);
    for (const module of RULE_MODULES) expect(module.summary.length, module.name).toBeGreaterThan(20);
  });

  test('a map that declares destroying centres gets that rule alone: Z destroys, and a destroyed centre supplies nothing', () => {
    const data = structuredClone(shippedMapData.standard);
    data.id = 'standard-ruins';
    data.rules.destroyCentres = true;
    const loaded = loadVariant(data);
    if (!loaded.ok) throw new Error(loaded.error.join('\n'));
    const v = loaded.value;
    expect(v.rules.names).toEqual(['destroy-rebuild']);
    const start = initialState(v);
    const spring = adjudicate(v, start, [{ power: 'France', order: 'A par Z' }]);
    expect(spring.ok && spring.value.results.find((r) => r.unit === 'par')).toMatchObject({ code: 'destroyed-centre' });
    expect(spring.ok && spring.value.next.destroyed).toEqual(['par']);
    // Without the rule, the same order is refused by name.
    const plain = adjudicate(getVariant('standard')!, initialState(getVariant('standard')!), [{ power: 'France', order: 'A par Z' }]);
    expect(plain.ok && plain.value.results.find((r) => r.order.startsWith('A par Z'))).toMatchObject({
      code: 'illegal',
      reason: expect.stringContaining('This variant has no destroy orders'),
    });
  });
});
