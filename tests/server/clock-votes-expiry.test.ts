/**
 * Clock votes closed by the server when they are due (server/clock-votes/expiry.ts), with nobody reading them: a vote
 * whose time ran out, or whose phase ended, is failed, its players are told (the `vote` mail of
 * notify/game-events.ts) and the game master's log written, exactly once, with two instances at it together — both
 * driven by hand on the same clock, and both running their loops.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ClockVoteExpiry } from '../../server/clock-votes/expiry.ts';
import type { MailPayload } from '../../shared/api/notifications.ts';
import { startSecondInstance, startTestApp, testSettings, type TestApp } from './helpers/app.ts';
import { startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 90_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const HOUR = 3600_000;

/** Another instance on the same database. */
const secondInstance = (settings: typeof testSettings = {}): Promise<FastifyInstance> => startSecondInstance(testApp, settings);

/** A started game whose members all have verified addresses (so the vote's end is mailed to each), and an open vote. */
async function gameWithOpenVote(): Promise<{ game: StartedGame; voteId: string }> {
  const game = await startGame(app);
  for (const browser of [game.master, ...game.players]) {
    const email = `${browser.user!.username.toLowerCase()}@mail.test`;
    await app.prisma.user.update({ where: { id: browser.user!.id }, data: { email, emailKey: email, emailVerifiedAt: new Date() } });
  }
  const proposer = game.byPower.get(game.powers[0])!;
  const proposed = await proposer.request('POST', `/api/games/${game.gameId}/clock-votes`, { kind: 'extend', extendSeconds: 3600 });
  expect(proposed.statusCode, proposed.body).toBe(201);
  return { game, voteId: proposed.json().open.id };
}

/** What the vote left behind: its row, its GM log entries, the outbox's mails about its end. */
async function traces(game: StartedGame, voteId: string) {
  const vote = await app.prisma.clockVote.findUniqueOrThrow({ where: { id: voteId } });
  const log = await app.prisma.gameMasterAction.findMany({ where: { gameId: game.gameId, action: 'clock-vote' }, orderBy: { createdAt: 'asc' } });
  const events = log.filter((entry) => (entry.details as { voteId?: string }).voteId === voteId).map((entry) => (entry.details as { event: string }).event);
  const mails = (
    await app.prisma.outboxMessage.findMany({ where: { gameId: game.gameId, channel: 'mail', dedupeKey: { startsWith: `vote:${voteId}:failed:` } } })
  ).map((row) => ({ userId: row.userId, subject: (row.payload as MailPayload).subject }));
  return { vote, events, mails };
}

describe('clock votes closed when due, nobody reading them', () => {
  test('two instances expiring the same votes at once close each once: one log entry, one mail per member', async () => {
    const votes = await Promise.all([gameWithOpenVote(), gameWithOpenVote(), gameWithOpenVote()]);
    const now = new Date();
    const other = await secondInstance();
    const [first, second] = [new ClockVoteExpiry(app, testSettings.scheduler!), new ClockVoteExpiry(other, testSettings.scheduler!)];
    try {
      // Not yet due: nothing happens.
      expect(await first.expireDue(now)).toBe(0);
      // A day later (the limit of a vote) every one of them is due; both instances try them together.
      const later = new Date(now.getTime() + 25 * HOUR);
      const closed = await Promise.all([first.expireDue(later), second.expireDue(later), first.expireDue(later), second.expireDue(later)]);
      expect(closed.reduce((sum, count) => sum + count, 0)).toBe(votes.length);
      for (const { game, voteId } of votes) {
        const { vote, events, mails } = await traces(game, voteId);
        expect(vote.status).toBe('failed');
        expect(vote.decidedAt?.getTime()).toBe(later.getTime());
        expect(events).toEqual(['proposed', 'failed']);
        // Every member once (the game master and all seven players): the vote's end is everyone's news.
        expect(mails.map((mail) => mail.userId).sort()).toEqual([game.master, ...game.players].map((browser) => browser.user!.id).sort());
        expect(mails[0].subject).toMatch(/the vote to extend the deadline by 1 h failed$/);
        // Read afterwards: failed for running out of time, as a read would have settled it.
        const read = (await game.master.request('GET', `/api/games/${game.gameId}/clock-votes`)).json();
        expect(read.open).toBeNull();
        expect(read.recent[0]).toMatchObject({ id: voteId, status: 'failed', reason: 'time ran out before enough powers agreed' });
      }
      expect(await first.expireDue(later)).toBe(0);
    } finally {
      await other.close();
    }
  });

  test("the instances' own loops close a vote whose time ran out, and one whose phase ended, without anyone reading them", async () => {
    const timedOut = await gameWithOpenVote();
    const phaseEnded = await gameWithOpenVote();
    // The loops run on the scheduler's settings (the phases' and the votes'); the games' deadlines are a day or more away.
    const looping = { scheduler: { enabled: true, intervalMs: 100, batch: 100 } };
    const instances = [await secondInstance(looping), await secondInstance(looping)];
    try {
      await app.prisma.clockVote.update({ where: { id: timedOut.voteId }, data: { closesAt: new Date(Date.now() - 1000) } });
      // The other's phase falls due: the instances' schedulers process it (nobody ordered), which ends its vote's phase.
      await app.prisma.phase.updateMany({ where: { gameId: phaseEnded.game.gameId, status: 'open' }, data: { deadlineAt: new Date(Date.now() - 1000) } });
      await expect
        .poll(
          async () =>
            (await Promise.all([timedOut, phaseEnded].map(({ voteId }) => app.prisma.clockVote.findUniqueOrThrow({ where: { id: voteId } })))).map(
              (vote) => vote.status,
            ),
          {
            timeout: 20_000,
          },
        )
        .toEqual(['failed', 'failed']);
      // Let both loops go round again: nothing is closed twice.
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
    const expired = await traces(timedOut.game, timedOut.voteId);
    expect(expired.events).toEqual(['proposed', 'failed']);
    expect(expired.mails).toHaveLength(1 + timedOut.game.players.length);
    const ended = await traces(phaseEnded.game, phaseEnded.voteId);
    expect(ended.events).toEqual(['proposed', 'failed']);
    expect(ended.mails).toHaveLength(1 + phaseEnded.game.players.length);
    const reasons = await app.prisma.gameMasterAction.findMany({
      where: { gameId: { in: [timedOut.game.gameId, phaseEnded.game.gameId] }, action: 'clock-vote' },
    });
    const failed = reasons.filter((entry) => (entry.details as { event: string }).event === 'failed');
    expect(failed.map((entry) => [entry.gameId, (entry.details as { reason: string }).reason]).sort()).toEqual(
      [
        [timedOut.game.gameId, 'time ran out before enough powers agreed'],
        [phaseEnded.game.gameId, 'the phase it was proposed in has ended'],
      ].sort(),
    );
  });
});
