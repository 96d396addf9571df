/**
 * A ruleset's data files (rules tables, scenarios) checked against their zod schemas, with errors that name the
 * file, the place in it and what is wrong, as a person editing the JSON finds them: "ship-to-ship rules.json:
 * shipTypes.trireme.hull: Expected number". One reader for every ruleset, so every table fails the same clear way.
 */
import type { z } from 'zod';

export type Loaded<T> = { ok: true; value: T } | { ok: false; error: string };

/** At most this many problems are listed: a file broken everywhere gets a readable error, not thousands of lines. */
const MOST_ISSUES = 5;

/** Where a zod issue is, as a reader finds it in the file: shipTypes[4].ram. */
export function issuePlace(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('') || '(the whole file)';
}

/** Checks a data file; the error names `file`, the place and what is wrong, one line per problem. */
export function checkDataFile<S extends z.ZodType>(schema: S, data: unknown, file: string): Loaded<z.output<S>> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, value: parsed.data };
  const lines = parsed.error.issues.slice(0, MOST_ISSUES).map((issue) => `${file}: ${issuePlace(issue.path)}: ${issue.message}`);
  return { ok: false, error: lines.join('\n') };
}

/**
 * A file shipped with the ruleset: the project's own, so a broken one is a programming error (the tests load
 * every one) and fails at once, saying where, rather than a battle failing later.
 */
export function shippedDataFile<S extends z.ZodType>(schema: S, data: unknown, file: string): z.output<S> {
  const loaded = checkDataFile(schema, data, file);
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
}
