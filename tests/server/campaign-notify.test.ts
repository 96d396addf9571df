/**
 * A campaign phase held for its sea battles is told to the game's members by mail (server/notify/game-events.ts
 * notifyPhaseHeld), as written to the outbox in the transaction that holds the phase: which seas, and no results.
 */
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { outboxOf } from '../../server/db/tables/outbox.ts';
import { startTestApp, type Browser, type TestApp } from './helpers/app.ts';
import { startGame } from './helpers/play.ts';
import { notifySettings } from './helpers/smtp.ts';

vi.setConfig({ testTimeout: 90_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp({
    settings: {
      publicUrl: 'https://diadochi.test',
      notify: notifySettings(),
      gameMail: { secret: 'a test secret that is long enough to sign links', reminders: { enabled: false, intervalMs: 60_000 } },
    },
  });
  app = testApp.app;
}, 60_000);
afterAll(() => testApp?.close(), 60_000);

async function giveAddress(browser: Browser) {
  const email = `${browser.user!.username.toLowerCase()}@mail.test`;
  await app.prisma.user.update({ where: { id: browser.user!.id }, data: { email, emailKey: email, emailVerifiedAt: new Date() } });
}

test('every member hears that the phase awaits its sea battles, and where', async () => {
  const game = await startGame(app, { campaign: { ruleset: 'classis' } });
  for (const member of [game.master, ...game.players]) await giveAddress(member);
  for (const power of game.powers) {
    const orders = power === 'Rome' ? 'F Nea - ION' : power === 'Macedonia' ? 'F Kor - ION' : '';
    const response = await game.byPower.get(power)!.request('PUT', `/api/games/${game.gameId}/phases/0/orders`, { orders, ready: true });
    expect(response.statusCode, response.body).toBe(200);
  }
  const rows = await app.prisma.outboxMessage.findMany({ where: { gameId: game.gameId, channel: 'mail', dedupeKey: { startsWith: 'phase-held:' } } });
  expect(rows).toHaveLength(6);
  const mail = outboxOf(rows[0]) as unknown as { payload: { subject: string; text: string } };
  expect(mail.payload.subject).toContain('awaits its sea battles');
  expect(mail.payload.text).toContain('Ionian');
  // No results yet: nobody is told the phase was adjudicated.
  expect(await app.prisma.outboxMessage.count({ where: { gameId: game.gameId, dedupeKey: { startsWith: 'phase-processed:' } } })).toBe(0);
});
