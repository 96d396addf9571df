/**
 * Migrations through Prisma's own schema engine compiled to WebAssembly.
 *
 * Why this module exists: the Prisma 7 CLI's `migrate` commands spawn a native
 * schema-engine binary that is downloaded on first use, which cannot happen on
 * our offline machines. `@prisma/schema-engine-wasm` is the same engine as wasm,
 * driven through a Prisma driver adapter, and writes the standard
 * `_prisma_migrations` table, so the day the CLI works here this module can be
 * deleted and `prisma migrate deploy` / `prisma migrate dev` used instead.
 *
 * Workarounds kept here (and only here), each tested by tests/server/migrate.test.ts:
 * 1. The package's entry point imports the .wasm file as an ES module, which Node
 *    cannot do: we compile it ourselves and hand it to the package's JS glue.
 * 2. The glue reports Rust panics through a global registry that must exist.
 * 3. The engine arms a ~10 s timer it never clears: we unref it so scripts can exit.
 * 4. @prisma/adapter-pg 7.10 throws on PostgreSQL's internal `"char"` type (OID 18)
 *    that the engine's catalogue queries return: `charAsTextPool` reports it as text.
 * 5. adapter-pg's `connectToShadowDb` ignores the database name of a connection
 *    string and drops the shadow database before closing its pool:
 *    `postgresMigrationAdapter` creates and drops the shadow database itself.
 * 6. adapter-pg runs a migration script split at every ";", which cuts a function's
 *    body (`$$ … ; … $$`) apart: `wholeScripts` sends each script as it is, in one
 *    simple query, as psql does (PostgreSQL runs its statements in order).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { bindMigrationAwareSqlAdapterFactory, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import * as engineGlue from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationList, SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm';

/** The folder holding package.json above this module: from the sources (server/db/) or the production bundle (dist/server/) alike. */
function projectRootAbove(file: string): string {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${file}`);
  }
}
const projectRoot = projectRootAbove(fileURLToPath(import.meta.url));
export const migrationsDir = path.join(projectRoot, 'prisma', 'migrations');
export const schemaPath = path.join(projectRoot, 'prisma', 'schema.prisma');

const noFilter: SchemaFilter = { externalTables: [], externalEnums: [] };

type SchemaEngineClass = typeof engineGlue.SchemaEngine;
let engineClass: Promise<SchemaEngineClass> | undefined;

/** Compiles the wasm engine once per process (wasm-bindgen cannot be initialised twice). */
function loadSchemaEngine(): Promise<SchemaEngineClass> {
  engineClass ??= (async () => {
    // (2) The glue calls `global.PRISMA_WASM_PANIC_REGISTRY.set_message` on a Rust panic.
    const globals = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
    globals.PRISMA_WASM_PANIC_REGISTRY ??= {
      set_message: (message) => {
        lastPanicMessage = message;
      },
    };

    // (1) Load the .wasm next to the glue module.
    const gluePath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmModule = await WebAssembly.compile(await readFile(gluePath.replace(/\.js$/, '.wasm')));

    // (3) Same glue, but timers it creates do not keep the process alive.
    const imports: Record<string, unknown> = { ...engineGlue };
    for (const name of Object.keys(imports)) {
      if (name.startsWith('__wbg_setTimeout_')) {
        imports[name] = (callback: () => void, ms: number) => setTimeout(callback, ms >>> 0).unref();
      }
    }
    const instance = await WebAssembly.instantiate(wasmModule, { './schema_engine_bg.js': imports as WebAssembly.ModuleImports });
    engineGlue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return engineGlue.SchemaEngine;
  })();
  return engineClass;
}

let lastPanicMessage: string | undefined;

async function withEngine<T>(adapterFactory: SqlMigrationAwareDriverAdapterFactory, use: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const SchemaEngineClass = await loadSchemaEngine();
  const bound = bindMigrationAwareSqlAdapterFactory(adapterFactory);
  const engine = await SchemaEngineClass.new({ datamodels: undefined }, () => {}, bound).catch((error: unknown) => {
    throw explainEngineError(error);
  });
  try {
    return await use(engine).catch((error: unknown) => {
      throw explainEngineError(error);
    });
  } finally {
    engine.free();
  }
}

/** The engine rejects with Errors (`SchemaConnectorError` with a Prisma code) or, on a panic, a bare `unreachable`. */
function explainEngineError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(`schema engine error: ${JSON.stringify(error)}`);
  if (lastPanicMessage && error instanceof WebAssembly.RuntimeError) {
    return new Error(`schema engine panicked: ${lastPanicMessage}`, { cause: error });
  }
  return error;
}

/** Reads prisma/migrations the way the Prisma CLI does (folders sorted by name). */
export async function loadMigrationList(directory = migrationsDir): Promise<MigrationList> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  const lockfilePath = path.join(directory, 'migration_lock.toml');
  const lockfileContent = await readFile(lockfilePath, 'utf8').catch(() => null);
  const migrationDirectories = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
      .map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: await readFile(path.join(directory, name, 'migration.sql'), 'utf8').then(
            (value) => ({ tag: 'ok' as const, value }),
            (error: Error) => ({ tag: 'error' as const, value: error.message }),
          ),
        },
      })),
  );
  return {
    baseDir: directory,
    lockfile: { path: 'migration_lock.toml', content: lockfileContent },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

/** `prisma migrate deploy`: applies the migrations not yet recorded in `_prisma_migrations`. */
export async function applyMigrations(adapterFactory: SqlMigrationAwareDriverAdapterFactory, directory = migrationsDir): Promise<string[]> {
  const migrationsList = await loadMigrationList(directory);
  return withEngine(adapterFactory, async (engine) => {
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: noFilter });
    return appliedMigrationNames;
  });
}

export type CreatedMigration = { name: string; path: string; sql: string } | null;

/**
 * `prisma migrate dev --create-only`: writes a new migration folder with the SQL
 * that takes the database from the existing migrations to `schema`. The engine
 * replays the existing migrations in a shadow database to know where they lead.
 * Returns null when the schema needs no change.
 */
export async function createMigration(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  name: string,
  { directory = migrationsDir, schema = schemaPath }: { directory?: string; schema?: string } = {},
): Promise<CreatedMigration> {
  const migrationsList = await loadMigrationList(directory);
  const schemaContent = await readFile(schema, 'utf8');
  return withEngine(adapterFactory, async (engine) => {
    // The engine must diagnose the history before it will create a migration.
    const { action } = await engine.devDiagnostic({ migrationsList, filters: noFilter });
    if (action.tag === 'reset') {
      throw new Error(`the database's migration history does not match prisma/migrations: ${action.reason}`);
    }
    const created = await engine.createMigration({
      draft: false,
      migrationName: name,
      migrationsList,
      schema: { files: [{ path: schema, content: schemaContent }] },
      filters: noFilter,
    });
    if (!created.migrationScript) return null;
    const folder = path.join(directory, created.generatedMigrationName);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, `migration.${created.extension}`), created.migrationScript);
    if (migrationsList.lockfile.content === null) {
      await writeFile(
        path.join(directory, 'migration_lock.toml'),
        '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
      );
    }
    return { name: created.generatedMigrationName, path: folder, sql: created.migrationScript };
  });
}

// ───────────────────────── adapters for the engine ─────────────────────────

/** (4) A pg client that reports `"char"` columns (OID 18) as text (OID 25), which adapter-pg can read. */
class CharAsTextClient extends pg.Client {
  override query(...args: unknown[]): never {
    const rewrite = (result: pg.QueryResult | pg.QueryResult[]) => {
      for (const single of Array.isArray(result) ? result : [result]) {
        for (const field of single?.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
      }
      return result;
    };
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (error: Error | null, result: pg.QueryResult) => last(error, error ? result : rewrite(result));
    }
    const returned = (super.query as (...a: unknown[]) => unknown)(...args);
    if (returned instanceof Promise) return returned.then(rewrite) as never;
    return returned as never;
  }
}

function migrationPool(connectionString: string): pg.Pool {
  // allowExitOnIdle: a one-off script must not wait for idle clients to time out.
  return new pg.Pool({ connectionString, Client: CharAsTextClient, max: 2, allowExitOnIdle: true });
}

/** The same server and credentials, another database (pg ignores `database` when given a connection string). */
export function withDatabaseName(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** (6) Runs each migration script whole, in one simple query, rather than split at every ";". */
function wholeScripts(adapter: SqlDriverAdapter, pool: pg.Pool): SqlDriverAdapter {
  const reportError = (adapter as unknown as { onError(error: unknown): never }).onError.bind(adapter);
  adapter.executeScript = async (script: string) => {
    try {
      await pool.query(script);
    } catch (error) {
      reportError(error);
    }
  };
  return adapter;
}

/** (5) Migration adapter for a PostgreSQL server; the role needs CREATEDB for the shadow database. */
export function postgresMigrationAdapter(connectionString: string): SqlMigrationAwareDriverAdapterFactory & { close(): Promise<void> } {
  const pool = migrationPool(connectionString);
  const factory = new PrismaPg(pool);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => wholeScripts(await factory.connect(), pool),
    async connectToShadowDb(): Promise<SqlDriverAdapter> {
      const shadowName = `prisma_shadow_${crypto.randomUUID().replaceAll('-', '')}`;
      await pool.query(`CREATE DATABASE "${shadowName}"`);
      const shadowPool = migrationPool(withDatabaseName(connectionString, shadowName));
      const shadow: SqlDriverAdapter = wholeScripts(await new PrismaPg(shadowPool).connect(), shadowPool);
      shadow.dispose = async () => {
        await shadowPool.end();
        await pool.query(`DROP DATABASE IF EXISTS "${shadowName}" WITH (FORCE)`);
      };
      return shadow;
    },
    close: () => pool.end(),
  };
}

/**
 * Migration adapter for PGlite; the shadow database is a second in-memory PGlite
 * (from `createShadow`, by default a new one), closed after use.
 */
export function pgliteMigrationAdapter(database: PGlite, createShadow: () => Promise<PGlite> = () => PGlite.create()): SqlMigrationAwareDriverAdapterFactory {
  const factory = new PrismaPGlite(database);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => factory.connect(),
    async connectToShadowDb(): Promise<SqlDriverAdapter> {
      const shadowDatabase = await createShadow();
      const shadow = await new PrismaPGlite(shadowDatabase).connect();
      shadow.dispose = () => shadowDatabase.close();
      return shadow;
    },
  };
}
