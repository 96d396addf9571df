/**
 * The web client's live socket against a scripted server: reconnecting with
 * backoff, subscribing again, and what it does when its session has ended.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_CLOSE } from '../../shared/api/live-close.ts';
import { IDLE_CLOSE_MS, live } from '../../web/src/lib/live.ts';
import { ScriptedSocket } from './scripted-socket.ts';

let stops: Array<() => void> = [];
let sessionEnded: typeof live.onSessionEnded = null;
beforeEach(() => {
  sessionEnded = live.onSessionEnded;
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', ScriptedSocket);
  ScriptedSocket.opened = [];
});
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
  // The socket nobody listens to any more closes, so the next test starts without one.
  vi.advanceTimersByTime(IDLE_CLOSE_MS);
  live.onSessionEnded = sessionEnded;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function listen(channel: `game:${string}`) {
  const heard: unknown[] = [];
  stops.push(live.subscribe(channel, (event) => heard.push(event)));
  return heard;
}

describe('the live socket in the browser', () => {
  it('reopens a dropped socket after a second, subscribes again and tells the page to refetch', () => {
    const heard = listen('game:019a0000-0000-7000-8000-000000000001');
    const [first] = ScriptedSocket.opened;
    first.accept();
    expect(first.sent).toEqual([{ type: 'subscribe', channel: 'game:019a0000-0000-7000-8000-000000000001' }]);
    first.closedByServer(1006);
    vi.advanceTimersByTime(999);
    expect(ScriptedSocket.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    const second = ScriptedSocket.opened[1];
    expect(second).toBeDefined();
    second.accept();
    expect(second.sent).toEqual([{ type: 'subscribe', channel: 'game:019a0000-0000-7000-8000-000000000001' }]);
    expect(heard).toEqual([{ type: 'resync' }]);
  });

  it('when the session ended, tells the page, which stops listening: nothing is reopened', () => {
    const stop = live.subscribe('game:019a0000-0000-7000-8000-000000000002', () => {});
    let told = 0;
    // What session.svelte.ts does when nobody is logged in any more: the page unsubscribes.
    live.onSessionEnded = () => {
      told++;
      stop();
    };
    ScriptedSocket.opened[0].accept();
    ScriptedSocket.opened[0].closedByServer(LIVE_CLOSE.sessionEnded);
    expect(told).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(ScriptedSocket.opened).toHaveLength(1);
  });

  it('when the session ended but the page still listens (logged in again meanwhile), the socket is reopened', () => {
    listen('game:019a0000-0000-7000-8000-000000000003');
    let told = 0;
    live.onSessionEnded = () => told++;
    ScriptedSocket.opened[0].accept();
    ScriptedSocket.opened[0].closedByServer(LIVE_CLOSE.sessionEnded);
    expect(told).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(ScriptedSocket.opened).toHaveLength(2);
  });

  it('keeps the socket when one page hands over to the next, and closes it once nobody listens', () => {
    const stopPage = live.subscribe('game:019a0000-0000-7000-8000-000000000004', () => {});
    const [socket] = ScriptedSocket.opened;
    // The game's page gives way to its board before the socket is even open: no close while connecting.
    stopPage();
    listen('game:019a0000-0000-7000-8000-000000000004');
    vi.advanceTimersByTime(IDLE_CLOSE_MS * 2);
    expect(ScriptedSocket.opened).toHaveLength(1);
    expect(socket.readyState).toBe(0);
    socket.accept();
    expect(socket.sent).toEqual([{ type: 'subscribe', channel: 'game:019a0000-0000-7000-8000-000000000004' }]);
    // Nobody listening: closed after the grace period, not before.
    for (const stop of stops) stop();
    stops = [];
    vi.advanceTimersByTime(IDLE_CLOSE_MS - 1);
    expect(socket.readyState).toBe(ScriptedSocket.OPEN);
    vi.advanceTimersByTime(1);
    expect(socket.readyState).toBe(3);
  });

  it('when the server ends a subscription itself, tells its listeners why, and asks for it again only when a page subscribes anew', () => {
    const channel = 'game:019a0000-0000-7000-8000-000000000005';
    const heard = listen(channel);
    // The page listens on its user channel too: the socket stays.
    stops.push(live.subscribe('user:019a0000-0000-7000-8000-000000000002', () => {}));
    const [socket] = ScriptedSocket.opened;
    socket.accept();
    socket.onmessage?.({ data: JSON.stringify({ type: 'unsubscribed', channel, reason: 'you may no longer watch this game' }) });
    expect(heard).toEqual([{ type: 'unsubscribed', reason: 'you may no longer watch this game' }]);
    // Events of a channel the server dropped reach nobody; a reconnect does not ask for it again.
    socket.onmessage?.({
      data: JSON.stringify({
        type: 'event',
        channel,
        seq: 9,
        event: { type: 'votes.changed', gameId: channel.slice(5), power: 'Egypt', kind: 'draw', cast: true },
      }),
    });
    expect(heard).toHaveLength(1);
    socket.closedByServer(1006);
    vi.advanceTimersByTime(1000);
    const second = ScriptedSocket.opened[1];
    second.accept();
    const user = { type: 'subscribe', channel: 'user:019a0000-0000-7000-8000-000000000002' };
    expect(second.sent).toEqual([user]);
    // The page, which may still see the game, listens again: subscribed anew.
    const again = listen(channel);
    expect(second.sent).toEqual([user, { type: 'subscribe', channel }]);
    // The first listener's stop does not end the new subscription.
    stops[0]();
    expect(second.sent).toEqual([user, { type: 'subscribe', channel }]);
    second.onmessage?.({
      data: JSON.stringify({
        type: 'event',
        channel,
        seq: 10,
        event: { type: 'votes.changed', gameId: channel.slice(5), power: 'Egypt', kind: 'draw', cast: false },
      }),
    });
    expect(again).toHaveLength(1);
  });

  it('an unsubscribe the page asked for itself is no news to its listeners', () => {
    const channel = 'game:019a0000-0000-7000-8000-000000000006';
    const heard = listen(channel);
    const [socket] = ScriptedSocket.opened;
    socket.accept();
    socket.onmessage?.({ data: JSON.stringify({ type: 'unsubscribed', channel }) });
    expect(heard).toEqual([]);
  });
});

describe('a listener told when the server listens', () => {
  it('is told on each confirmation of its channel, at once if it came after one, and no longer once it stopped', async () => {
    const channel = 'game:019a0000-0000-7000-8000-000000000009' as const;
    let first = 0;
    let second = 0;
    const stopFirst = live.subscribe(
      channel,
      () => {},
      undefined,
      () => first++,
    );
    const socket = ScriptedSocket.opened[0];
    socket.accept();
    expect(first).toBe(0);
    socket.onmessage?.({ data: JSON.stringify({ type: 'subscribed', channel, seq: 3 }) });
    expect(first).toBe(1);
    // A second listener on a channel already confirmed: no new subscription is sent, so it is told at once.
    stops.push(
      live.subscribe(
        channel,
        () => {},
        undefined,
        () => second++,
      ),
    );
    await Promise.resolve();
    expect(second).toBe(1);
    stopFirst();
    socket.onmessage?.({ data: JSON.stringify({ type: 'subscribed', channel, seq: 3 }) });
    expect([first, second]).toEqual([1, 2]);
    // Another channel's confirmation is not theirs.
    socket.onmessage?.({ data: JSON.stringify({ type: 'subscribed', channel: 'lobby' }) });
    expect([first, second]).toEqual([1, 2]);
  });
});
