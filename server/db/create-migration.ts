/**
 * `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
 * with the SQL that brings a database from the existing migrations to prisma/schema.prisma.
 *
 * It works on two throw-away in-memory PGlite databases (the database to diagnose and
 * the shadow database the engine replays the migrations into), so it needs no server
 * and never touches real data. Review the SQL, then commit it with the schema change.
 */
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations, createMigration, pgliteMigrationAdapter } from './migrate.ts';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/i.test(name)) {
  console.error('usage: npm run db:migration -- <name>   (letters, digits and _ only, e.g. add_game_notes)');
  process.exit(2);
}

const database = await PGlite.create();
try {
  const adapter = pgliteMigrationAdapter(database);
  await applyMigrations(adapter);
  const created = await createMigration(adapter, name);
  if (created) {
    console.log(`Created ${created.path}/migration.sql:\n\n${created.sql}`);
  } else {
    console.log('prisma/schema.prisma matches the migrations already: no migration created.');
  }
} finally {
  await database.close();
}
