/**
 * Makes the database available to every route as `app.database` / `app.prisma`,
 * applies pending migrations before the server takes requests, and closes the
 * database when the app closes (if the app opened it).
 */
import fp from 'fastify-plugin';
import { openDatabase, type Database, type DatabaseOptions } from './database.ts';
import { isDatabaseUnavailable } from './errors.ts';

export type DatabasePluginOptions = {
  /** Options to open one (closed with the app), or an open database shared with others (left open). */
  database: DatabaseOptions | Database;
  /** How long to keep retrying when the database is unreachable at start-up. */
  startupTimeoutMs?: number;
};

export default fp<DatabasePluginOptions>(
  async (app, { database, startupTimeoutMs = 30_000 }) => {
    const ownsDatabase = !('prisma' in database);
    const db = ownsDatabase ? await openDatabase(database, app.log) : database;
    if (ownsDatabase) app.addHook('onClose', () => db.close());
    const applied = await retryWhileUnavailable(
      () => db.migrate(),
      startupTimeoutMs,
      (error) => app.log.warn({ err: error }, 'database unavailable at start-up; retrying'),
    ).catch(async (error: unknown) => {
      // The app will not start, so its onClose hooks will not run: close what we opened.
      if (ownsDatabase) await db.close().catch(() => {});
      throw error;
    });
    if (applied.length > 0) app.log.info({ migrations: applied }, 'applied database migrations');
    app.decorate('database', db);
    app.decorate('prisma', db.prisma);
  },
  { name: 'database' },
);

async function retryWhileUnavailable<T>(attempt: () => Promise<T>, timeoutMs: number, onRetry: (error: unknown) => void): Promise<T> {
  const giveUpAt = Date.now() + timeoutMs;
  for (let delayMs = 250; ; delayMs = Math.min(delayMs * 2, 5_000)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + delayMs > giveUpAt) throw error;
      onRetry(error);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
