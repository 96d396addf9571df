/**
 * Migrations through the wasm schema engine (server/db/migrate.ts), on a truly
 * empty database: PostgreSQL when DATABASE_URL is set, else a new PGlite.
 */
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { applyMigrations, createMigration, migrationsDir, pgliteMigrationAdapter, postgresMigrationAdapter, schemaPath } from '../../server/db/migrate.ts';
import { createTestDatabase, databaseNames, pgliteTemplate, usingPostgres, type TestDatabase } from './helpers/database.ts';

let testDatabase: TestDatabase | undefined;
let pglite: PGlite | undefined;
let adapter: SqlMigrationAwareDriverAdapterFactory & { close?(): Promise<void> };
let query: (sql: string) => Promise<Record<string, unknown>[]>;
let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'diadochi-migrations-'));
  if (usingPostgres) {
    testDatabase = await createTestDatabase();
    adapter = postgresMigrationAdapter(testDatabase.url!);
    const pool = new pg.Pool({ connectionString: testDatabase.url!, max: 1 });
    query = async (sql) => (await pool.query(sql)).rows;
    const close = adapter.close!;
    adapter.close = async () => {
      await close();
      await pool.end();
    };
  } else {
    const empty = await pgliteTemplate('empty');
    pglite = await PGlite.create({ loadDataDir: empty });
    adapter = pgliteMigrationAdapter(pglite, () => PGlite.create({ loadDataDir: empty }));
    query = async (sql) => (await pglite!.query<Record<string, unknown>>(sql)).rows;
  }
}, 60_000);

afterAll(async () => {
  await adapter?.close?.();
  await pglite?.close();
  await testDatabase?.drop();
  await rm(workDir, { recursive: true, force: true });
}, 60_000);

const expectedTables = [
  '_prisma_migrations',
  'account_tokens',
  'battle_actions',
  'battle_notes',
  'battle_seats',
  'battle_seeds',
  'battles',
  'clock_vote_ballots',
  'clock_votes',
  'discarded_phases',
  'draw_votes',
  'game_master_actions',
  'game_webhooks',
  'games',
  'gm_proposals',
  'live_channels',
  'live_events',
  'loans',
  'notification_settings',
  'order_submissions',
  'outbox',
  'phases',
  'players',
  'press_messages',
  'press_read_marks',
  'push_subscriptions',
  'sea_battles',
  'seat_requests',
  'sessions',
  'users',
  'vacations',
];

describe('applying migrations', () => {
  test('creates every table on an empty database and records the migrations', { timeout: 30_000 }, async () => {
    expect(await query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)).toEqual([]);
    const timersBefore = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

    const applied = await applyMigrations(adapter);

    const folders = (await readdir(migrationsDir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(applied).toEqual(folders.sort());
    const tables = await query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`);
    expect(tables.map((row) => row.table_name)).toEqual(expectedTables);
    const recorded = await query(`SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name`);
    expect(recorded.map((row) => row.migration_name)).toEqual(applied);
    expect(recorded.every((row) => row.finished_at !== null)).toBe(true);
    // A migration with a function body ($$ … ; … $$) is applied whole, not cut at its semicolons.
    expect(await query(`SELECT rows_unchanged(true, 0) AS ok`)).toEqual([{ ok: true }]);
    await expect(query(`SELECT rows_unchanged(false, 2)`)).rejects.toThrow(/rows changed since they were read: 2/);
    // The engine's own ~10 s timer is unref'd: it must not keep a script alive.
    expect(process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length).toBeLessThanOrEqual(timersBefore);
  });

  test('applies nothing the second time', async () => {
    expect(await applyMigrations(adapter)).toEqual([]);
  });

  test('the constraints hold: one seat per user and one player per power in a game', async () => {
    await query(`INSERT INTO users (id, username, username_key, password_hash) VALUES
      ('00000000-0000-7000-8000-000000000001', 'a', 'a', 'x'), ('00000000-0000-7000-8000-000000000002', 'b', 'b', 'x')`);
    await query(`INSERT INTO games (id, name, variant_id, created_by_id, game_master_id, movement_deadline_seconds,
      retreat_deadline_seconds, adjustment_deadline_seconds, press_kind, max_missed_deadlines, seats)
      VALUES ('00000000-0000-7000-8000-0000000000aa', 'g', 'standard', '00000000-0000-7000-8000-000000000001',
      '00000000-0000-7000-8000-000000000001', 60, 60, 60, 'full', 2, 7)`);
    const seat = (id: string, user: string, power: string) =>
      query(`INSERT INTO players (id, game_id, user_id, power) VALUES ('${id}', '00000000-0000-7000-8000-0000000000aa', '${user}', '${power}')`);
    await seat('00000000-0000-7000-8000-0000000000b1', '00000000-0000-7000-8000-000000000001', 'France');
    await expect(seat('00000000-0000-7000-8000-0000000000b2', '00000000-0000-7000-8000-000000000001', 'England')).rejects.toThrow(/unique/i);
    await expect(seat('00000000-0000-7000-8000-0000000000b3', '00000000-0000-7000-8000-000000000002', 'France')).rejects.toThrow(/unique/i);
  });
});

describe('creating a migration (npm run db:migration)', () => {
  test('writes nothing when the schema matches the migrations', async () => {
    const directory = path.join(workDir, 'unchanged');
    await cp(migrationsDir, directory, { recursive: true });
    expect(await createMigration(adapter, 'nothing', { directory })).toBeNull();
    expect((await readdir(directory)).length).toBe((await readdir(migrationsDir)).length);
  }, 30_000);

  test('writes the SQL for a schema change, using a shadow database that it removes', async () => {
    const directory = path.join(workDir, 'changed');
    await cp(migrationsDir, directory, { recursive: true });
    const schema = path.join(workDir, 'schema.prisma');
    await writeFile(schema, `${await readFile(schemaPath, 'utf8')}\nmodel Note {\n  id   Int    @id @default(autoincrement())\n  text String\n}\n`);
    // Only shadow databases are compared: files running beside this one create and drop their own databases.
    const shadows = async () => (await databaseNames()).filter((name) => name.startsWith('prisma_shadow_')).sort();
    const before = usingPostgres ? await shadows() : [];

    const created = await createMigration(adapter, 'add_notes', { directory, schema });

    expect(created!.name).toMatch(/^\d{14}_add_notes$/);
    expect(created!.sql).toContain('CREATE TABLE "Note"');
    expect(await readFile(path.join(directory, created!.name, 'migration.sql'), 'utf8')).toBe(created!.sql);
    if (usingPostgres) expect(await shadows()).toEqual(before);
  }, 30_000);
});

describe('the app', () => {
  test('migrates an empty database at start-up', async () => {
    const fresh = usingPostgres ? await createTestDatabase() : null;
    let database: Database | undefined;
    try {
      database = await openDatabase(fresh ? fresh.options : { kind: 'pglite', dataDir: 'memory://', template: await pgliteTemplate('empty') });
      expect((await database.migrate()).length).toBeGreaterThan(0);
      expect(await database.prisma.user.count()).toBe(0);
    } finally {
      await database?.close();
      await fresh?.drop();
    }
  }, 60_000);
});
