/**
 * Plain-SQL transactions (the order-submission batches' own): on PostgreSQL
 * their statements are pipelined and COMMIT may be sent behind them, so these
 * check what that must not change: order, all or nothing, and a connection
 * that is fit for the next transaction after a failed one.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

let testDatabase: TestDatabase;
let database: Database;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  database = await openDatabase(testDatabase.options);
  await database.migrate();
}, 60_000);

afterAll(async () => {
  await database?.close();
  await testDatabase?.drop();
});

const channel = () => `game:test-${randomBytes(6).toString('hex')}`;
const INSERT = `INSERT INTO live_channels (channel, seq) VALUES ($1, $2)`;
const COUNT = `SELECT count(*)::int AS n FROM live_channels WHERE channel = $1`;
const stored = async (name: string) => (await database.sql(COUNT, [name]))[0].n as number;

describe('plain-SQL transactions', () => {
  it('run statements sent together in the order they were called, and commit them', async () => {
    const name = channel();
    const [, seen, bumped] = await database.transaction((sql, commit) => {
      const statements = Promise.all([
        sql(INSERT, [name, 1]),
        sql(COUNT, [name]),
        sql(`UPDATE live_channels SET seq = seq + 1 WHERE channel = $1 RETURNING seq::int`, [name]),
      ]);
      commit();
      return statements;
    });
    expect(seen[0].n).toBe(1);
    expect(bumped[0].seq).toBe(2);
    expect(await stored(name)).toBe(1);
  });

  it('store nothing when a statement sent along with COMMIT fails, and say so', async () => {
    const name = channel();
    await database.sql(INSERT, [name, 1]);
    const other = channel();
    await expect(
      database.transaction(async (sql, commit) => {
        const written = Promise.all([sql(INSERT, [other, 1]), sql(INSERT, [name, 2])]); // the second: duplicate key
        commit();
        return written;
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await stored(other)).toBe(0);
    // The connection went back to the pool fit for use.
    for (let i = 0; i < 6; i++) expect(await database.transaction(async (sql) => (await sql(COUNT, [name]))[0].n)).toBe(1);
  });

  it('fail, not succeed, when the work did not wait for a statement that failed', async () => {
    const name = channel();
    await database.sql(INSERT, [name, 1]);
    const other = channel();
    await expect(
      database.transaction(async (sql) => {
        void sql(INSERT, [other, 1]);
        void sql(INSERT, [name, 2]);
      }),
    ).rejects.toThrow(/rolled back|duplicate key/);
    expect(await stored(other)).toBe(0);
  });

  it('roll back when the work fails between statements', async () => {
    const name = channel();
    await expect(
      database.transaction(async (sql) => {
        await sql(INSERT, [name, 1]);
        throw new Error('the engine refused');
      }),
    ).rejects.toThrow('the engine refused');
    expect(await stored(name)).toBe(0);
  });

  it('refuse a statement after COMMIT', async () => {
    const name = channel();
    await expect(
      database.transaction(async (sql, commit) => {
        commit();
        await sql(INSERT, [name, 1]);
      }),
    ).rejects.toThrow('a statement after COMMIT');
    expect(await stored(name)).toBe(0);
  });
});
