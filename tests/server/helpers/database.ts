/**
 * Each test file gets its own fresh database: with DATABASE_URL set, a uniquely
 * named database on that PostgreSQL server (dropped afterwards); otherwise an
 * in-memory PGlite.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { DatabaseOptions } from '../../../server/db/database.ts';
import { applyMigrations, migrationsDir, pgliteMigrationAdapter, withDatabaseName } from '../../../server/db/migrate.ts';

export const serverUrl = process.env.DATABASE_URL;
export const usingPostgres = serverUrl !== undefined && serverUrl !== '';

export type TestDatabase = { options: DatabaseOptions; url: string | null; drop(): Promise<void> };

async function onServer<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (!usingPostgres) {
    return { options: { kind: 'pglite', dataDir: 'memory://', template: await pgliteTemplate('migrated') }, url: null, drop: async () => {} };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = withDatabaseName(serverUrl!, name);
  return {
    options: { kind: 'postgres', url, poolSize: 5 },
    url,
    drop: () => onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

/** Names of the databases on the test server (to check that nothing is left behind). */
export async function databaseNames(): Promise<string[]> {
  return onServer(async (client) => (await client.query<{ datname: string }>('SELECT datname FROM pg_database')).rows.map((row) => row.datname));
}

/**
 * Creating a PGlite database runs initdb (~5 s); loading a dump of one takes ~1.5 s.
 * So the first test file that needs one creates a database (migrated, or empty
 * for shadow databases) and dumps it to the temp folder, keyed by the migrations
 * and the PGlite version; test files then start from fresh in-memory copies of
 * it (like CREATE DATABASE … TEMPLATE). migrate.test.ts migrates a truly empty one.
 */
export async function pgliteTemplate(kind: 'migrated' | 'empty'): Promise<Blob> {
  const hash = createHash('sha256');
  hash.update(kind);
  hash.update(JSON.parse(await readFile(path.join(import.meta.dirname, '../../../node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  for (const entry of (await readdir(migrationsDir, { recursive: true })).sort()) {
    hash.update(entry);
    if (entry.endsWith('.sql')) hash.update(await readFile(path.join(migrationsDir, entry)));
  }
  const file = path.join(tmpdir(), `diadochi-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    const database = await PGlite.create();
    try {
      if (kind === 'migrated') await applyMigrations(pgliteMigrationAdapter(database));
      const dump = await database.dumpDataDir('none');
      // Written aside then renamed: a concurrent test file never reads half a file.
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
      await rename(partial, file);
      return dump;
    } finally {
      await database.close();
    }
  }
}
