/**
 * A campaign sea battle that sinks a whole Diplomacy fleet (shared/campaign/losses.ts): the sea is decided with the
 * fleet destroyed, and the phase's board and results show it gone.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { CAMPAIGN, playPhase, startGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 300_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

type Ship = { side: string; status: string };
type Unit = { power: string; type: string; at: string };

describe('a fleet lost with all its ships', () => {
  test('auto-resolved under the 2007 rules: the side that lost every ship loses its Diplomacy fleet, on the board and in the results', async () => {
    // The computer's battle is fought on the server's own dice: fight again (a new game) until one side is sunk.
    let seen: { losers: string[]; game: Awaited<ReturnType<typeof startGame>>; battleId: string; outcome: Record<string, unknown> } | null = null;
    for (let tries = 0; tries < 4 && !seen; tries++) {
      const game = await startGame(app, { ...CAMPAIGN, campaign: { ...CAMPAIGN.campaign, ruleset: 'ship-to-ship' } });
      await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
      const resolved = await game.master.request('POST', `/api/games/${game.gameId}/phases/0/seas/ION/auto-resolve`);
      expect(resolved.statusCode, resolved.body).toBe(200);
      const battleId = resolved.json().battleId as string;
      const battle = (await game.master.request('GET', `/api/battles/${battleId}`)).json() as { state: { ships: Ship[] } };
      const sides = ['rome', 'macedonia'];
      const losers = sides.filter((side) => battle.state.ships.every((s) => s.side !== side || s.status !== 'afloat'));
      const outcome = resolved.json().outcome as Record<string, unknown>;
      if (losers.length === 0) {
        // No fleet lost: nothing destroyed.
        expect(outcome).not.toHaveProperty('destroyed');
        continue;
      }
      seen = { losers, game, battleId, outcome };
    }
    expect(seen, 'no battle in four sank a whole fleet').not.toBeNull();
    const { losers, game, outcome } = seen!;
    const where: Record<string, string> = { rome: 'Nea', macedonia: 'Kor' };
    const power: Record<string, string> = { rome: 'Rome', macedonia: 'Macedonia' };
    // Each lost fleet once; when both sides are sunk, in the order the battle lists its sides, which the board ignores.
    expect([...(outcome.destroyed as string[])].sort()).toEqual(losers.map((side) => where[side]).sort());

    const phase = (await game.master.request('GET', `/api/games/${game.gameId}/phases/0`)).json();
    expect(phase.status).toBe('processed');
    const units = phase.stateAfter.units as Unit[];
    for (const side of losers) {
      // Gone from the board: neither back where it came from nor in the sea.
      expect(units.filter((u) => u.power === power[side] && u.type === 'fleet' && (u.at === where[side] || u.at === 'ION'))).toEqual([]);
      const result = (phase.results as { power: string; order: string; reason: string }[]).find((r) => r.power === power[side] && r.order.includes('- ION'));
      expect(result?.reason).toMatch(/The fleet was lost with all its ships in the battle for Ionian Sea\.$/);
      expect(phase.events).toContainEqual({ kind: 'unit-lost', power: power[side], unit: `F ${where[side]}`, at: where[side], battle: 'ION' });
    }
    // The next phase's board has the lost fleet no more.
    const next = (await game.master.request('GET', `/api/games/${game.gameId}/phases/1`)).json();
    for (const side of losers)
      expect((next.state.units as Unit[]).some((u) => u.power === power[side] && u.type === 'fleet' && u.at === where[side])).toBe(false);
  });
});
