/**
 * Keyset pagination, newest first, on (time, id): each page ends with a
 * `nextCursor` naming its last row, and the next page holds the rows older
 * than it. Stable while rows are added, unlike offsets. Used by every list
 * that pages (games, press, the site's audit log).
 *
 * A cursor is opaque to clients (base64url JSON) but is input all the same:
 * one this API did not make — a timestamp PostgreSQL cannot store (year 0,
 * year −271821), an id that is not a UUID — is a 400 naming the query field,
 * never a database error.
 */
import { z } from 'zod';
import { invalid } from './errors.ts';

export type Keyset = { at: Date; id: string };

const CursorSchema = z.object({ t: z.iso.datetime(), id: z.uuid() }).strict();

/** Years a cursor may name: what the rows' timestamps can hold (PostgreSQL has no year 0; ISO strings stop at 9999). */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify({ t: at.toISOString(), id })).toString('base64url');
}

export function decodeCursor(cursor: string): Keyset {
  const refuse = () => invalid('query.cursor', 'is not a cursor returned by this API (use the nextCursor of the page before)');
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  const parsed = CursorSchema.safeParse(json);
  if (!parsed.success) throw refuse();
  const at = new Date(parsed.data.t);
  const year = at.getUTCFullYear();
  if (Number.isNaN(at.getTime()) || year < FIRST_YEAR || year > LAST_YEAR) throw refuse();
  return { at, id: parsed.data.id };
}

/** The Prisma condition for rows after the cursor in the order (`key` desc, id desc). */
export function olderThan<K extends string>(key: K, after: Keyset): { OR: [Record<K, { lt: Date }>, Record<K, Date> & { id: { lt: string } }] } {
  return {
    OR: [{ [key]: { lt: after.at } } as Record<K, { lt: Date }>, { [key]: after.at, id: { lt: after.id } } as Record<K, Date> & { id: { lt: string } }],
  };
}

/**
 * A page from rows read with `take: limit + 1`: the first `limit`, and the cursor after the last of them
 * when there are more.
 */
export function pageOf<T extends { id: string }>(rows: T[], limit: number, keyOf: (row: T) => Date): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last), last.id) : null };
}
