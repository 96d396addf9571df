/**
 * A whole Diadochi V game played through the HTTP API by five players, from
 * creation to a DIAS draw: phases processed early by ready flags and at their
 * deadlines (driving the scheduler), a player missing deadlines into civil
 * disorder and coming back, loans, press, the archive once it has ended,
 * reproducibility from the database, export/import and DATC export.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { getVariant, runDatcText } from '../../shared/index.ts';
import { projectRoot } from '../../server/settings.ts';
import { seeded, randomOrders } from '../support/random-game.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { connect, listen } from './helpers/live.ts';
import { currentPhase, ordersByPower, startGame, submitAccepted } from './helpers/play.ts';
import { expectReproducible } from './helpers/reproduce.ts';

vi.setConfig({ testTimeout: 120_000 });

let testApp: TestApp;
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  url = await listen(app);
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const variant = getVariant('diadochi-v')!;

/** Tries loans from every power's centres until the engine accepts one; checks refusals are 422 with the engine's reason. */
async function lendSomething(gameId: string, byPower: Map<string, Browser>, powers: string[], supply: { power: string; centres: string[] }[]) {
  for (const lender of powers) {
    const row = supply.find((line) => line.power === lender)!;
    const borrower = powers.find((power) => power !== lender && (supply.find((line) => line.power === power)?.centres.length ?? 0) > 0);
    if (!borrower) continue;
    for (const centre of row.centres) {
      const response = await byPower.get(lender)!.request('POST', `/api/games/${gameId}/loans`, { centre, to: borrower });
      if (response.statusCode === 201) return { ...response.json(), lender, borrower, centre };
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().error.code).toBe('loan_refused');
    }
  }
  throw new Error('no power could lend any centre');
}

describe('a Diadochi V game from creation to a draw', () => {
  test('played by five players through the API, with early and deadline processing, civil disorder, loans and press', async () => {
    const game = await startGame(app, { maxMissedDeadlines: 2 });
    const { gameId, master, byPower, powers } = game;
    const watcher = await connect(url, { cookie: master.cookie! });
    watcher.send({ type: 'subscribe', channel: `game:${gameId}` });
    await watcher.next('subscribed');

    // Press: private, public, and from the game master.
    const [first, second, third] = powers;
    expect((await byPower.get(first)!.request('POST', `/api/games/${gameId}/press`, { to: [second], body: 'Shall we share the sea?' })).statusCode).toBe(201);
    expect((await byPower.get(third)!.request('POST', `/api/games/${gameId}/press`, { to: 'all', body: 'Peace to all.' })).statusCode).toBe(201);
    expect((await master.request('POST', `/api/games/${gameId}/press`, { to: 'all', body: 'Good luck.', asGameMaster: true })).statusCode).toBe(201);

    const rnd = seeded(2026);
    const absentee = powers[4];
    let early = 0;
    let byDeadline = 0;
    let loan: { id: string; lender: string; borrower: string; centre: string } | null = null;
    let loanEnded = false;

    for (let round = 0; round < 12; round++) {
      const phase = await currentPhase(master, gameId);
      expect(phase.status).toBe('open');
      const orders = ordersByPower(randomOrders(variant, phase.state, rnd));
      // Rounds 1 and 2 run to their deadlines with the absentee silent: two missed deadlines put it in civil disorder.
      const toDeadline = round === 1 || round === 2 || round === 7;
      // Silent from round 1, in civil disorder from round 3 (not waited for), back at round 8.
      const absenteeSilent = round >= 1 && round < 8;
      // The absentee, back from civil disorder, submits first: until it does, nobody waits for it.
      const toOrder = phase.powers.filter((line) => line.mustOrder).sort((a, b) => Number(b.power === absentee) - Number(a.power === absentee));
      if (round === 3) {
        expect(phase.powers.find((line) => line.power === absentee)).toMatchObject({ playerStatus: 'civil-disorder', missedDeadlines: 2 });
      }
      const replies: { power: string; phaseProcessed: boolean }[] = [];
      for (const [i, line] of toOrder.entries()) {
        if (line.power === absentee && absenteeSilent) continue;
        const reply = await submitAccepted(byPower.get(line.power)!, gameId, phase.index, orders.get(line.power) ?? [], !toDeadline, i % 2 === 1);
        replies.push({ power: line.power, phaseProcessed: reply.phaseProcessed });
      }

      if (toDeadline || replies.length === 0) {
        // Nobody (active) had to order, or we wait for the deadline: the scheduler processes it once due, not before.
        expect(await app.scheduler.processDue(new Date(Date.parse(phase.deadlineAt!) - 60_000))).toBe(0);
        expect(await app.scheduler.processDue(new Date(Date.parse(phase.deadlineAt!) + 1000))).toBe(1);
        byDeadline += 1;
      } else {
        // Ready flags: only the last one processes the phase, at once.
        expect(replies.slice(0, -1).every((reply) => !reply.phaseProcessed)).toBe(true);
        expect(replies.at(-1)!.phaseProcessed, `round ${round}: ${JSON.stringify(phase.powers)} ${JSON.stringify(replies)}`).toBe(true);
        early += 1;
      }
      const processed = (await master.request('GET', `/api/games/${gameId}/phases/${phase.index}`)).json();
      expect(processed.status).toBe('processed');
      expect(processed.results.length).toBeGreaterThan(0);
      expect(processed.stateAfter).not.toBeNull();

      // Loans: made in one phase (so that phase is adjudicated with it), ended by the borrower later;
      // neither while an adjustment is open (tests/server/loans.test.ts).
      const next = await currentPhase(master, gameId);
      const loansOpen = next.state.phase.type !== 'adjustment';
      if (round >= 4 && !loan && loansOpen) {
        loan = await lendSomething(gameId, byPower, powers, next.supply);
        const after = await currentPhase(master, gameId);
        expect(after.state.loans).toContainEqual({ centre: loan!.centre, from: loan!.lender, to: loan!.borrower });
        const listed = (await master.request('GET', `/api/games/${gameId}/loans`)).json();
        expect(listed.current).toContainEqual({ centre: loan!.centre, from: loan!.lender, to: loan!.borrower });
        expect(listed.loans[0]).toMatchObject({ id: loan!.id, status: 'active', lender: loan!.lender, borrower: loan!.borrower });
      }
      if (round >= 9 && loan && loansOpen && !loanEnded) {
        loanEnded = true;
        const active = (await master.request('GET', `/api/games/${gameId}/loans`)).json();
        const row = active.loans.find((entry: { id: string }) => entry.id === loan!.id);
        if (row.status === 'active') {
          const ended = await byPower.get(loan.borrower)!.request('POST', `/api/games/${gameId}/loans/${loan.id}/end`);
          expect(ended.statusCode, ended.body).toBe(200);
          expect(ended.json()).toMatchObject({ status: 'returned', endReason: `ended by ${loan.borrower}` });
          expect((await currentPhase(master, gameId)).state.loans).not.toContainEqual({ centre: loan.centre, from: loan.lender, to: loan.borrower });
        }
      }
    }
    expect(early).toBeGreaterThanOrEqual(6);
    expect(byDeadline).toBeGreaterThanOrEqual(3);
    expect(loan).not.toBeNull();

    // The absentee came back by submitting: active again, its missed deadlines reset.
    const seats = (await master.request('GET', `/api/games/${gameId}`)).json().players;
    expect(seats.find((seat: { power: string }) => seat.power === absentee)).toMatchObject({ status: 'active', missedDeadlines: 0 });

    // DIAS: every survivor votes for the draw; the last vote ends the game.
    const phase = await currentPhase(master, gameId);
    const votes = (await master.request('GET', `/api/games/${gameId}/votes`)).json();
    const survivors: string[] = votes.survivors;
    expect(survivors.length).toBeGreaterThan(1);
    let last;
    for (const power of survivors) {
      last = await byPower.get(power)!.request('POST', `/api/games/${gameId}/votes`, { kind: 'draw' });
      expect(last.statusCode, last.body).toBe(200);
    }
    expect(last!.json().outcome).toEqual({ kind: 'draw', powers: survivors });
    const finished = (await master.request('GET', `/api/games/${gameId}`)).json();
    expect(finished).toMatchObject({ status: 'finished', outcome: { kind: 'draw', powers: survivors } });
    expect((await byPower.get(first)!.request('PUT', `/api/games/${gameId}/phases/${phase.index}/orders`, { orders: '' })).json().error.code).toBe(
      'game_not_active',
    );
    const finishedEvent = await watcher.next('event', (message) => message.event.type === 'game.finished');
    expect(finishedEvent.event).toEqual({ type: 'game.finished', gameId, outcome: { kind: 'draw', powers: survivors } });
    const processedEvents = watcher.messages.filter((message) => message.type === 'event' && message.event.type === 'phase.processed');
    expect(processedEvents.length).toBe(12);
    watcher.socket.close();

    // The archive: everything is public now, private press included.
    const stranger = new Browser(app);
    const firstPhase = (await stranger.request('GET', `/api/games/${gameId}/phases/0`)).json();
    expect(firstPhase.orders.length).toBeGreaterThan(0);
    const press = (await stranger.request('GET', `/api/games/${gameId}/press`)).json();
    expect(press.messages.map((message: { body: string }) => message.body)).toEqual(['Good luck.', 'Peace to all.', 'Shall we share the sea?']);
    // The finished list says how the game ended.
    const listed = (await stranger.request('GET', `/api/games?filter=finished`)).json().games.find((g: { id: string }) => g.id === gameId);
    expect(listed).toMatchObject({ status: 'finished', outcome: (await stranger.request('GET', `/api/games/${gameId}`)).json().outcome });
    expect(listed.outcome).toMatchObject({ kind: expect.any(String), powers: expect.any(Array) });

    // Reproducible from the database alone.
    expect(await expectReproducible(app, gameId)).toBe(12);

    // Export, then import as another user: the same history, re-adjudicated on the way in.
    const exported = (await stranger.request('GET', `/api/games/${gameId}/export`)).json();
    expect(exported).toMatchObject({ complete: true, game: { status: 'finished', outcome: { kind: 'draw' } } });
    expect(exported.phases).toHaveLength(13);
    expect(exported.press).toHaveLength(3);
    // The scheduler ran with its clock up to days ahead (deadlines passing at once): a history from the future, phases
    // processed after the game ended, which an import refuses. Those phases are brought back to the game's end.
    for (const phase of exported.phases) if (phase.processedAt > exported.game.finishedAt) phase.processedAt = exported.game.finishedAt;
    const importer = await new Browser(app).register();
    const imported = await importer.request('POST', '/api/games/import', { export: exported });
    expect(imported.statusCode, imported.body.slice(0, 500)).toBe(201);
    const copy = imported.json();
    expect(copy).toMatchObject({ status: 'finished', imported: true, gameMaster: importer.user, outcome: { kind: 'draw', powers: survivors } });
    expect(await expectReproducible(app, copy.id)).toBe(12);
    const again = (await importer.request('GET', `/api/games/${copy.id}/export`)).json();
    const essentials = (data: typeof exported) => ({
      game: { ...data.game, createdAt: undefined, finishedAt: undefined, startedAt: undefined },
      phases: data.phases,
      press: data.press.map((message: { sender: unknown }) => ({ ...message, sender: undefined })),
      loans: data.loans,
      players: data.players.map((player: { power: string; status: string }) => player.power),
    });
    expect(essentials(again)).toEqual(essentials(exported));

    // Every phase exported as a DATC case re-checks, in-process and with `npm run -s datc -- FILE`.
    const datc = await stranger.request('GET', `/api/games/${gameId}/export/datc`);
    expect(datc.statusCode).toBe(200);
    expect(datc.headers['content-type']).toContain('text/plain');
    const suite = runDatcText(datc.body);
    expect(suite.fileProblems).toEqual([]);
    expect(suite.reports.map((report) => [report.id, report.passed, [...report.problems, ...report.differences]])).toEqual(
      suite.reports.map((report) => [report.id, true, []]),
    );
    expect(suite.reports).toHaveLength(12);
    const folder = await mkdtemp(path.join(tmpdir(), 'datc-'));
    try {
      const file = path.join(folder, 'game.datc');
      await writeFile(file, datc.body);
      const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'datc', '--', file], { cwd: projectRoot });
      expect(stdout.trim().split('\n').at(-1)).toBe('12 passed, 0 failed');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
