/**
 * `npm run soak -- memory`: the memory attacks of tests/server/import-memory.test.ts
 * several times over with more readers, on a database of its own on the
 * PostgreSQL of DATABASE_URL (the budget is PostgreSQL's: an embedded PGlite
 * lives in the server's own memory). Throws unless the server survived,
 * answers, logged no heap error and stayed under RSS_BUDGET.
 */
import { createTestDatabase, usingPostgres } from '../helpers/database.ts';
import { memoryScenario, RSS_BUDGET } from './memory-attack.ts';

const MB = 1024 * 1024;

export async function memorySoak(options: { rounds: number; exporters: number; log: (line: string) => void }): Promise<void> {
  if (!usingPostgres) throw new Error('the memory soak needs a PostgreSQL: set DATABASE_URL (postgresql://…)');
  const database = await createTestDatabase();
  try {
    const report = await memoryScenario({
      databaseUrl: database.url!,
      rounds: options.rounds,
      exporters: options.exporters,
      longGamePhases: 150,
      log: options.log,
    });
    options.log(`RSS ${(report.rssBefore / MB).toFixed(0)} MB before, peak ${(report.rssPeak / MB).toFixed(0)} MB (budget ${RSS_BUDGET / MB} MB)`);
    const problems = [
      report.health !== 200 && `/api/health answered ${report.health}`,
      report.exited && 'the server exited',
      report.heapErrors.length > 0 && `heap errors in the log: ${report.heapErrors.join(' | ').slice(0, 1000)}`,
      report.rssPeak >= RSS_BUDGET && `resident memory peaked at ${(report.rssPeak / MB).toFixed(0)} MB`,
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`memory soak: ${problems.join('; ')}`);
  } finally {
    await database.drop();
  }
}
