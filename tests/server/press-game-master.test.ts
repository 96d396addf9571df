/**
 * Press to the game master: a player answers the game master privately with
 * `to: ["@gm"]` (GAME_MASTER_RECIPIENT). The game master — and nobody else but
 * the sender and the powers named — reads it, over REST and the websocket;
 * a line to the game master alone is allowed whatever the press kind; exports
 * keep it and import again.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ServerMessage } from '../../shared/api/live.ts';
import { GAME_MASTER_RECIPIENT } from '../../shared/api/press.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { listen, settled, watchGame, type LiveClient } from './helpers/live.ts';
import { startGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
let url: string;
const watch = (browser: Browser, gameId: string) => watchGame(url, browser.cookie!, gameId, browser.user!.id);

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  url = await listen(app);
}, 60_000);
afterAll(() => testApp.close(), 60_000);

/** The press.message events a socket has been sent up to now. */
async function pressEvents(socket: LiveClient) {
  return (await settled(socket)).flatMap((message: ServerMessage) =>
    message.type === 'event' && message.event.type === 'press.message' ? [message.event] : [],
  );
}

const bodies = async (browser: Browser, gameId: string): Promise<string[]> =>
  (await browser.request('GET', `/api/games/${gameId}/press`)).json().messages.map((message: { body: string }) => message.body);

describe('press to the game master', () => {
  test('a player answers the game master privately: the game master reads it, live too, and no other power does', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const [player, other] = powers;
    const spectator = await new Browser(app).register();
    const [playerSocket, otherSocket, masterSocket, spectatorSocket] = await Promise.all(
      [byPower.get(player)!, byPower.get(other)!, master, spectator].map((browser) => watch(browser, gameId)),
    );

    const question = await master.request('POST', `/api/games/${gameId}/press`, { to: [player], body: 'Are you still with us?', asGameMaster: true });
    expect(question.statusCode, question.body).toBe(201);
    const answer = await byPower.get(player)!.request('POST', `/api/games/${gameId}/press`, { to: [GAME_MASTER_RECIPIENT], body: 'Yes, only for your ears.' });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json()).toMatchObject({ from: { power: player, gameMaster: false }, to: ['@gm'] });

    expect(await bodies(master, gameId)).toEqual(['Yes, only for your ears.', 'Are you still with us?']);
    expect(await bodies(byPower.get(player)!, gameId)).toEqual(['Yes, only for your ears.', 'Are you still with us?']);
    for (const outsider of [...powers.slice(1).map((power) => byPower.get(power)!), spectator, new Browser(app)]) {
      expect(await bodies(outsider, gameId)).toEqual([]);
    }

    // Live: to the game master and the sender only.
    const answerId = answer.json().id;
    expect((await pressEvents(masterSocket)).map((event) => event.messageId)).toEqual([question.json().id, answerId]);
    expect((await pressEvents(masterSocket)).at(-1)).toMatchObject({ fromPower: player, gameMaster: false, to: ['@gm'] });
    expect((await pressEvents(playerSocket)).map((event) => event.messageId)).toEqual([question.json().id, answerId]);
    expect(await pressEvents(otherSocket)).toEqual([]);
    expect(await pressEvents(spectatorSocket)).toEqual([]);
    expect(JSON.stringify(otherSocket.messages)).not.toContain(answerId);
    for (const socket of [playerSocket, otherSocket, masterSocket, spectatorSocket]) socket.socket.close();
  });

  test('a reply in a conversation of the game master and several powers reaches exactly them', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const [a, b, outsider] = powers;
    expect((await master.request('POST', `/api/games/${gameId}/press`, { to: [a, b], body: 'You two: settle it.', asGameMaster: true })).statusCode).toBe(201);
    const reply = await byPower.get(a)!.request('POST', `/api/games/${gameId}/press`, { to: [GAME_MASTER_RECIPIENT, b], body: 'We will.' });
    expect(reply.statusCode, reply.body).toBe(201);
    for (const reader of [master, byPower.get(a)!, byPower.get(b)!]) expect(await bodies(reader, gameId)).toEqual(['We will.', 'You two: settle it.']);
    expect(await bodies(byPower.get(outsider)!, gameId)).toEqual([]);
  });

  test('a line to the game master alone is allowed whatever the press kind; to powers besides, the press kind rules', async () => {
    for (const press of ['public', 'none'] as const) {
      const { gameId, master, byPower, powers } = await startGame(app, { press });
      const [player, other] = powers;
      const alone = await byPower
        .get(player)!
        .request('POST', `/api/games/${gameId}/press`, { to: [GAME_MASTER_RECIPIENT], body: `Away next week (${press}).` });
      expect(alone.statusCode, alone.body).toBe(201);
      const besides = await byPower.get(player)!.request('POST', `/api/games/${gameId}/press`, { to: [GAME_MASTER_RECIPIENT, other], body: 'psst' });
      expect(besides.statusCode).toBe(403);
      expect(besides.json().error.code).toBe('press_not_allowed');
      expect(await bodies(master, gameId)).toEqual([`Away next week (${press}).`]);
      expect(await bodies(byPower.get(other)!, gameId)).toEqual([]);
    }
  });

  test('refuses the game master writing to itself, unknown recipients, and explains asGameMaster', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const itself = await master.request('POST', `/api/games/${gameId}/press`, { to: [GAME_MASTER_RECIPIENT, powers[0]], body: 'x', asGameMaster: true });
    expect(itself.statusCode).toBe(400);
    expect(itself.json().error).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('does not write to itself') });
    const unknown = await byPower.get(powers[0])!.request('POST', `/api/games/${gameId}/press`, { to: ['@admin'], body: 'x' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('"@gm" for the game master') });
    // The game master without asGameMaster is told how to post.
    const forgot = await master.request('POST', `/api/games/${gameId}/press`, { to: 'all', body: 'Deadline tonight.' });
    expect(forgot.statusCode).toBe(403);
    expect(forgot.json().error.message).toContain('you play no power in this game');
    expect(forgot.json().error.message).toContain('asGameMaster');
    expect(await bodies(new Browser(app), gameId)).toEqual([]);
  });

  test('exports keep a message to the game master, and it imports again for the new game master', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const [player, other] = powers;
    expect(
      (await byPower.get(player)!.request('POST', `/api/games/${gameId}/press`, { to: [GAME_MASTER_RECIPIENT], body: 'For the archive.' })).statusCode,
    ).toBe(201);
    const exported = (await master.request('GET', `/api/games/${gameId}/export`)).json();
    expect(exported.press).toEqual([expect.objectContaining({ fromPower: player, gameMaster: false, to: ['@gm'], body: 'For the archive.' })]);
    expect((await byPower.get(player)!.request('GET', `/api/games/${gameId}/export`)).json().press).toHaveLength(1);
    expect((await byPower.get(other)!.request('GET', `/api/games/${gameId}/export`)).json().press).toEqual([]);

    const importer = await new Browser(app).register();
    const imported = await importer.request('POST', '/api/games/import', { export: exported });
    expect(imported.statusCode, imported.body.slice(0, 400)).toBe(201);
    const copy = (await importer.request('GET', `/api/games/${imported.json().id}/press`)).json().messages;
    expect(copy).toEqual([
      expect.objectContaining({ from: expect.objectContaining({ power: player, gameMaster: false }), to: ['@gm'], body: 'For the archive.' }),
    ]);
  });
});
