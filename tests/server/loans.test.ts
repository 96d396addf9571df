/**
 * Diadochi V loans (rule 9) around an adjustment: an open adjustment counts the
 * loans as they stood when it opened, so no loan is made or ended while the
 * players order their builds and removals; before and after it, they are.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, startGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

describe('loans and the adjustment', () => {
  test('no loan is made or ended while an adjustment is open; the builds due stay as they were', async () => {
    const { gameId, master, byPower } = await startGame(app);
    const egypt = byPower.get('Egypt')!;
    const rome = byPower.get('Rome')!;
    // Spring 240 BC: Egypt (Alexandria ×2, Cyprus, Ptolemais; three units) lends Cyprus to Syria.
    const lent = await egypt.request('POST', `/api/games/${gameId}/loans`, { centre: 'Cyp', to: 'Syria' });
    expect(lent.statusCode, lent.body).toBe(201);
    const loanId = lent.json().id as string;

    // Rome leaves Ravenna free to build in; the rest hold. Winter 240 BC: Rome has builds due.
    const moved = await rome.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: 'A Rav - Cis', ready: false });
    expect(moved.statusCode, moved.body).toBe(200);
    for (let i = 0; i < 2; i++) expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    const winter = await currentPhase(master, gameId);
    expect(winter.name).toBe('Winter 240 BC Adjustment');
    const romeDue = async () => {
      const rome = (await currentPhase(master, gameId)).supply.find((row) => row.power === 'Rome')!;
      return rome.supply - rome.units;
    };
    const due = await romeDue();
    expect(due).toBeGreaterThan(0);

    const lendRome = await rome.request('POST', `/api/games/${gameId}/loans`, { centre: 'Rom', to: 'Syria' });
    expect(lendRome.statusCode).toBe(422);
    expect(lendRome.json().error).toEqual({ code: 'loan_refused', message: expect.stringContaining('not made or ended during an adjustment') });
    const endEarly = await egypt.request('POST', `/api/games/${gameId}/loans/${loanId}/end`);
    expect(endEarly.statusCode).toBe(422);
    expect(endEarly.json().error.message).toContain('wait for the next phase');
    expect(await romeDue()).toBe(due);
    const listed = (await master.request('GET', `/api/games/${gameId}/loans`)).json();
    expect(listed.loans).toEqual([expect.objectContaining({ id: loanId, status: 'active' })]);

    // Spring 239 BC: the loan can be ended again.
    expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    expect((await currentPhase(master, gameId)).name).toBe('Spring 239 BC Movement');
    const ended = await egypt.request('POST', `/api/games/${gameId}/loans/${loanId}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ id: loanId, status: 'returned' });
  });
});
