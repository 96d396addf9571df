import { MapDataSchema } from './schema.ts';
import { compileVariant, type Variant } from './load.ts';
import type { RuleOptions } from './options.ts';
import { err, type Result } from '../result.ts';
import { composeRules } from '../rules/index.ts';

/**
 * Validate map data and compile it. Returns every problem found, each naming
 * the province and the field, rather than stopping at the first. (Its own
 * module: the schema, and zod with it, stay out of clients that only compile
 * the maps this build ships, `compileVariant`.)
 */
export function loadVariant(input: unknown, options: Partial<RuleOptions> = {}): Result<Variant, string[]> {
  const parsed = MapDataSchema.safeParse(input);
  if (!parsed.success) {
    return err(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  return compileVariant(parsed.data, options, composeRules);
}
