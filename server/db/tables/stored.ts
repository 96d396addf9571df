/**
 * JSON columns, read and written typed. Each table with JSON columns has its repository in this folder, which names
 * the parser of each column (the zod schemas of shared/, or the engine's `frozenState` for positions): a row read
 * through it has those columns parsed, typed as the schemas say, whatever columns the query selected. A stored value
 * that its schema refuses is a corrupt database: a fault (logged), answered 500 `stored_data_invalid` naming the
 * table, the column and the row; never a wrong answer. Values are written through `json`, which takes typed values only.
 */
import type { z } from 'zod';
import { Prisma } from '../database.ts';
import { ServerFault } from '../../errors.ts';

/** Reads one stored column's value; throws when the value is not what the column holds. */
export type Parser<T> = (stored: unknown) => T;

export const parser =
  <S extends z.ZodType>(schema: S): Parser<z.output<S>> =>
  (stored) =>
    schema.parse(stored);

/** A nullable column: SQL NULL reads as null. */
export const nullable =
  <T>(parse: Parser<T>): Parser<T | null> =>
  (stored) =>
    stored === null ? null : parse(stored);

/** A row with its JSON columns (those among `C` that it has) parsed. */
export type Parsed<R, C> = { [K in keyof R]: K extends keyof C ? (C[K] extends Parser<infer T> ? T : never) : R[K] };

/** The column's SQL name (Prisma's fields map camelCase to snake_case throughout). */
const sqlName = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A stored value refused by its column's schema: the database holds something this server never writes. */
export function storedDataInvalid(table: string, field: string, rowId: string, error: unknown): ServerFault {
  const why = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues?.[0];
  const detail = why ? `${why.path.length > 0 ? `at ${why.path.map(String).join('.')}: ` : ''}${why.message}` : String((error as Error).message ?? error);
  return new ServerFault('stored_data_invalid', `the database holds an invalid value in ${table}.${sqlName(field)} of row ${rowId} (${detail})`);
}

/**
 * The repository's reader of `table`: a row (of any selection that includes `id`) with each of `columns` it has
 * parsed. Columns it does not have are left alone; other fields are passed as they are.
 */
export function storedRows<C extends Record<string, Parser<unknown>>>(table: string, columns: C) {
  function read<R extends { id: string }>(row: R): Parsed<R, C>;
  function read<R extends { id: string }>(row: R | null): Parsed<R, C> | null;
  function read<R extends { id: string }>(row: R | null): Parsed<R, C> | null {
    if (row === null) return null;
    const parsed: Record<string, unknown> = { ...row };
    for (const field of Object.keys(columns)) {
      if (!(field in row)) continue;
      try {
        parsed[field] = columns[field]((row as Record<string, unknown>)[field]);
      } catch (error) {
        throw storedDataInvalid(table, field, row.id, error);
      }
    }
    // Each column the row has was replaced above by what its parser returns, which is what Parsed says.
    return parsed as Parsed<R, C>;
  }
  return read;
}

/** What a JSON column holding `T` takes: the value; SQL NULL for null (a nullable column). */
type JsonInput<T> = null extends T ? Prisma.InputJsonValue | typeof Prisma.DbNull : Prisma.InputJsonValue;

/** A typed value as a JSON column takes it (null: SQL NULL). */
function json<T extends Prisma.InputJsonValue | null>(value: T): JsonInput<T> {
  // JsonInput<T> is the value's own type for a value, DbNull for null: the one conversion, done here.
  return (value === null ? Prisma.DbNull : value) as JsonInput<T>;
}

/**
 * The repository's writer of a table whose JSON columns hold `T`: the columns given, as Prisma takes them. Only
 * `T`'s columns, each with its type: a value of another shape, or for another column, does not compile.
 */
export function storedValues<T extends Record<string, Prisma.InputJsonValue | null>>() {
  return <V extends Partial<T>>(values: V & Record<Exclude<keyof V, keyof T>, never>): { [K in keyof V]: JsonInput<V[K]> } => {
    // Object.entries forgets each field's type (V's keys are T's, their values T's JSON): the one place it is restated.
    const written: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(values)) written[field] = json(value as Prisma.InputJsonValue | null);
    return written as { [K in keyof V]: JsonInput<V[K]> };
  };
}
