/**
 * The map as a picture (server/map-images/), through the real API: a phase drawn as SVG and PNG (the PNG decoded:
 * its size, a unit's colour where the unit stands and plain sea where none does), its orders drawn only once the
 * phase is processed, the pictures' cache and ETags, who may see them (a private game refused, an anonymous game's
 * players never named), the game page's Open Graph card, and the "phase processed" mail carrying the map.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { getVariant } from '../../shared/index.ts';
import { locationPoint } from '../../shared/drawing/overlay.ts';
import { mapDrawingOf } from '../../server/views/map-image.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { startGame, type StartedGame } from './helpers/play.ts';
import { notifySettings } from './helpers/smtp.ts';
import { colourNear, decodePng } from './map-images-png.ts';

vi.setConfig({ testTimeout: 120_000 });

const PUBLIC_URL = 'https://diadochi.test';
const variant = getVariant('diadochi-v')!;
const colourOf = (power: string) => variant.data.powers.find((p) => p.id === power)!.colour;

let testApp: TestApp;
let app: FastifyInstance;
let outbox: string;

beforeAll(async () => {
  // A built client of one page, so the server answers /games/:id with it (and its card).
  const webDir = mkdtempSync(path.join(tmpdir(), 'map-images-web-'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><head><title>Diadochi</title></head><body><div id="app"></div></body></html>');
  outbox = mkdtempSync(path.join(tmpdir(), 'map-images-outbox-'));
  testApp = await startTestApp({
    settings: {
      publicUrl: PUBLIC_URL,
      webDistDir: webDir,
      notify: notifySettings({ fileDir: outbox }),
      gameMail: { secret: 'a test secret that is long enough to sign links', reminders: { enabled: false, intervalMs: 60_000 } },
    },
  });
  app = testApp.app;
}, 60_000);
afterAll(() => testApp?.close(), 60_000);

async function submit(game: StartedGame, power: string, orders: string) {
  const response = await game.byPower.get(power)!.request('PUT', `/api/games/${game.gameId}/phases/0/orders`, { orders, ready: false });
  expect(response.statusCode, response.body).toBe(200);
}

async function processNow(game: StartedGame) {
  const response = await game.master.request('POST', `/api/games/${game.gameId}/gm/process`);
  expect(response.statusCode, response.body).toBe(200);
}

/** A GET as this browser (or as nobody logged in). */
const get = (who: Browser | null, url: string, headers: Record<string, string> = {}) =>
  who ? who.request('GET', url, undefined, headers) : app.inject({ method: 'GET', url, headers });

describe('a phase drawn', () => {
  let game: StartedGame;
  let openPng: Buffer;
  let openEtag: string;

  beforeAll(async () => {
    game = await startGame(app);
    await submit(game, 'Rome', 'A Rav - Cis');
    await submit(game, 'Carthage', 'F Car - AFR');
    // Two fleets into one sea: both bounce.
    await submit(game, 'Egypt', 'F Cyp - LEV');
    await submit(game, 'Syria', 'F Ant - LEV');
  }, 60_000);

  test('before it is processed: the position, and no order, not even to the player who gave it', async () => {
    const svg = await get(game.byPower.get('Rome')!, `/api/games/${game.gameId}/phases/0/map.svg`);
    expect(svg.statusCode, svg.body).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    const root = /^<svg\b[^>]*>/.exec(svg.body)?.[0];
    expect(root).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(root).toContain('viewBox="0 0 1600 944"');
    expect(svg.body).toContain('data-unit="Rav"');
    expect(svg.body).not.toContain('<g class="glyph ');
    expect(svg.body).not.toContain('Rav - Cis');
    // The band names the game and the phase, and each power with its centres.
    expect(svg.body).toContain('Play test · ');
    expect(svg.body).toMatch(/>Rome \d+</);

    const png = await get(null, `/api/games/${game.gameId}/map.png`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    openPng = png.rawPayload;
    openEtag = String(png.headers.etag);
  });

  test('once processed: the position after it with every order and its result, as SVG and as PNG', async () => {
    await processNow(game);
    const svg = await get(null, `/api/games/${game.gameId}/phases/0/map.svg`);
    expect(svg.statusCode, svg.body).toBe(200);
    // Units where they moved to.
    expect(svg.body).toContain('data-unit="Cis"');
    expect(svg.body).not.toContain('data-unit="Rav"');
    expect(svg.body).toContain('data-unit="AFR"');
    // The orders, each with its result: the moves succeeded, the two fleets bounced (drawn as failures).
    expect(svg.body).toMatch(/<g class="glyph arrow success"><title>Rome: A Rav - Cis\./);
    expect(svg.body).toMatch(/<g class="glyph arrow success"><title>Carthage: F Car - AFR\./);
    expect(svg.body.match(/<g class="glyph arrow failure"><title>(Egypt|Syria): F (Cyp|Ant) - LEV\./g)).toHaveLength(2);

    const png = await get(null, `/api/games/${game.gameId}/phases/0/map.png`);
    expect(png.statusCode).toBe(200);
    const image = decodePng(png.rawPayload);
    expect([image.width, image.height]).toEqual([1600, 944]);
    const [x, y] = locationPoint(variant, 'AFR')!;
    // The Carthaginian fleet now in the African Sea; before, that sea was empty (its own colour only).
    expect(colourNear(image, x, y, colourOf('Carthage'))).toBe(true);
    const before = decodePng(openPng);
    expect([before.width, before.height]).toEqual([1600, 944]);
    expect(colourNear(before, x, y, colourOf('Carthage'))).toBe(false);
    expect(colourNear(before, x, y, '#c4d4d0', 0, 12)).toBe(true);
    // The Roman army in Cisalpina, in Rome's colour.
    const [cx, cy] = locationPoint(variant, 'Cis')!;
    expect(colourNear(image, cx, cy, colourOf('Rome'))).toBe(true);
    // The band's text is drawn (dark letters on the paper at its left end): the renderer had its fonts.
    let ink = 0;
    for (let px = 12; px < 200; px++) for (let py = 920; py < 935; py++) if (image.pixel(px, py).every((v) => v < 90)) ink += 1;
    expect(ink).toBeGreaterThan(100);
  });

  test('pictures are kept: asked again, served from the cache; unchanged, answered 304; a new position drawn anew', async () => {
    const url = `/api/games/${game.gameId}/phases/0/map.png`;
    const first = await get(null, url);
    const rendered = app.mapPictures.stats().renders;
    const again = await get(null, url);
    expect(again.headers['x-map-cache']).toBe('hit');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(app.mapPictures.stats().renders).toBe(rendered);
    expect(again.headers['cache-control']).toBe('public, max-age=300');

    const unchanged = await get(null, url, { 'if-none-match': String(first.headers.etag) });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');

    // Phase 0 was drawn open before; processed it is another picture, under another ETag.
    expect(first.headers.etag).not.toBe(openEtag);
    const current = await get(null, `/api/games/${game.gameId}/map.png`);
    expect(current.headers['x-map-cache']).toBe('miss');
    expect(current.headers['cache-control']).toBe('public, max-age=30');
    expect((await get(null, `/api/games/${game.gameId}/map.png`)).headers['x-map-cache']).toBe('hit');
    expect(app.mapPictures.stats().renders).toBe(rendered + 1);
  });

  test('the game page carries an Open Graph card with the current map', async () => {
    const page = await get(null, `/games/${game.gameId}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<div id="app"></div>');
    expect(page.body).toContain('<meta property="og:title" content="Play test" />');
    expect(page.body).toMatch(/<meta property="og:description" content="Diadochi V, 5 powers, being played; [^"]+\." \/>/);
    const image = /<meta property="og:image" content="([^"]+)" \/>/.exec(page.body)?.[1];
    expect(image).toBe(`${PUBLIC_URL}/api/games/${game.gameId}/phases/1/map.png`);
    expect(page.body).toContain('<meta property="og:image:width" content="1600" />');
    expect(page.body).toContain('<meta property="og:image:height" content="944" />');
    expect(page.body).toContain('<meta name="twitter:card" content="summary_large_image" />');
    // The address answers the picture, to anyone.
    const picture = await get(null, image!.slice(PUBLIC_URL.length));
    expect(picture.statusCode).toBe(200);
    expect(decodePng(picture.rawPayload).width).toBe(1600);
    // No such game, or no id at all: the site's neutral card, and the page (the client says it is not found).
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const unknown = await get(null, `/games/${id}`);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toContain('<meta property="og:title" content="A game on Diadochi Online" />');
      expect(unknown.body).not.toContain('og:image');
      expect(unknown.body).toContain('<div id="app"></div>');
    }
  });
});

describe('who may see the pictures', () => {
  test('a private game: refused to outsiders as any of its pages is (404), drawn for its members', async () => {
    const game = await startGame(app, { private: true });
    const outsider = await new Browser(app).register();
    for (const url of [`/api/games/${game.gameId}/map.svg`, `/api/games/${game.gameId}/phases/0/map.png`]) {
      for (const who of [outsider, null]) {
        const refused = await get(who, url);
        expect(refused.statusCode, url).toBe(404);
        expect(refused.json().error.code).toBe('not_found');
      }
      expect((await get(game.players[0], url)).statusCode).toBe(200);
    }
    expect((await get(game.players[0], `/api/games/${game.gameId}/map.png`)).headers['cache-control']).toBe('private, max-age=30');
    // Its page's card says nothing of it.
    const page = await get(null, `/games/${game.gameId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<meta property="og:title" content="A game on Diadochi Online" />');
    expect(page.body).not.toContain('og:image');
    expect(page.body).not.toContain('Play test');
  });

  test('an anonymous game: no player is named, before or after a phase is processed', async () => {
    const game = await startGame(app, { anonymous: true });
    await submit(game, 'Rome', 'A Rav - Cis');
    const names = [game.master, ...game.players].map((browser) => browser.user!.username);
    const drawn = async () => [
      (await get(null, `/api/games/${game.gameId}/phases/0/map.svg`)).body,
      (await get(game.players[0], `/api/games/${game.gameId}/map.svg`)).body,
    ];
    const open = await drawn();
    await processNow(game);
    const processed = await drawn();
    for (const svg of [...open, ...processed]) {
      expect(svg).toContain('<svg');
      for (const name of names) expect(svg).not.toContain(name);
    }
    expect(processed[0]).toContain('Rome: A Rav - Cis');
  });

  test('a game not started has no picture yet; an unknown phase none', async () => {
    const host = await new Browser(app).register();
    const created = await host.request('POST', '/api/games', { name: 'Forming', variant: 'diadochi-v' });
    const forming = await get(host, `/api/games/${created.json().id}/map.svg`);
    expect(forming.statusCode).toBe(404);
    expect(forming.json().error.message).toContain('has not started');
    const game = await startGame(app);
    const missing = await get(null, `/api/games/${game.gameId}/phases/7/map.svg`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('no phase 7 in this game');
  });
});

describe('a variant without a drawing', () => {
  test('has no picture: a variant folder without map.svg gives none', () => {
    const maps = mkdtempSync(path.join(tmpdir(), 'map-images-maps-'));
    mkdirSync(path.join(maps, 'drawn'));
    writeFileSync(path.join(maps, 'drawn', 'map.svg'), '<svg viewBox="0 0 10 10"></svg>');
    mkdirSync(path.join(maps, 'undrawn'));
    expect(mapDrawingOf('drawn', maps)).toBe('<svg viewBox="0 0 10 10"></svg>');
    expect(mapDrawingOf('undrawn', maps)).toBeNull();
    expect(mapDrawingOf('../drawn', maps)).toBeNull();
  });
});

describe('the "phase processed" mail', () => {
  test('carries the map of the phase as a PNG', async () => {
    const game = await startGame(app);
    const rome = game.byPower.get('Rome')!;
    const email = `${rome.user!.username.toLowerCase()}@mail.test`;
    await app.prisma.user.update({ where: { id: rome.user!.id }, data: { email, emailKey: email, emailVerifiedAt: new Date() } });
    await submit(game, 'Rome', 'A Rav - Cis');
    await processNow(game);
    await app.notify.worker.deliverDue(new Date());

    const mails = await Promise.all(
      readdirSync(outbox)
        .filter((file) => file.endsWith('.eml'))
        .map((file) => simpleParser(readFileSync(path.join(outbox, file)))),
    );
    const mail = mails.find(
      (m) => m.subject === 'Play test: Spring 240 BC adjudicated' || (m.subject?.endsWith('adjudicated') && m.to && JSON.stringify(m.to).includes(email)),
    );
    expect(mail, mails.map((m) => m.subject).join(', ')).toBeDefined();
    expect(mail!.text).toContain('A Rav - Cis');
    expect(mail!.attachments).toHaveLength(1);
    const [map] = mail!.attachments;
    expect(map.contentType).toBe('image/png');
    expect(map.filename).toMatch(/^map-0-.+\.png$/);
    const image = decodePng(map.content);
    expect([image.width, image.height]).toEqual([1600, 944]);
    const [x, y] = locationPoint(variant, 'Cis')!;
    expect(colourNear(image, x, y, colourOf('Rome'))).toBe(true);
  });
});
