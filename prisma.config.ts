// Configuration of the Prisma CLI (used here only for `prisma generate`).
// Migrations are not run by the CLI: its migrate commands need a native engine
// binary that cannot be downloaded offline. server/db/migrate.ts drives Prisma's
// wasm schema engine instead, with the same prisma/migrations folder.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
