/**
 * `npx tsx server/admin.ts list | grant <username> | revoke <username>`: site
 * administrators, from the command line only (server/admin/admins.ts). Uses the
 * server's own environment (DATABASE_URL, or the PGlite database in DATA_DIR,
 * which only one process can open: stop the server first).
 */
import path from 'node:path';
import { adminCommand } from './admin/admins.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';

const config = loadConfig();
const database = await openDatabase(
  config.DATABASE_URL ? { kind: 'postgres', url: config.DATABASE_URL, poolSize: 1 } : { kind: 'pglite', dataDir: path.join(config.DATA_DIR, 'pglite') },
);
try {
  await database.migrate();
  const { exitCode, output } = await adminCommand(database.prisma, process.argv.slice(2), config.ADMIN_USERS !== null);
  (exitCode === 0 ? console.log : console.error)(output);
  process.exitCode = exitCode;
} finally {
  await database.close();
}
