import standardData from '../maps/standard/variant.json';
import diadochiData from '../maps/diadochi-v/variant.json';
import { loadVariant, type Variant } from './variant/load.ts';
import type { RuleOptions } from './variant/options.ts';

/**
 * The variants this build ships with. Map data is validated once, when first
 * asked for; a broken map file is a programming error, so it throws here.
 */
const sources: Record<string, unknown> = {
  standard: standardData,
  'diadochi-v': diadochiData,
};

const cache = new Map<string, Variant>();

export const variantIds = (): string[] => Object.keys(sources);

export function getVariant(id: string, options: Partial<RuleOptions> = {}): Variant | undefined {
  const data = sources[id];
  if (data === undefined) return undefined;
  const key = `${id}:${JSON.stringify(options)}`;
  let v = cache.get(key);
  if (!v) {
    const loaded = loadVariant(data, options);
    if (!loaded.ok) throw new Error(`map data of ${id} is invalid:\n${loaded.error.join('\n')}`);
    v = loaded.value;
    cache.set(key, v);
  }
  return v;
}
