/** A built set-up read by its ruleset's own schema, so a campaign battle is held to the same checks as any other. */
import type { z } from 'zod';
import { err, ok, type Result } from '../../result.ts';

export function parsed<T>(schema: z.ZodType<T>, setup: unknown): Result<T, string[]> {
  const read = schema.safeParse(setup);
  if (read.success) return ok(read.data);
  return err(read.error.issues.map((issue) => `${issue.path.join('.') || 'set-up'}: ${issue.message}`));
}
