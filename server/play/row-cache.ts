/**
 * What the order-submission batches derived from rows they read lately (a
 * game with its seats, a phase's position), so that a submission does not
 * have PostgreSQL build and send the same rows, nor the server parse and
 * validate them, when nothing has changed since. Each entry is tagged with
 * the version of the rows it came from, built from PostgreSQL's `xmin` (the
 * transaction that wrote a row as it is now: any update gives the row a new
 * one; a row lock does not). The batch sends the tags it holds, and the query
 * sends the rows again only where a tag no longer matches. Values are
 * deep-frozen: every batch that reads them shares them.
 */
import { deepFreeze } from '../../shared/freeze.ts';

export class RowCache<T> {
  /** In order of use, least recent first. */
  private readonly entries = new Map<string, { version: string; value: T }>();

  constructor(private readonly capacity: number) {}

  /** The version held for `key`, to send with the query (null: nothing held). */
  version(key: string): string | null {
    return this.entries.get(key)?.version ?? null;
  }

  /** What is held for `key`, whatever its version. */
  held(key: string): { version: string; value: T } | undefined {
    const entry = this.entries.get(key);
    if (entry) this.used(key, entry);
    return entry;
  }

  /** The value held for exactly this version of the rows, if any. */
  get(key: string, version: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    this.used(key, entry);
    return entry.value;
  }

  /** Moved to the most recently used end (the last to be evicted). */
  private used(key: string, entry: { version: string; value: T }): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  set(key: string, version: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value: deepFreeze(value) });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
