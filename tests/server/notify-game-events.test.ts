/**
 * Game mail written by the game's own events (server/notify/game-events.ts), through the real API: a game started,
 * a phase processed (each player their own power's results and the new deadline, the game master a short summary),
 * press batched per conversation window, the game master's announcement, the game's end; the users' choices (their
 * defaults, each game's own over them, and the one-click unsubscribe link of RFC 8058); an anonymous game's mail
 * names no other player. The mail is read as a real SMTP server received it (H1's delivery worker and test server).
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { MailPayload } from '../../shared/api/notifications.ts';
import { outboxOf } from '../../server/db/tables/outbox.ts';
import { PRESS_WINDOW_MS, PRESS_WINDOW_SETTLE_MS } from '../../server/notify/game-events.ts';
import { Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, submitAccepted } from './helpers/play.ts';
import { headerLine, notifySettings, startSmtpServer, type TestSmtp } from './helpers/smtp.ts';

vi.setConfig({ testTimeout: 90_000 });

let testApp: TestApp;
let app: FastifyInstance;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  testApp = await startTestApp({
    settings: {
      publicUrl: 'https://diadochi.test',
      notify: notifySettings({ smtpUrl: smtp.url }),
      gameMail: { secret: 'a test secret that is long enough to sign links', reminders: { enabled: false, intervalMs: 60_000 } },
    },
  });
  app = testApp.app;
}, 60_000);
afterAll(async () => {
  await testApp?.close();
  await smtp?.close();
}, 60_000);

const addressOf = (browser: Browser) => `${browser.user!.username.toLowerCase()}@mail.test`;

async function giveAddress(browser: Browser, verified = true) {
  const email = addressOf(browser);
  await app.prisma.user.update({ where: { id: browser.user!.id }, data: { email, emailKey: email, emailVerifiedAt: verified ? new Date() : null } });
}

type Mail = { id: string; userId: string | null; target: string; dedupeKey: string; nextAttemptAt: Date; status: string; payload: MailPayload };

/** The game's mail in the outbox, decoded. */
async function mailOf(gameId: string, kind?: MailPayload['kind']): Promise<Mail[]> {
  const rows = await app.prisma.outboxMessage.findMany({ where: { gameId, channel: 'mail' }, orderBy: { createdAt: 'asc' } });
  return rows.map((row) => outboxOf(row) as unknown as Mail).filter((row) => kind === undefined || row.payload.kind === kind);
}

type MailedGame = { gameId: string; master: Browser; byPower: Map<string, Browser>; players: Browser[]; unverified: Browser };

/** A Diadochi V game whose game master does not play; every member has a verified address but one player, whose address is not verified. */
async function startMailedGame(settings: Record<string, unknown> = {}): Promise<MailedGame> {
  const master = await new Browser(app).register();
  await giveAddress(master);
  const created = await master.request('POST', '/api/games', { name: 'Mail test', variant: 'diadochi-v', joinAsPlayer: false, ...settings });
  expect(created.statusCode, created.body).toBe(201);
  const game = created.json();
  const players = await registeredBrowsers(app, game.seats);
  for (const [i, player] of players.entries()) await giveAddress(player, i !== players.length - 1);
  for (const player of players) {
    const joined = await player.request('POST', `/api/games/${game.id}/join`, {});
    expect(joined.statusCode, joined.body).toBe(200);
  }
  const byPower = new Map<string, Browser>();
  for (const player of players) {
    const detail = (await player.request('GET', `/api/games/${game.id}`)).json();
    byPower.set(detail.players.find((seat: { isYou: boolean }) => seat.isYou).power, player);
  }
  return { gameId: game.id, master, byPower, players, unverified: players[players.length - 1] };
}

/** A webhook of the game's (its game master's setting) on phase processed and game ended. */
async function hook(game: MailedGame) {
  await app.prisma.gameWebhook.create({
    data: {
      gameId: game.gameId,
      url: 'https://hooks.example.org/x',
      secret: 's'.repeat(32),
      events: ['phase-processed', 'game-ended'],
      createdById: game.master.user!.id,
    },
  });
}

/** Every power holds with every unit, ready: the phase is processed at once. */
async function holdEverywhere(game: MailedGame) {
  const phase = await currentPhase(game.master, game.gameId);
  for (const [power, browser] of game.byPower) {
    const units = phase.state.units.filter((unit) => unit.power === power);
    await submitAccepted(
      browser,
      game.gameId,
      phase.index,
      units.map((unit) => ({ kind: 'hold', unit: { type: unit.type, at: unit.at } }) as never),
      true,
    );
  }
  return phase.index;
}

describe('game mail', () => {
  let game: MailedGame;
  beforeAll(async () => {
    game = await startMailedGame();
    await hook(game);
  }, 60_000);

  test('the game starting is mailed to every member with a verified address, naming their power and the first deadline', async () => {
    const started = await mailOf(game.gameId, 'game-started');
    const expected = [...game.players.filter((p) => p !== game.unverified), game.master].map(addressOf).sort();
    expect(started.map((mail) => mail.target).sort()).toEqual(expected);
    for (const [power, browser] of game.byPower) {
      const mine = started.find((mail) => mail.userId === browser.user!.id);
      if (browser === game.unverified) expect(mine).toBeUndefined();
      else expect(mine!.payload.text).toContain(`you play ${power}`);
    }
    expect(started.every((mail) => /first deadline/.test(mail.payload.text))).toBe(true);
  });

  test('a processed phase mails each player their own results and the new deadline, not the others’ orders; the game master a short summary', async () => {
    const index = await holdEverywhere(game);
    const processed = (await game.master.request('GET', `/api/games/${game.gameId}/phases/${index}`)).json();
    expect(processed.status).toBe('processed');
    const next = await currentPhase(game.master, game.gameId);
    const mails = await mailOf(game.gameId, 'phase-processed');
    expect(mails.map((mail) => mail.target).sort()).toEqual([...game.players.filter((p) => p !== game.unverified), game.master].map(addressOf).sort());

    const results = processed.results as Array<{ power: string; order: string }>;
    expect(results.length).toBeGreaterThan(5);
    for (const [power, browser] of game.byPower) {
      if (browser === game.unverified) continue;
      const mail = mails.find((m) => m.userId === browser.user!.id)!;
      expect(mail.payload.subject).toContain(processed.name);
      for (const result of results) {
        // Own orders listed; every other power's absent (units stand in distinct provinces, so texts differ).
        if (result.power === power) expect(mail.payload.text).toContain(result.order);
        else expect(mail.payload.text).not.toContain(result.order);
      }
      expect(mail.payload.text).toContain(`The deadline of ${next.name} is`);
      expect(mail.payload.text).toContain(`You get this because you play ${power} in “Mail test”`);
      expect(mail.payload.html).toContain(`Your results as ${power}`);
    }
    const summary = mails.find((m) => m.userId === game.master.user!.id)!;
    expect(summary.payload.text).toContain('as its game master');
    for (const result of results) expect(summary.payload.text).not.toContain(result.order);
  });

  test('the mail arrives at a real SMTP server, once, with one-click unsubscribe headers whose link turns that mail off', async () => {
    await app.notify.worker.deliverDue(new Date());
    await app.notify.worker.deliverDue(new Date());
    const player = [...game.byPower.values()][0];
    const power = [...game.byPower.keys()][0];
    const received = smtp.messages.filter((mail) => mail.envelope.to.includes(addressOf(player)) && /adjudicated/.test(mail.subject ?? ''));
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail.text).toContain(`Your results as ${power}`);
    const unsubscribe = headerLine(mail, 'List-Unsubscribe')!;
    expect(headerLine(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = /<(https:\/\/diadochi\.test\/api\/notifications\/unsubscribe\?token=[^>]+)>/.exec(unsubscribe)![1];

    // A mail scanner's GET changes nothing; the one-click POST does, without a session.
    const path = link.replace('https://diadochi.test', '');
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect((await player.request('GET', `/api/games/${game.gameId}/notifications`)).json().effective.mail['phase-processed']).toBe(true);
    const forged = await app.inject({
      method: 'POST',
      url: `${path.slice(0, -3)}AAA`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe('token_invalid');
    const clicked = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(clicked.statusCode, clicked.body).toBe(200);
    expect(clicked.json()).toMatchObject({ unsubscribed: true, event: 'phase-processed', scope: game.gameId });
    const choices = (await player.request('GET', `/api/games/${game.gameId}/notifications`)).json();
    expect(choices.effective.mail['phase-processed']).toBe(false);
    expect(choices.effective.mail.press).toBe(true);

    // The next phase: no result mail for them, the others still get theirs; nothing is sent twice.
    const before = smtp.messages.length;
    await holdEverywhere(game);
    await app.notify.worker.deliverDue(new Date());
    const second = smtp.messages.slice(before).filter((m) => /adjudicated/.test(m.subject ?? ''));
    expect(second.some((m) => m.envelope.to.includes(addressOf(player)))).toBe(false);
    expect(second.length).toBe(game.players.length - 2 + 1);
    const keys = smtp.messages.map((m) => `${m.envelope.to.join(',')} ${m.subject}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('choices: mail turned off by default is not sent; a game’s own choice overrides the default', async () => {
    const [a, b] = [...game.byPower.values()].filter((p) => p !== game.unverified && p !== [...game.byPower.values()][0]);
    expect((await a.request('PUT', '/api/notifications/settings', { mail: { 'phase-processed': false } })).statusCode).toBe(200);
    expect((await b.request('PUT', '/api/notifications/settings', { mail: { 'phase-processed': false } })).statusCode).toBe(200);
    const override = await b.request('PUT', `/api/games/${game.gameId}/notifications`, { mail: { 'phase-processed': true } });
    expect(override.statusCode, override.body).toBe(200);
    expect(override.json().effective.mail['phase-processed']).toBe(true);
    const bad = await b.request('PUT', `/api/games/${game.gameId}/notifications`, { mail: { 'no-such-event': true }, reminderLeadHours: [0] });
    expect(bad.statusCode).toBe(400);

    const phase = await currentPhase(game.master, game.gameId);
    await holdEverywhere(game);
    const processedId = (await app.prisma.phase.findFirstOrThrow({ where: { gameId: game.gameId, index: phase.index } })).id;
    const mails = (await mailOf(game.gameId, 'phase-processed')).filter((mail) => mail.dedupeKey.includes(processedId));
    const to = new Set(mails.map((mail) => mail.userId));
    expect(to.has(a.user!.id)).toBe(false);
    expect(to.has(b.user!.id)).toBe(true);
    expect(to.has(game.master.user!.id)).toBe(true);
  });

  test('press is mailed batched: one mail per conversation window listing both messages, not to the sender; a GM announcement to all', async () => {
    const [[fromPower, sender], [toPower, reader]] = [...game.byPower].filter(([, p]) => p !== game.unverified);
    const first = await sender.request('POST', `/api/games/${game.gameId}/press`, { to: [toPower], body: 'First word, privately.' });
    expect(first.statusCode, first.body).toBe(201);
    const second = await sender.request('POST', `/api/games/${game.gameId}/press`, { to: [toPower], body: 'Second word, privately.' });
    expect(second.statusCode).toBe(201);
    const press = await mailOf(game.gameId, 'press');
    // Both fall in one window unless the clock crossed a window's edge between them (then each window has its own).
    const stored = await app.prisma.pressMessage.findMany({ where: { id: { in: [first.json().id, second.json().id] } }, select: { createdAt: true } });
    const windows = new Set(stored.map((row) => Math.floor(row.createdAt.getTime() / PRESS_WINDOW_MS)));
    expect(press.filter((mail) => mail.userId === sender.user!.id)).toEqual([]);
    const toReader = press.filter((mail) => mail.userId === reader.user!.id);
    expect(toReader).toHaveLength(windows.size);
    if (windows.size === 1) {
      expect(toReader[0].payload.text).toContain('First word, privately.');
      expect(toReader[0].payload.text).toContain('Second word, privately.');
      expect(toReader[0].payload.text).toContain(`${fromPower} to you`);
      const windowEnd = ([...windows][0] + 1) * PRESS_WINDOW_MS;
      expect(toReader[0].nextAttemptAt.getTime()).toBe(windowEnd + PRESS_WINDOW_SETTLE_MS);
    }
    // Nobody else is in the conversation: nobody else is mailed.
    expect(new Set(press.map((mail) => mail.userId))).toEqual(new Set([reader.user!.id]));
    // Not sent before its window closes.
    await app.notify.worker.deliverDue(new Date());
    expect((await app.prisma.outboxMessage.findUniqueOrThrow({ where: { id: toReader[0].id } })).status).toBe('pending');

    const announced = await game.master.request('POST', `/api/games/${game.gameId}/press`, {
      to: 'all',
      body: 'Hear ye: the next deadline stands.',
      asGameMaster: true,
    });
    expect(announced.statusCode).toBe(201);
    const announcements = await mailOf(game.gameId, 'gm-announcement');
    expect(announcements.map((mail) => mail.target).sort()).toEqual(
      game.players
        .filter((p) => p !== game.unverified)
        .map(addressOf)
        .sort(),
    );
    expect(announcements[0].payload.text).toContain('Hear ye: the next deadline stands.');
  });

  test('the game ending is mailed to every member with the outcome', async () => {
    const ended = await game.master.request('POST', `/api/games/${game.gameId}/gm/end`, { outcome: 'draw' });
    expect(ended.statusCode, ended.body).toBe(200);
    const mails = await mailOf(game.gameId, 'game-ended');
    expect(mails.length).toBe(game.players.length - 1 + 1);
    expect(mails[0].payload.text).toContain('draw');
    const calls = (await app.prisma.outboxMessage.findMany({ where: { gameId: game.gameId, channel: 'webhook' } })).map((row) => JSON.stringify(row.payload));
    expect(calls.some((call) => call.includes('"type":"game-ended"') && call.includes('draw'))).toBe(true);
  });
});

describe('an anonymous game', () => {
  test('its mail names no other player: results, press and announcements carry powers only', async () => {
    const game = await startMailedGame({ anonymous: true });
    await hook(game);
    await holdEverywhere(game);
    const [[, sender], [toPower]] = [...game.byPower].filter(([, p]) => p !== game.unverified);
    expect((await sender.request('POST', `/api/games/${game.gameId}/press`, { to: [toPower], body: 'Who am I?' })).statusCode).toBe(201);
    expect((await sender.request('POST', `/api/games/${game.gameId}/press`, { to: 'all', body: 'To all, anonymously.' })).statusCode).toBe(201);
    const mails = await mailOf(game.gameId);
    expect(new Set(mails.map((mail) => mail.payload.kind))).toEqual(new Set(['game-started', 'phase-processed', 'press']));
    // The game's webhook is told too, and names no player at all.
    const calls = await app.prisma.outboxMessage.findMany({ where: { gameId: game.gameId, channel: 'webhook' } });
    expect(calls.length).toBe(1);
    for (const browser of [...game.players, game.master]) expect(JSON.stringify(calls[0].payload)).not.toContain(browser.user!.username);
    const everyone = [...game.players, game.master];
    for (const mail of mails) {
      const others = everyone.filter((browser) => browser.user!.id !== mail.userId);
      const whole = `${mail.payload.subject}\n${mail.payload.text}\n${mail.payload.html}\n${JSON.stringify(mail.payload.headers)}`;
      for (const other of others) {
        expect(whole).not.toContain(other.user!.username);
        expect(whole).not.toContain(other.user!.id);
      }
    }
    // Positive control: each mail greets its own recipient by name.
    const own = mails.find((mail) => mail.userId === sender.user!.id)!;
    expect(own.payload.text).toContain(sender.user!.username);
  });
});

describe('the clock moving on its own, and votes on it', () => {
  test('grace for a missed deadline is mailed to every member with the new time and the powers that sent nothing', async () => {
    const game = await startMailedGame();
    const phase = await app.prisma.phase.findFirstOrThrow({ where: { gameId: game.gameId, status: 'open' } });
    // Nobody ordered: at the deadline every power is given grace once, instead of the phase being processed.
    await app.scheduler.processDue(new Date(phase.deadlineAt!.getTime() + 1000));
    const moved = await mailOf(game.gameId, 'deadline-moved');
    const expected = [...game.players.filter((p) => p !== game.unverified), game.master].map(addressOf).sort();
    expect(moved.map((mail) => mail.target).sort()).toEqual(expected);
    const after = await app.prisma.phase.findUniqueOrThrow({ where: { id: phase.id } });
    expect(after.status).toBe('open');
    for (const power of game.byPower.keys()) expect(moved[0].payload.text).toContain(power);
    expect(moved[0].payload.text).toContain('grace');
    expect(moved[0].payload.subject).toContain('now due');
  });

  test('a proposal to extend the deadline is mailed to the other members, and its end to everyone', async () => {
    const game = await startMailedGame();
    const [proposerPower, proposer] = [...game.byPower][0];
    const proposed = await proposer.request('POST', `/api/games/${game.gameId}/clock-votes`, { kind: 'extend', extendSeconds: 7200 });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const asked = await mailOf(game.gameId, 'vote');
    expect(asked.some((mail) => mail.userId === proposer.user!.id)).toBe(false);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked[0].payload.subject).toBe(`Mail test: ${proposerPower} proposes to extend the deadline by 2 h`);
    // Another ballot on the open vote writes nothing new: each member is asked once.
    const voter = [...game.byPower.values()][1];
    await voter.request('POST', `/api/games/${game.gameId}/clock-votes/${proposed.json().open.id}/ballot`, { agree: true });
    expect((await mailOf(game.gameId, 'vote')).length).toBe(asked.length);
    expect((await proposer.request('DELETE', `/api/games/${game.gameId}/clock-votes/${proposed.json().open.id}`)).statusCode).toBe(200);
    const ended = (await mailOf(game.gameId, 'vote')).filter((mail) => mail.payload.subject.endsWith('withdrawn'));
    expect(ended.some((mail) => mail.userId === proposer.user!.id)).toBe(true);
  });
});
