/**
 * Each test file gets its own fresh database: with DATABASE_URL set, a uniquely
 * named database on that PostgreSQL server (dropped afterwards); otherwise an
 * in-memory PGlite. Apps under test (startTestApp, the e2e server) get theirs
 * already migrated, copied from a template; the other callers an empty one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { DatabaseOptions } from '../../../server/db/database.ts';
import { applyMigrations, migrationsDir, pgliteMigrationAdapter, postgresMigrationAdapter, withDatabaseName } from '../../../server/db/migrate.ts';

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

/**
 * A fresh database. On PostgreSQL it is empty unless `migrated` (then a copy of the migrated template: the app's
 * start-up finds nothing to apply); PGlite's is always a migrated copy.
 */
export async function createTestDatabase({ migrated = false }: { migrated?: boolean } = {}): Promise<TestDatabase> {
  if (!usingPostgres) {
    return { options: { kind: 'pglite', dataDir: 'memory://', template: await pgliteTemplate('migrated') }, url: null, drop: async () => {} };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const template = migrated ? await postgresTemplate() : null;
  await onServer((client) => client.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`));
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

/** What the migrations are, as a hash: a template made from other migrations is never used. */
async function migrationsHash(kind: string): Promise<string> {
  const hash = createHash('sha256');
  hash.update(kind);
  if (kind !== 'postgres') {
    hash.update(JSON.parse(await readFile(path.join(import.meta.dirname, '../../../node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  }
  for (const entry of (await readdir(migrationsDir, { recursive: true })).sort()) {
    hash.update(entry);
    if (entry.endsWith('.sql')) hash.update(await readFile(path.join(migrationsDir, entry)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Name prefix of the migrated template databases on the test server (one per set of migrations, kept between runs). */
const TEMPLATE_PREFIX = 'test_template_';

let postgresTemplateMade: Promise<string> | undefined;

/**
 * Migrating an empty PostgreSQL database takes 2 to 3 s on the 2-core machine; copying a migrated one
 * (CREATE DATABASE … TEMPLATE) about 0.4 s. So the first test file that needs one migrates a database named after
 * the migrations' hash, once for every later run too, and each file starts from a copy of it. It is built under a
 * name of its own and renamed when done, so a file never copies a half-migrated one; should two files build it at
 * once, the first rename wins and the other drops its own.
 */
function postgresTemplate(): Promise<string> {
  postgresTemplateMade ??= (async () => {
    const name = `${TEMPLATE_PREFIX}${await migrationsHash('postgres')}`;
    const exists = await onServer(async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount! > 0);
    if (exists) return name;
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await onServer((client) => client.query(`CREATE DATABASE "${building}"`));
    try {
      const adapter = postgresMigrationAdapter(withDatabaseName(serverUrl!, building));
      try {
        await applyMigrations(adapter);
      } finally {
        await adapter.close();
      }
      await onServer((client) => client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`));
    } catch (error) {
      // 42P04: another file's template was renamed first; that one is used.
      if ((error as { code?: string }).code !== '42P04') throw error;
    } finally {
      await onServer((client) => client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`));
    }
    return name;
  })();
  postgresTemplateMade.catch(() => (postgresTemplateMade = undefined));
  return postgresTemplateMade;
}

/**
 * Creating a PGlite database runs initdb (~5 s); loading a dump of one takes ~1.5 s.
 * So the first test file that needs one creates a database (migrated, or empty
 * for shadow databases) and dumps it to the temp folder, keyed by the migrations
 * and the PGlite version; test files then start from fresh in-memory copies of
 * it (like CREATE DATABASE … TEMPLATE). migrate.test.ts migrates a truly empty one.
 */
export async function pgliteTemplate(kind: 'migrated' | 'empty'): Promise<Blob> {
  const file = path.join(tmpdir(), `diadochi-test-pglite-${await migrationsHash(kind)}.tar`);
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
