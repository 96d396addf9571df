/**
 * When the server closes the live socket because its session ended (logged
 * out in another tab, expired), the page must learn that nobody is logged in,
 * rather than go on showing a board that no longer updates.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { LIVE_CLOSE } from '../../shared/api/live-close.ts';
import { live } from '../../web/src/lib/live.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';

beforeEach(() => {
  vi.stubGlobal('WebSocket', ScriptedSocket);
  ScriptedSocket.opened = [];
});
afterEach(() => vi.unstubAllGlobals());

it('a socket closed because the session ended makes the page ask who is logged in, and it is nobody', async () => {
  session.adopt({ user: { id: '019a0000-0000-7000-8000-00000000000a', username: 'syria', isAdmin: false }, csrfToken: 'token' } as Parameters<
    typeof session.adopt
  >[0]);
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (path: string) => {
    asked.push(path);
    return new Response(JSON.stringify({ user: null, authenticatedBy: null, csrfToken: null }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  const stop = live.subscribe('game:019a0000-0000-7000-8000-000000000004', () => {});
  try {
    ScriptedSocket.opened[0].accept();
    ScriptedSocket.opened[0].closedByServer(LIVE_CLOSE.sessionEnded);
    await vi.waitFor(() => expect(session.user).toBeNull());
    expect(asked).toEqual(['/api/auth/me']);
  } finally {
    stop();
  }
});
