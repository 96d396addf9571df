/**
 * Players' votes on the clock through the API: proposing, agreeing and disagreeing under the unanimous and the
 * majority rule; a vote that passes pauses, resumes or extends exactly as the game master's tool does (deadline
 * values); failing at once, on expiry and by withdrawal; who may vote; names in anonymous games; the GM log.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const HOUR = 3600_000;
const votesUrl = (game: StartedGame) => `/api/games/${game.gameId}/clock-votes`;
const propose = (game: StartedGame, power: string, body: Record<string, unknown>) => game.byPower.get(power)!.request('POST', votesUrl(game), body);
const ballot = (game: StartedGame, power: string, voteId: string, agree: boolean) =>
  game.byPower.get(power)!.request('POST', `${votesUrl(game)}/${voteId}/ballot`, { agree });
const deadlineOf = async (game: StartedGame) => Date.parse((await currentPhase(game.master, game.gameId)).deadlineAt!);
const gmLog = async (game: StartedGame) =>
  (await game.master.request('GET', `/api/games/${game.gameId}/gm/log`)).json().actions as {
    action: string;
    actor: unknown;
    details: Record<string, unknown>;
  }[];

describe('unanimous (the default)', () => {
  test('an extension passes when every power agrees, and moves the deadline exactly as the game master would', async () => {
    const game = await startGame(app);
    const [first, ...others] = game.powers;
    const before = await deadlineOf(game);
    const proposed = await propose(game, first, { kind: 'extend', extendSeconds: 6 * 3600 });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const { open, rule, voters, needed } = proposed.json();
    expect({ rule, voters, needed }).toEqual({ rule: 'unanimous', voters: game.powers, needed: 5 });
    expect(open).toMatchObject({ kind: 'extend', extendSeconds: 21600, proposedBy: first, status: 'open', ballots: [{ power: first, agree: true }] });
    // Closes at the deadline here (sooner than a day).
    expect(Date.parse(open.closesAt)).toBe(Math.min(before, Date.now() + 24 * HOUR));

    for (const power of others.slice(0, -1)) {
      const cast = await ballot(game, power, open.id, true);
      expect(cast.statusCode, cast.body).toBe(200);
      expect(cast.json().open.status).toBe('open');
    }
    expect(await deadlineOf(game)).toBe(before);
    const last = await ballot(game, others.at(-1)!, open.id, true);
    expect(last.json().open).toBeNull();
    expect(last.json().recent[0]).toMatchObject({ id: open.id, status: 'passed' });
    expect(await deadlineOf(game)).toBe(before + 6 * HOUR);

    const log = await gmLog(game);
    const change = log.find((entry) => entry.action === 'change-deadline')!;
    expect(change).toMatchObject({
      actor: null,
      details: { from: new Date(before).toISOString(), to: new Date(before + 6 * HOUR).toISOString(), byVote: open.id },
    });
    expect(log.filter((entry) => entry.action === 'clock-vote').map((entry) => entry.details.event)).toEqual(['proposed', 'passed']);
  });

  test('one disagreement fails it at once; the deadline stays', async () => {
    const game = await startGame(app);
    const [first, second, third] = game.powers;
    const before = await deadlineOf(game);
    const { open } = (await propose(game, first, { kind: 'pause' })).json();
    const no = await ballot(game, second, open.id, false);
    expect(no.statusCode).toBe(200);
    expect(no.json().recent[0]).toMatchObject({ id: open.id, status: 'failed', reason: 'too many powers disagreed' });
    expect((await ballot(game, third, open.id, true)).json().error.code).toBe('clock_vote_closed');
    expect(await deadlineOf(game)).toBe(before);
    const detail = (await game.master.request('GET', `/api/games/${game.gameId}`)).json();
    expect(detail.pausedAt).toBeNull();
    expect((await gmLog(game)).at(-1)!.details).toMatchObject({ event: 'failed', disagree: [second] });
  });

  test('only players of powers in the game vote, once each; one open vote at a time; bad input named', async () => {
    const game = await startGame(app);
    const [first, second] = game.powers;
    const master = await game.master.request('POST', votesUrl(game), { kind: 'pause' });
    expect(master.statusCode).toBe(403);
    const stranger = await new Browser(app).register();
    expect((await stranger.request('POST', votesUrl(game), { kind: 'pause' })).statusCode).toBe(403);
    expect((await new Browser(app).request('POST', votesUrl(game), { kind: 'pause' })).statusCode).toBe(401);

    const tooShort = await propose(game, first, { kind: 'extend', extendSeconds: 60 });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().error.message).toContain('extendSeconds');
    const tooLong = await propose(game, first, { kind: 'extend', extendSeconds: 8 * 24 * 3600 });
    expect(tooLong.statusCode).toBe(400);
    expect((await propose(game, first, { kind: 'stop' })).statusCode).toBe(400);
    expect((await propose(game, first, { kind: 'resume' })).statusCode).toBe(409);

    const { open } = (await propose(game, first, { kind: 'pause' })).json();
    expect((await propose(game, second, { kind: 'extend', extendSeconds: 3600 })).json().error.code).toBe('clock_vote_open');
    expect((await ballot(game, first, open.id, true)).json().error.code).toBe('already_voted');
    expect((await ballot(game, second, open.id, true)).statusCode).toBe(200);
    expect((await ballot(game, second, open.id, false)).json().error.code).toBe('already_voted');
    expect((await game.master.request('POST', `${votesUrl(game)}/${open.id}/ballot`, { agree: false })).statusCode).toBe(403);
    expect((await stranger.request('POST', `${votesUrl(game)}/${open.id}/ballot`, { agree: false })).statusCode).toBe(403);
    // Everyone who may see the game reads the votes.
    expect((await stranger.request('GET', votesUrl(game))).json().open.ballots).toHaveLength(2);
  });

  test('the proposer withdraws it; nobody else may', async () => {
    const game = await startGame(app);
    const [first, second] = game.powers;
    const { open } = (await propose(game, first, { kind: 'extend', extendSeconds: 3600 })).json();
    expect((await game.byPower.get(second)!.request('DELETE', `${votesUrl(game)}/${open.id}`)).statusCode).toBe(403);
    const withdrawn = await game.byPower.get(first)!.request('DELETE', `${votesUrl(game)}/${open.id}`);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toMatchObject({ open: null, recent: [{ id: open.id, status: 'withdrawn' }] });
    expect((await gmLog(game)).at(-1)!.details).toMatchObject({ event: 'withdrawn', voteId: open.id });
    // A new one may be proposed now.
    expect((await propose(game, second, { kind: 'pause' })).statusCode).toBe(201);
  });

  test('a vote not decided in time fails when next read', async () => {
    const game = await startGame(app);
    const [first, second] = game.powers;
    const before = await deadlineOf(game);
    const { open } = (await propose(game, first, { kind: 'extend', extendSeconds: 3600 })).json();
    await app.prisma.clockVote.update({ where: { id: open.id }, data: { closesAt: new Date(Date.now() - 1000) } });
    const read = (await game.master.request('GET', votesUrl(game))).json();
    expect(read.open).toBeNull();
    expect(read.recent[0]).toMatchObject({ id: open.id, status: 'failed', reason: 'time ran out before enough powers agreed' });
    expect((await ballot(game, second, open.id, true)).json().error.code).toBe('clock_vote_closed');
    expect(await deadlineOf(game)).toBe(before);
    expect((await gmLog(game)).at(-1)!.details).toMatchObject({ event: 'failed', reason: expect.stringContaining('time ran out') });
  });
});

describe('majority', () => {
  const majorityGame = (settings: Record<string, unknown> = {}) => startGame(app, { correspondence: { voteRule: 'majority' }, ...settings });

  test('a pause passes with three of five, as the game master pauses; a resume moves the deadline by the time paused', async () => {
    const game = await majorityGame();
    const [a, b, c, d] = game.powers;
    const before = await deadlineOf(game);
    const { open, needed } = (await propose(game, a, { kind: 'pause' })).json();
    expect(needed).toBe(3);
    await ballot(game, b, open.id, false);
    expect((await ballot(game, c, open.id, true)).json().open.status).toBe('open');
    const passed = await ballot(game, d, open.id, true);
    expect(passed.json().recent[0].status).toBe('passed');
    const paused = (await game.master.request('GET', `/api/games/${game.gameId}`)).json();
    expect(paused.pausedAt).not.toBeNull();
    expect((await gmLog(game)).find((entry) => entry.action === 'pause')).toMatchObject({ actor: null, details: { byVote: open.id } });
    // The scheduler leaves a paused game alone, deadline or not.
    await app.prisma.phase.updateMany({ where: { gameId: game.gameId, index: 0 }, data: { deadlineAt: new Date(Date.now() - 1000) } });
    expect(await app.scheduler.processDue()).toBe(0);
    await app.prisma.phase.updateMany({ where: { gameId: game.gameId, index: 0 }, data: { deadlineAt: new Date(before) } });

    // Two hours paused (as if time had passed), then resumed by vote: the deadline moves by those two hours.
    await app.prisma.game.update({ where: { id: game.gameId }, data: { pausedAt: new Date(Date.now() - 2 * HOUR) } });
    const resume = (await propose(game, b, { kind: 'resume' })).json().open;
    // While paused the deadline stands still: the vote has its day.
    expect(Date.parse(resume.closesAt)).toBeGreaterThan(Date.now() + 23 * HOUR);
    await ballot(game, c, resume.id, true);
    const resumed = await ballot(game, a, resume.id, true);
    expect(resumed.json().recent[0]).toMatchObject({ id: resume.id, status: 'passed' });
    expect((await game.master.request('GET', `/api/games/${game.gameId}`)).json().pausedAt).toBeNull();
    const moved = (await deadlineOf(game)) - before;
    expect(moved).toBeGreaterThanOrEqual(2 * HOUR);
    expect(moved).toBeLessThan(2 * HOUR + 10_000);
    expect((await gmLog(game)).find((entry) => entry.action === 'resume')).toMatchObject({ actor: null, details: { pausedSeconds: expect.any(Number) } });
  });

  test('fails once too many disagree for it to pass', async () => {
    const game = await majorityGame();
    const [a, b, c, d] = game.powers;
    const { open } = (await propose(game, a, { kind: 'extend', extendSeconds: 3600 })).json();
    await ballot(game, b, open.id, false);
    expect((await ballot(game, c, open.id, false)).json().open.status).toBe('open');
    const third = await ballot(game, d, open.id, false);
    expect(third.json().recent[0]).toMatchObject({ status: 'failed' });
  });

  test('an anonymous game names no player in the ballots; another names them', async () => {
    const hidden = await majorityGame({ anonymous: true });
    const [a, b] = hidden.powers;
    const { open } = (await propose(hidden, a, { kind: 'pause' })).json();
    const seen = await hidden.byPower.get(b)!.request('GET', votesUrl(hidden));
    expect(seen.json().open.ballots).toEqual([{ power: a, agree: true, user: null }]);
    expect(seen.body).not.toContain(hidden.byPower.get(a)!.user!.username);
    expect(open.ballots[0].user).toEqual(hidden.byPower.get(a)!.user);

    const shown = await majorityGame();
    const [x] = shown.powers;
    const proposed = (await propose(shown, x, { kind: 'pause' })).json().open;
    const read = (await shown.byPower.get(shown.powers[1])!.request('GET', votesUrl(shown))).json().open;
    expect(read.ballots[0].user).toEqual(shown.byPower.get(x)!.user);
    expect(proposed.id).toBe(read.id);
  });
});
