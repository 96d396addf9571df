import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getVariant } from '../../shared/variants.ts';
import { parseDatcFile } from '../../shared/datc/format.ts';
import { caseToState } from '../../shared/datc/run.ts';
import { adjudicate } from '../../shared/game/process.ts';
import type { RuleOptions } from '../../shared/variant/options.ts';

// The rule options give the older rulebooks' answers to the DATC cases that depend on them.
const dir = join(import.meta.dirname, '../datc/v3.0');
function play(file: string, id: string, options: Partial<RuleOptions>) {
  const parsed = parseDatcFile(readFileSync(join(dir, file), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error.join('; '));
  const c = parsed.value.find((x) => x.id === id)!;
  const v = getVariant('standard', options)!;
  const built = caseToState(v, c);
  if (!built.ok) throw new Error(built.error.join('; '));
  const r = adjudicate(v, built.value.state, built.value.orders);
  if (!r.ok) throw new Error(r.error.join('; '));
  return r.value;
}
const at = (out: ReturnType<typeof play>, power: string, where: string) => out.next.units.some((u) => u.power === power && u.at === where);

describe('4.A.1 multi-route convoy disruption', () => {
  for (const id of ['6.F.9', '6.F.10', '6.F.11']) {
    it(`${id}: the army reaches Belgium by default, stays in London under the 1971 rule`, () => {
      expect(at(play('6F.txt', id, {}), 'England', 'bel')).toBe(true);
      const old = play('6F.txt', id, { convoyDisruption: 'any-route' });
      expect(at(old, 'England', 'lon')).toBe(true);
      expect(old.results.find((r) => r.order.startsWith('A lon -'))!.code).toBe('no-route');
    });
  }
});

describe('4.A.3 convoy to an adjacent province', () => {
  it('6.G.2: a foreign convoy cannot kidnap an army by default; under the 1971 rule the units swap', () => {
    const now = play('6G.txt', '6.G.2', {});
    expect(at(now, 'England', 'nwy')).toBe(true);
    const old = play('6G.txt', '6.G.2', { adjacentConvoy: '1971' });
    expect(at(old, 'England', 'swe')).toBe(true);
    expect(at(old, 'Russia', 'nwy')).toBe(true);
  });
});

describe('4.D.8 civil-disorder removals', () => {
  it('6.J.11: the 2023 rule removes the army far from owned Warsaw; the old rule keeps the one near home', () => {
    const now = play('6J.txt', '6.J.11', {});
    expect(at(now, 'Italy', 'war')).toBe(true);
    const old = play('6J.txt', '6.J.11', { civilDisorderDistance: 'home-centres' });
    expect(at(old, 'Italy', 'tus')).toBe(true);
    expect(at(old, 'Italy', 'war')).toBe(false);
  });
});
