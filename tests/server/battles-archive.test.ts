/**
 * The archive of naval battles: a finished battle's record, exported with its seed, checks out die by die and by
 * replay (the verification route, the command line, an import); one changed die is found everywhere (the import is
 * refused with the problem named, the command line exits 1). Before the end the record has no seed and cannot be
 * verified yet.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { RULESETS, SCENARIOS } from '../../shared/naval/index.ts';
import type { BattleRecord } from '../../shared/naval/record.ts';
import { projectRoot } from '../../server/settings.ts';
import { battleCommand } from '../../tools/battle.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
let player: Browser;
let battleId: string;
let record: BattleRecord;
const folder = mkdtempSync(path.join(tmpdir(), 'battle-records-'));

type Detail = { id: string; status: string; actionCount: number; state: unknown; seed: string | null; imported: boolean };

/** A short ship-to-ship duel against the computer, played to its end by taking the first legal plot each turn. */
async function foughtBattle(browser: Browser): Promise<Detail> {
  const setup = { ...(structuredClone(SCENARIOS['ship-to-ship'].find((s) => s.id === 'duel')!.setup) as object), turnLimit: 3 };
  const created = await browser.request('POST', '/api/battles', {
    title: 'For the archive',
    ruleset: 'ship-to-ship',
    setup,
    seats: [{ side: 'macedon', player: 'computer' }],
    join: 'rhodes',
  });
  expect(created.statusCode, created.body).toBe(201);
  let detail = created.json() as Detail;
  while (detail.status === 'active') {
    const response = await browser.request('POST', `/api/battles/${detail.id}/actions`, {
      // Rhodes's first legal plot, from the engine as the browser has it.
      action: RULESETS['ship-to-ship'].legalActions(detail.state, 'rhodes')[0],
      expected: detail.actionCount,
    });
    expect(response.statusCode, response.body).toBe(200);
    detail = response.json();
  }
  return detail;
}

function saved(name: string, value: unknown): string {
  const file = path.join(folder, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** The record with one logged die changed to another face. */
function withChangedRoll(original: BattleRecord): { record: BattleRecord; where: string } {
  const changed = structuredClone(original) as BattleRecord & { actions: { log: { rolls: { index: number; sides: number; value: number }[] }[] }[] };
  for (const action of changed.actions)
    for (const line of action.log)
      for (const roll of line.rolls) {
        roll.value = (roll.value % roll.sides) + 1;
        return { record: changed, where: `roll ${roll.index}` };
      }
  throw new Error('the battle rolled no dice after its start');
}

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  player = await new Browser(app).register();
  const finished = await foughtBattle(player);
  battleId = finished.id;
  const exported = await player.request('GET', `/api/battles/${battleId}/export`);
  expect(exported.statusCode, exported.body).toBe(200);
  record = exported.json();
}, 60_000);
afterAll(() => testApp.close(), 60_000);

describe('a finished battle', () => {
  test('exports its record with the seed, and anyone may have it', async () => {
    expect(record.seed).toMatch(/^[0-9a-f]{64}$/);
    // Both sides plotted at least once (the stronger computer may sink Rhodes before the three turns are up).
    expect(record.actions.length).toBeGreaterThanOrEqual(2);
    const byNobody = await new Browser(app).request('GET', `/api/battles/${battleId}/export`);
    expect(byNobody.json()).toEqual(record);
  });

  test('checks out: the verification route and the command line', async () => {
    const report = (await new Browser(app).request('GET', `/api/battles/${battleId}/verification`)).json();
    expect(report).toMatchObject({ battleId, ok: true, problems: [], actions: record.actions.length, seed: record.seed, salt: record.salt });
    expect(report.rolls).toBeGreaterThan(0);
    const cli = battleCommand(['verify', saved('good.json', record)]);
    expect(cli.exitCode, cli.output).toBe(0);
    expect(cli.output).toContain('OK');
  });

  test('imports as a finished battle of the archive', async () => {
    const response = await player.request('POST', '/api/battles/import', { record, title: 'Imported duel' });
    expect(response.statusCode, response.body).toBe(201);
    const imported = response.json();
    expect(imported).toMatchObject({ status: 'finished', imported: true, title: 'Imported duel', actionCount: record.actions.length, seed: record.seed });
    const again = (await player.request('GET', `/api/battles/${imported.id}/export`)).json();
    expect(again).toEqual(record);
    expect((await player.request('GET', `/api/battles/${imported.id}/verification`)).json().ok).toBe(true);
  });
});

describe('a changed die', () => {
  test('is refused at import, with the problem named', async () => {
    const { record: tampered, where } = withChangedRoll(record);
    const response = await player.request('POST', '/api/battles/import', { record: tampered });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe('import_invalid');
    expect(response.json().problems.join('\n')).toContain(where);
  });

  test('makes the command line exit 1, naming it', async () => {
    const { record: tampered, where } = withChangedRoll(record);
    const file = saved('tampered.json', tampered);
    expect(battleCommand(['verify', file])).toMatchObject({ exitCode: 1, output: expect.stringContaining(where) });
    // As run from the shell: npm run -s battle -- verify FILE.
    const run = spawnSync('npx', ['tsx', 'tools/battle.ts', 'verify', file], { cwd: projectRoot, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain('MISMATCH');
  });

  test('a seed that is not the one committed to is refused', async () => {
    const response = await player.request('POST', '/api/battles/import', { record: { ...record, seed: 'f'.repeat(64) } });
    expect(response.statusCode).toBe(422);
    expect(response.json().problems[0]).toContain('commitment');
  });

  test('a record that is not one is a 400 naming the field; the command line exits 2', async () => {
    const response = await player.request('POST', '/api/battles/import', { record: { ...record, format: 'other' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('body.record.format');
    expect(battleCommand(['verify', saved('not-a-record.json', { hello: 1 })]).exitCode).toBe(2);
    expect(battleCommand(['check']).exitCode).toBe(2);
  });
});

describe('a battle going on', () => {
  test('exports without its seed, and cannot be verified yet', async () => {
    const [host, guest] = await Promise.all([new Browser(app).register(), new Browser(app).register()]);
    const created = (await host.request('POST', '/api/battles', { title: 'Going on', ruleset: 'ship-to-ship', scenario: 'duel', join: 'rhodes' })).json();
    expect((await host.request('GET', `/api/battles/${created.id}/export`)).statusCode).toBe(409);
    await guest.request('POST', `/api/battles/${created.id}/join`, { seat: 'macedon' });
    const exported = (await host.request('GET', `/api/battles/${created.id}/export`)).json();
    expect(exported.seed).toBeUndefined();
    expect(exported.commitment).toBe(created.commitment);
    expect((await host.request('GET', `/api/battles/${created.id}/verification`)).statusCode).toBe(409);
    expect((await host.request('POST', '/api/battles/import', { record: exported })).json().error.code).toBe('import_invalid');
  });
});
