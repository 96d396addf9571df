import standardData from '../maps/standard/variant.json';
import diadochiData from '../maps/diadochi-v/variant.json';
import ancientMediterraneanData from '../maps/ancient-mediterranean/variant.json';
import { compileVariant, type Variant } from './variant/load.ts';
import { composeRules } from './rules/index.ts';
import type { RuleOptions } from './variant/options.ts';
import type { ParsedMapData } from './variant/schema.ts';

/**
 * The variants this build ships with, compiled once when first asked for. Their files are kept in the
 * schema's output form, which tests/maps/shipped-maps.test.ts checks, so they are not validated again here;
 * a broken map file is a programming error, so it throws.
 */
export const shippedMapData: Record<string, ParsedMapData> = {
  // JSON imports type their strings as `string`: the test named above checks these files against the schema.
  standard: standardData as unknown as ParsedMapData,
  'diadochi-v': diadochiData as unknown as ParsedMapData,
  'ancient-mediterranean': ancientMediterraneanData as unknown as ParsedMapData,
};

const cache = new Map<string, Variant>();

export const variantIds = (): string[] => Object.keys(shippedMapData);

export function getVariant(id: string, options: Partial<RuleOptions> = {}): Variant | undefined {
  const data = shippedMapData[id];
  if (data === undefined) return undefined;
  const key = `${id}:${JSON.stringify(options)}`;
  let v = cache.get(key);
  if (!v) {
    const loaded = compileVariant(data, options, composeRules);
    if (!loaded.ok) throw new Error(`map data of ${id} is invalid:\n${loaded.error.join('\n')}`);
    v = loaded.value;
    cache.set(key, v);
  }
  return v;
}
