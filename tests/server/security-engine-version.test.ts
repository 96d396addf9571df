/**
 * Archive integrity across engine versions: every processed phase records the
 * ENGINE_VERSION that adjudicated it (database, phase list, exports), and an
 * import of phases recorded under another version is re-adjudicated and either
 * accepted and flagged (it reproduces) or refused with a 422 that says which
 * phase and which versions (it does not) — never a bare "does not reproduce".
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ENGINE_VERSION } from '../../shared/version.ts';
import type { ExportedGame } from '../../shared/api/archive.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { exportOf, randomPlayed } from './helpers/random-export.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
let importer: Browser;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  importer = await new Browser(app).register();
}, 60_000);
afterAll(() => testApp.close(), 60_000);

/** Four phases of a seeded Standard game: three processed, the last open. */
const played = randomPlayed('standard', 7, 4);
const fresh = (): ExportedGame => structuredClone(exportOf('standard', played, 'Versions'));
const withVersions = (data: ExportedGame, version: number | null | undefined) => {
  for (const phase of data.phases) if (phase.status === 'processed') phase.engineVersion = version;
  return data;
};

async function importExport(data: ExportedGame) {
  return importer.request('POST', '/api/games/import', { export: data });
}

describe('engine versions', () => {
  test('processing records ENGINE_VERSION in the phase, the phase list and the export', async () => {
    const imported = await importExport(withVersions(fresh(), ENGINE_VERSION));
    expect(imported.statusCode, imported.body).toBe(201);
    const gameId = imported.json().id;
    expect((await importer.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);

    const rows = await app.prisma.phase.findMany({ where: { gameId }, orderBy: { index: 'asc' } });
    expect(rows.map((row) => [row.status, row.engineVersion])).toEqual([
      ['processed', ENGINE_VERSION],
      ['processed', ENGINE_VERSION],
      ['processed', ENGINE_VERSION],
      ['processed', ENGINE_VERSION], // processed here, just now
      ['open', null],
    ]);
    const list = (await importer.request('GET', `/api/games/${gameId}/phases`)).json();
    expect(list.phases.map((phase: { engineVersion: number | null }) => phase.engineVersion)).toEqual(
      [1, 1, 1, 1, null].map((v) => (v === null ? null : ENGINE_VERSION)),
    );

    const exported = (await importer.request('GET', `/api/games/${gameId}/export`)).json() as ExportedGame;
    expect(exported.engineVersion).toBe(ENGINE_VERSION);
    expect(exported.phases.map((phase) => phase.engineVersion)).toEqual([ENGINE_VERSION, ENGINE_VERSION, ENGINE_VERSION, ENGINE_VERSION, null]);
    // The export re-imports as it is: same version, nothing to flag.
    const again = await importExport(exported);
    expect(again.statusCode, again.body).toBe(201);
    const log = (await importer.request('GET', `/api/games/${again.json().id}/gm/log`)).json();
    expect(log.actions.at(-1).details.engineVersions).toEqual({ server: ENGINE_VERSION, exporter: ENGINE_VERSION, rechecked: [] });
  });

  test('a roll-back forgets the version of the adjudication it undoes; processing again records it anew', async () => {
    const gameId = (await importExport(withVersions(fresh(), ENGINE_VERSION + 5))).json().id;
    expect((await importer.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 2 })).statusCode).toBe(200);
    const reopened = await app.prisma.phase.findUniqueOrThrow({ where: { gameId_index: { gameId, index: 2 } } });
    expect(reopened).toMatchObject({ status: 'open', engineVersion: null });
    const discarded = await app.prisma.discardedPhase.findMany({ where: { gameId }, orderBy: { index: 'asc' } });
    expect(discarded.map((row) => [row.index, row.engineVersion])).toEqual([
      [2, ENGINE_VERSION + 5],
      [3, null],
    ]);
    expect((await importer.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    expect((await app.prisma.phase.findUniqueOrThrow({ where: { gameId_index: { gameId, index: 2 } } })).engineVersion).toBe(ENGINE_VERSION);
  });

  test.each([
    ['another engine version', ENGINE_VERSION + 1],
    ['no engine version (an export from before versions were recorded)', undefined],
  ])('phases recorded under %s that reproduce are accepted and flagged', async (_what, version) => {
    const data = withVersions(fresh(), version);
    data.engineVersion = version;
    const imported = await importExport(data);
    expect(imported.statusCode, imported.body).toBe(201);
    const gameId = imported.json().id;
    const log = (await importer.request('GET', `/api/games/${gameId}/gm/log`)).json();
    const entry = log.actions.find((action: { action: string }) => action.action === 'import');
    expect(entry.details.engineVersions).toEqual({
      server: ENGINE_VERSION,
      exporter: version ?? null,
      rechecked: [0, 1, 2].map((phase) => ({ phase, recordedVersion: version ?? null })),
    });
    // The record keeps the version each phase was adjudicated with.
    const list = (await importer.request('GET', `/api/games/${gameId}/phases`)).json();
    expect(list.phases.map((phase: { engineVersion: number | null }) => phase.engineVersion)).toEqual([
      version ?? null,
      version ?? null,
      version ?? null,
      null,
    ]);
  });

  test('a phase recorded under another engine version that adjudicates differently here is refused, naming both versions', async () => {
    const gamesBefore = await app.prisma.game.count();
    const data = withVersions(fresh(), ENGINE_VERSION);
    data.phases[1].engineVersion = ENGINE_VERSION + 1;
    // What the other version "recorded": the first result turned round.
    data.phases[1].results![0] = { ...data.phases[1].results![0], success: !data.phases[1].results![0].success };
    const refused = await importExport(data);
    expect(refused.statusCode, refused.body).toBe(422);
    const { error } = refused.json();
    expect(error.code).toBe('engine_version_mismatch');
    expect(error.message).toContain('phases[1]');
    expect(error.message).toContain(`engine version ${ENGINE_VERSION + 1}`);
    expect(error.message).toContain(`runs engine version ${ENGINE_VERSION}`);
    expect(error.message).toContain('results[0]');

    delete data.phases[1].engineVersion;
    const unknown = (await importExport(data)).json().error;
    expect(unknown.code).toBe('engine_version_mismatch');
    expect(unknown.message).toContain('an unknown engine version');

    // Claiming this very version, the same difference is tampering.
    data.phases[1].engineVersion = ENGINE_VERSION;
    const tampered = (await importExport(data)).json().error;
    expect(tampered.code).toBe('import_invalid');
    expect(tampered.message).toContain('does not reproduce: phases[1]');
    expect(await app.prisma.game.count()).toBe(gamesBefore);
  });

  test('a phase an older engine recorded in its own words is read as this engine words it, and reproduces', async () => {
    // Seed 1 of Standard: in its eighth phase a power has builds and no free home centre to build in.
    const data = exportOf('standard', randomPlayed('standard', 1, 9), 'Older words');
    const waived = data.phases[7].results!.findIndex((result) => result.code === 'no-build-site');
    expect(waived).toBeGreaterThanOrEqual(0);
    const { unused, ...sentence } = data.phases[7].results![waived];
    expect(unused).toBeGreaterThan(0);
    // Version 5 said it only in the sentence: a plain waive, no count.
    for (const phase of data.phases) if (phase.status === 'processed') phase.engineVersion = 5;
    data.engineVersion = 5;
    data.phases[7].results![waived] = { ...sentence, code: 'waived' };
    expect(data.phases[7].results![waived].reason).toMatch(/no free build site/i);

    const imported = await importExport(data);
    expect(imported.statusCode, imported.body).toBe(201);
    const gameId = imported.json().id;
    const log = (await importer.request('GET', `/api/games/${gameId}/gm/log`)).json();
    const entry = log.actions.find((action: { action: string }) => action.action === 'import');
    expect(entry.details.engineVersions.rechecked).toContainEqual({ phase: 7, recordedVersion: 5 });
    // Kept as recorded, shown as this engine says it.
    const stored = await app.prisma.phase.findUniqueOrThrow({ where: { gameId_index: { gameId, index: 7 } } });
    expect((stored.results as { code: string }[])[waived].code).toBe('waived');
    const shown = (await importer.request('GET', `/api/games/${gameId}/phases/7`)).json();
    expect(shown.results[waived]).toMatchObject({ code: 'no-build-site', unused });
  });
});
