/**
 * A campaign battle's page says which power each side stands for and that power's colour on the game's map (so the
 * battle is drawn in the map's colours), while an ordinary battle's sides stay as its set-up names them. In an
 * anonymous campaign game a seat whose player the viewer may not name is marked taken (`hidden`), never left to read
 * as open, and its name is nowhere in the answer.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { SCENARIOS } from '../../shared/naval/index.ts';
import { getVariant } from '../../shared/variants.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { CAMPAIGN, playPhase, startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 180_000 });

let testApp: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

type Side = { id: string; name: string; power?: string; colour?: string };
type Seat = { side: string | null; role: string; user: { username: string } | null; hidden?: boolean };
type Detail = { id: string; sides: Side[]; seats: Seat[] };

const colourOf = (power: string) => getVariant('diadochi-v')!.data.powers.find((p) => p.id === power)!.colour;

/** Rome's and Macedonia's fleets meet in the Ionian Sea; the game master opens its battle. */
async function ionianBattle(settings: Record<string, unknown> = {}): Promise<{ game: StartedGame; battleId: string }> {
  const game = await startGame(app, { ...CAMPAIGN, ...settings });
  await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
  const opened = await game.master.request('POST', `/api/games/${game.gameId}/phases/0/seas/ION/battle`, {});
  expect(opened.statusCode, opened.body).toBe(200);
  return { game, battleId: opened.json().battleId as string };
}

async function page(browser: Browser, id: string): Promise<{ detail: Detail; body: string }> {
  const response = await browser.request('GET', `/api/battles/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return { detail: response.json(), body: response.body };
}

describe('the sides of a campaign battle', () => {
  test('each side names its power and that power’s map colour, on the page and in the lists', async () => {
    const { game, battleId } = await ionianBattle();
    const { detail } = await page(game.byPower.get('Rome')!, battleId);
    expect(detail.sides).toEqual([
      { id: 'macedonia', name: 'Macedonia', power: 'Macedonia', colour: colourOf('Macedonia') },
      { id: 'rome', name: 'Rome', power: 'Rome', colour: colourOf('Rome') },
    ]);
    expect(colourOf('Rome')).toBe('#CC3311');
    const listed = (await game.byPower.get('Rome')!.request('GET', '/api/battles?filter=mine')).json().battles as Detail[];
    expect(listed.find((b) => b.id === battleId)?.sides.map((s) => s.colour)).toEqual([colourOf('Macedonia'), colourOf('Rome')]);
    // Nobody's seat is hidden in a game whose players are known.
    expect(detail.seats.filter((s) => s.role === 'side').map((s) => [s.side, s.user?.username, s.hidden])).toEqual([
      ['macedonia', game.byPower.get('Macedonia')!.user!.username, undefined],
      ['rome', game.byPower.get('Rome')!.user!.username, undefined],
    ]);
  });

  test('an ordinary battle’s sides carry no power and no colour, and its open seat is open', async () => {
    const creator = await new Browser(app).register();
    const duel = SCENARIOS['ship-to-ship'].find((scenario) => scenario.id === 'duel')!.setup;
    const created = await creator.request('POST', '/api/battles', { title: 'Off Rhodes', ruleset: 'ship-to-ship', setup: duel, join: 'rhodes' });
    expect(created.statusCode, created.body).toBe(201);
    const { detail } = await page(await new Browser(app).register(), created.json().id);
    expect(detail.sides).toEqual([
      { id: 'rhodes', name: 'Rhodes' },
      { id: 'macedon', name: 'Macedon' },
    ]);
    expect(detail.seats.map((s) => [s.side, s.user?.username ?? null, s.hidden])).toEqual([
      ['rhodes', creator.user!.username, undefined],
      ['macedon', null, undefined],
    ]);
  });
});

describe('an anonymous campaign game’s battle', () => {
  test('a seat whose player the viewer may not name is marked taken, without the name; one’s own and the game master’s view name them', async () => {
    const { game, battleId } = await ionianBattle({ anonymous: true, private: true });
    const rome = game.byPower.get('Rome')!;
    const macedonia = game.byPower.get('Macedonia')!;
    const names = [rome.user!.username, macedonia.user!.username];
    const seatsOf = (detail: Detail) => detail.seats.map((s) => [s.side ?? 'umpire', s.user?.username ?? null, s.hidden ?? false]);

    const asEgypt = await page(game.byPower.get('Egypt')!, battleId);
    expect(seatsOf(asEgypt.detail)).toEqual([
      ['macedonia', null, true],
      ['rome', null, true],
      ['umpire', game.master.user!.username, false],
    ]);
    for (const name of names) expect(asEgypt.body).not.toContain(name);
    // The powers are no secret: the sides still carry them and their colours.
    expect(asEgypt.detail.sides.map((s) => s.power)).toEqual(['Macedonia', 'Rome']);

    expect(seatsOf((await page(rome, battleId)).detail)).toEqual([
      ['macedonia', null, true],
      ['rome', rome.user!.username, false],
      ['umpire', game.master.user!.username, false],
    ]);
    expect(seatsOf((await page(game.master, battleId)).detail)).toEqual([
      ['macedonia', macedonia.user!.username, false],
      ['rome', rome.user!.username, false],
      ['umpire', game.master.user!.username, false],
    ]);
  });
});
