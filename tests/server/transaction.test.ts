/**
 * Plain-SQL transactions (the order-submission batches' own): on PostgreSQL
 * their statements are pipelined and COMMIT may be sent behind them, so these
 * check what that must not change: order, all or nothing, and a connection
 * that is fit for the next transaction after a failed one.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { createTestDatabase, usingPostgres, type TestDatabase } from './helpers/database.ts';

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

  it('run the statement given to COMMIT once the transaction has committed, in a transaction of its own', async () => {
    const [name, after] = [channel(), channel()];
    const { ran } = await database.transaction(async (sql, commit) => {
      const written = sql(INSERT, [name, 1]);
      // Sees the transaction's row: it runs after the commit. Its own row stays though it follows COMMIT.
      const ran = commit([`INSERT INTO live_channels (channel, seq) SELECT $1, seq + 1 FROM live_channels WHERE channel = $2`, [after, name]]);
      await written;
      return { ran };
    });
    expect(await stored(name)).toBe(1);
    await ran;
    expect((await database.sql(`SELECT seq::int FROM live_channels WHERE channel = $1`, [after]))[0]).toEqual({ seq: 2 });
  });

  it('keep the transaction when the statement behind COMMIT fails, and go on with a fit connection', async () => {
    const name = channel();
    const result = await database.transaction(async (sql, commit) => {
      const written = sql(INSERT, [name, 1]);
      const ran = commit(['SELECT 1 / 0 AS never', []]);
      await written;
      return { ran };
    });
    // Settles, never rejects: the failure is the log's.
    await expect(result.ran).resolves.toBeUndefined();
    expect(await stored(name)).toBe(1);
    for (let i = 0; i < 6; i++) expect(await database.transaction(async (sql) => (await sql(COUNT, [name]))[0].n)).toBe(1);
  });

  it('still run the statement given to COMMIT when the transaction rolled back (it must then find nothing to do)', async () => {
    const name = channel();
    await database.sql(INSERT, [name, 1]);
    const [other, after] = [channel(), channel()];
    let ran: Promise<void> | undefined;
    await expect(
      database.transaction(async (sql, commit) => {
        const written = Promise.all([sql(INSERT, [other, 1]), sql(INSERT, [name, 2])]); // the second: duplicate key
        ran = commit([`INSERT INTO live_channels (channel, seq) SELECT $1, count(*) FROM live_channels WHERE channel = $2`, [after, other]]);
        return written;
      }),
    ).rejects.toThrow(/duplicate key/);
    await ran;
    expect(await stored(other)).toBe(0);
    // On PostgreSQL it ran, behind the ROLLBACK, and found the rolled-back row absent; on PGlite, where it is the
    // transaction's last statement, it was rolled back with the rest.
    const row = (await database.sql(`SELECT seq::int FROM live_channels WHERE channel = $1`, [after]))[0];
    expect(row).toEqual(usingPostgres ? { seq: 0 } : undefined);
  });

  it.skipIf(!usingPostgres)('plan their statements once per connection (the busiest run hundreds of times a second)', async () => {
    const modes = await Promise.all(Array.from({ length: 4 }, () => database.transaction(async (sql) => (await sql('SHOW plan_cache_mode'))[0])));
    expect(modes).toEqual(Array.from({ length: 4 }, () => ({ plan_cache_mode: 'force_generic_plan' })));
    // Prisma's and single statements' connections still choose per run.
    expect(await database.sql('SHOW plan_cache_mode')).toEqual([{ plan_cache_mode: 'auto' }]);
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
