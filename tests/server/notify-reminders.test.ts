/**
 * Deadline reminders (server/notify/reminders.ts), driven with a chosen clock: written at each user's lead times
 * (24 h and 2 h by default, or their own) only for powers that still owe orders (the engine's powersToOrder) and are
 * not ready, never twice (two ticks, or two at once, as two instances would), and again once the deadline moves.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { MailPayload } from '../../shared/api/notifications.ts';
import { outboxOf } from '../../server/db/tables/outbox.ts';
import { dueLead } from '../../server/notify/reminders.ts';
import { Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, submitAccepted } from './helpers/play.ts';

vi.setConfig({ testTimeout: 90_000 });

const HOUR = 3600_000;
let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp({
    settings: { gameMail: { secret: 'a test secret that is long enough to sign links', reminders: { enabled: false, intervalMs: 60_000 } } },
  });
  app = testApp.app;
}, 60_000);
afterAll(() => testApp?.close(), 60_000);

const addressOf = (browser: Browser) => `${browser.user!.username.toLowerCase()}@mail.test`;

async function giveAddress(browser: Browser, verified = true) {
  const email = addressOf(browser);
  await app.prisma.user.update({ where: { id: browser.user!.id }, data: { email, emailKey: email, emailVerifiedAt: verified ? new Date() : null } });
}

type Reminder = { userId: string | null; dedupeKey: string; payload: MailPayload };

async function reminders(gameId: string): Promise<Reminder[]> {
  const rows = await app.prisma.outboxMessage.findMany({ where: { gameId, channel: 'mail' }, orderBy: { createdAt: 'asc' } });
  return rows.map((row) => outboxOf(row) as unknown as Reminder).filter((row) => row.payload.kind === 'deadline-reminder');
}

describe('dueLead', () => {
  const opened = new Date('2026-01-01T00:00:00Z');
  const deadline = new Date(opened.getTime() + 72 * HOUR);
  test('the nearest mark passed, none before it, none whose mark came before the phase opened', () => {
    expect(dueLead([24, 2], deadline, opened, new Date(deadline.getTime() - 30 * HOUR))).toBeNull();
    expect(dueLead([24, 2], deadline, opened, new Date(deadline.getTime() - 23 * HOUR))).toBe(24);
    expect(dueLead([24, 2], deadline, opened, new Date(deadline.getTime() - 1 * HOUR))).toBe(2);
    const short = new Date(opened.getTime() + 12 * HOUR);
    expect(dueLead([24, 2], short, opened, new Date(opened.getTime() + 60_000))).toBeNull();
    expect(dueLead([24, 2], short, opened, new Date(short.getTime() - HOUR))).toBe(2);
  });
});

describe('deadline reminders', () => {
  let gameId: string;
  let master: Browser;
  let byPower: Map<string, Browser>;
  let powers: string[];
  let deadline: Date;

  beforeAll(async () => {
    master = await new Browser(app).register();
    await giveAddress(master);
    const created = await master.request('POST', '/api/games', {
      name: 'Reminder test',
      variant: 'diadochi-v',
      joinAsPlayer: false,
      deadlines: { movement: 72 * 3600, retreat: 24 * 3600, adjustment: 24 * 3600 },
    });
    expect(created.statusCode, created.body).toBe(201);
    gameId = created.json().id;
    const players = await registeredBrowsers(app, created.json().seats);
    for (const player of players) await giveAddress(player);
    for (const player of players) expect((await player.request('POST', `/api/games/${gameId}/join`, {})).statusCode).toBe(200);
    byPower = new Map();
    for (const player of players) {
      const detail = (await player.request('GET', `/api/games/${gameId}`)).json();
      byPower.set(detail.players.find((seat: { isYou: boolean }) => seat.isYou).power, player);
    }
    powers = [...byPower.keys()].sort();
    const phase = await currentPhase(master, gameId);
    deadline = new Date(phase.deadlineAt!);
  }, 60_000);

  test('only powers that owe orders and are not ready, at 24 h and 2 h (or the user’s own lead), never twice, again after the deadline moves', async () => {
    const [ready, saved, ownLead, unverified, ...rest] = powers;
    const phase = await currentPhase(master, gameId);
    const unitsOf = (power: string) =>
      phase.state.units.filter((unit) => unit.power === power).map((unit) => ({ kind: 'hold', unit: { type: unit.type, at: unit.at } }) as never);
    // One power is done (ready), one has saved orders without Ready (still reminded), the others have sent nothing.
    await submitAccepted(byPower.get(ready)!, gameId, phase.index, unitsOf(ready), true);
    await submitAccepted(byPower.get(saved)!, gameId, phase.index, unitsOf(saved), false);
    expect((await byPower.get(ownLead)!.request('PUT', '/api/notifications/settings', { reminderLeadHours: [6] })).statusCode).toBe(200);
    await app.prisma.user.update({ where: { id: byPower.get(unverified)!.user!.id }, data: { emailVerifiedAt: null } });
    const userOf = (power: string) => byPower.get(power)!.user!.id;
    expect(rest.length).toBeGreaterThan(0);
    const loop = app.gameMail.reminders;

    // Too early for anyone.
    await loop.remindDue(new Date(deadline.getTime() - 30 * HOUR));
    expect(await reminders(gameId)).toEqual([]);

    // 23 h before: the 24 h reminders, written once however many instances look at once.
    const at24 = new Date(deadline.getTime() - 23 * HOUR);
    await Promise.all([loop.remindDue(at24), loop.remindDue(at24)]);
    // Until the next mark passes, later rounds leave the phase alone (its reminders are written).
    const looked = loop.stats.looked;
    await loop.remindDue(new Date(at24.getTime() + HOUR));
    expect(loop.stats.looked).toBe(looked);
    let sent = await reminders(gameId);
    expect(sent.map((mail) => mail.userId).sort()).toEqual([saved, ...rest].map(userOf).sort());
    const savedMail = sent.find((mail) => mail.userId === userOf(saved))!;
    expect(savedMail.payload.text).toContain('saved but not marked ready');
    expect(savedMail.payload.subject).toContain(saved);
    const blank = sent.find((mail) => mail.userId === userOf(rest[0]))!;
    expect(blank.payload.text).toContain(`${rest[0]} has not sent orders yet`);
    expect(blank.payload.text).toContain(`You get this because you play ${rest[0]} in “Reminder test”`);
    expect(blank.payload.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    // The user's own lead time (6 h) and nobody else's: its mark has the phase looked at again.
    await loop.remindDue(new Date(deadline.getTime() - 5 * HOUR));
    expect(loop.stats.looked).toBe(looked + 1);
    sent = await reminders(gameId);
    expect(sent.filter((mail) => mail.dedupeKey.includes(':6h:')).map((mail) => mail.userId)).toEqual([userOf(ownLead)]);

    // 2 h before: the 2 h reminders, once.
    await loop.remindDue(new Date(deadline.getTime() - 90 * 60_000));
    await loop.remindDue(new Date(deadline.getTime() - 60 * 60_000));
    sent = await reminders(gameId);
    const twoHour = sent.filter((mail) => mail.dedupeKey.includes(':2h:'));
    expect(twoHour.map((mail) => mail.userId).sort()).toEqual([saved, ...rest].map(userOf).sort());
    expect(twoHour.every((mail) => /hour|minute/.test(mail.payload.subject))).toBe(true);
    const before = sent.length;

    // The game master moves the deadline a day later: a new deadline, reminded of again.
    const moved = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 24 * 3600 });
    expect(moved.statusCode, moved.body).toBe(200);
    const later = new Date((await currentPhase(master, gameId)).deadlineAt!);
    expect(later.getTime()).toBe(deadline.getTime() + 24 * HOUR);
    await loop.remindDue(new Date(later.getTime() - 23 * HOUR));
    sent = await reminders(gameId);
    const again = sent.slice(before);
    expect(again.map((mail) => mail.userId).sort()).toEqual([saved, ...rest].map(userOf).sort());
    expect(again.every((mail) => mail.dedupeKey.includes(`:${later.getTime()}:24h:`))).toBe(true);

    // Paused: no reminders.
    expect((await master.request('POST', `/api/games/${gameId}/gm/pause`, {})).statusCode).toBe(200);
    const count = sent.length;
    await loop.remindDue(new Date(later.getTime() - 60 * 60_000));
    expect((await reminders(gameId)).length).toBe(count);
  });
});
