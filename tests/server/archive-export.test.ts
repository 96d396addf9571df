/**
 * Exports written as they are read (server/archive/export.ts, stream.ts): the
 * server reads a page of rows only once the reader has taken the last, so a
 * reader that stops holds a few pages, not the game, and is cut off; the
 * phases are fixed when an export starts, so a phase processed meanwhile is
 * written as it was then, and one rolled back meanwhile stops the export
 * rather than give a document that mixes two histories.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ExportedGame } from '../../shared/api/archive.ts';
import { exportContext, exportGame } from '../../server/archive/export.ts';
import { streamOf } from '../../server/archive/stream.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { exportOf, randomPlayed } from './helpers/random-export.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
let master: Browser;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  master = await new Browser(app).register();
}, 60_000);
afterAll(() => testApp.close(), 60_000);

/** A game of 20 phases (the last open), imported by `master`. */
async function importedGame(): Promise<string> {
  const imported = await master.request('POST', '/api/games/import', { export: exportOf('standard', randomPlayed('standard', 19, 20), 'Streamed') });
  expect(imported.statusCode, imported.body.slice(0, 300)).toBe(201);
  return imported.json().id;
}

/** Reads `pieces` until `until` says so, then lets `meanwhile` happen, then reads the rest. */
async function readAround(pieces: AsyncGenerator<string>, until: (text: string) => boolean, meanwhile: () => Promise<void>): Promise<string> {
  let text = '';
  // next() by hand: leaving a for-await loop would end the generator.
  for (let next = await pieces.next(); !next.done; next = await pieces.next()) {
    text += next.value;
    if (until(text)) break;
  }
  await meanwhile();
  for (let next = await pieces.next(); !next.done; next = await pieces.next()) text += next.value;
  return text;
}

describe('an export written as it is read', () => {
  test('a phase processed while the game is exported is written as it was when the export began', async () => {
    const gameId = await importedGame();
    const context = await exportContext(app.prisma, master.user as never, gameId);
    const whole = (await master.request('GET', `/api/games/${gameId}/export`)).json() as ExportedGame;
    // The first phase written, then the open phase (19) is processed, and phase 20 begins.
    const text = await readAround(
      exportGame(app.prisma, context),
      (t) => t.includes('"phases":[{'),
      async () => {
        const processed = await master.request('POST', `/api/games/${gameId}/gm/process`);
        expect(processed.statusCode, processed.body).toBe(200);
      },
    );
    const document = JSON.parse(text) as ExportedGame;
    expect(document.phases).toHaveLength(20);
    expect(document.phases[19]).toMatchObject({ status: 'open', orders: null, results: null, stateAfter: null, processedAt: null, submissions: [] });
    expect({ ...document, exportedAt: '' }).toEqual({ ...whole, exportedAt: '' });
    // Exported now, it has the new phase.
    expect((await master.request('GET', `/api/games/${gameId}/export`)).json().phases).toHaveLength(21);
  });

  test('a roll-back while the game is exported stops the export, unfinished', async () => {
    const gameId = await importedGame();
    const context = await exportContext(app.prisma, master.user as never, gameId);
    const reading = readAround(
      exportGame(app.prisma, context),
      (t) => t.includes('"phases":[{'),
      async () => {
        expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 12 })).statusCode).toBe(200);
      },
    );
    await expect(reading).rejects.toThrow('the game changed while it was exported (phase 12 was rolled back); export it again');
  });

  test('a reader that stops taking holds a few pieces, not all, and is cut off', async () => {
    let made = 0;
    let cleanedUp = false;
    async function* pieces() {
      try {
        for (let i = 0; i < 1000; i++) {
          made += 1;
          yield 'x'.repeat(10_000);
        }
      } finally {
        cleanedUp = true;
      }
    }
    const stream = streamOf(pieces(), 200);
    // A reader that takes the first piece and never asks for more.
    const stalled = new Writable({ highWaterMark: 1, write: () => {} });
    stream.pipe(stalled);
    const error = await new Promise<Error>((resolve) => stream.once('error', resolve));
    expect(error.message).toBe('export cut off: the client took nothing for 200 ms');
    expect(made).toBeLessThan(12);
    await vi.waitFor(() => expect(cleanedUp).toBe(true));
  });
});
