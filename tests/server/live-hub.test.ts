/**
 * The live hub (server/live/hub.ts) on its own: the order in which a channel's events reach a socket when reads of
 * the event log and checks of who may watch are under way — what the websocket tests cannot time. Real sockets (a
 * `ws` server on a free port); the bus, the games' facts and the sessions are stand-ins of the narrow interfaces the
 * hub declares (LiveHubOptions), so each read answers when the test says so, with what it would have read then.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, onTestFinished, test, vi } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveChannel, LiveEvent, ServerMessage } from '../../shared/api/live.ts';
import type { GameFacts } from '../../server/access/policy.ts';
import type { History, LiveListener, LoggedEvent } from '../../server/bus/live-bus.ts';
import type { LiveConnection, LiveUser } from '../../server/live/connection.ts';
import { LiveHub, type EventFeed } from '../../server/live/hub.ts';
import { connect, type LiveClient } from './helpers/live.ts';

vi.setConfig({ testTimeout: 20_000 });

type Read = { channel: LiveChannel; after: number; answer(): void; fail(): void };

/**
 * The bus as the hub sees it, over a log in memory: `publish` numbers and logs an event as a commit does and
 * notifies the channel's listeners (or not: a notification lost with the LISTEN connection); reads of the log
 * wait until the test answers them, with what the log holds at that moment (as LiveBus.history would).
 */
class StandInFeed implements EventFeed {
  private readonly listeners = new Map<LiveChannel, Set<LiveListener>>();
  private readonly resyncListeners = new Set<() => void>();
  private readonly log = new Map<LiveChannel, LoggedEvent[]>();
  readonly pending: Read[] = [];
  readonly reads: Array<{ channel: LiveChannel; after: number }> = [];

  subscribe(channel: LiveChannel, listener: LiveListener): () => void {
    const set = this.listeners.get(channel) ?? new Set();
    this.listeners.set(channel, set.add(listener));
    return () => set.delete(listener);
  }
  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }
  async currentSeq(channel: LiveChannel): Promise<number> {
    return this.logOf(channel).length;
  }
  history(channel: LiveChannel, after: number): Promise<History> {
    this.reads.push({ channel, after });
    return new Promise((resolve, reject) =>
      this.pending.push({
        channel,
        after,
        answer: () => {
          const events = this.logOf(channel);
          const seq = events.length;
          resolve(after >= seq ? { seq, events: [], complete: after === seq } : { seq, events: events.slice(after), complete: true });
        },
        fail: () => reject(new Error('the database is unreachable')),
      }),
    );
  }

  publish(channel: LiveChannel, event: LiveEvent, { notify = true } = {}): number {
    const log = this.logOf(channel);
    const seq = log.push({ seq: log.length + 1, event });
    if (notify) for (const listener of this.listeners.get(channel) ?? []) listener(event, channel, seq);
    return seq;
  }
  /** The LISTEN connection is back after notifications were lost. */
  reconnected(): void {
    for (const listener of this.resyncListeners) listener();
  }
  listening(channel: LiveChannel): number {
    return this.listeners.get(channel)?.size ?? 0;
  }
  /** The oldest read of the log not yet answered (waiting for the hub to make one). */
  async nextRead(): Promise<Read> {
    await vi.waitFor(() => expect(this.pending.length).toBeGreaterThan(0), { timeout: 2_000, interval: 5 });
    return this.pending.shift()!;
  }
  private logOf(channel: LiveChannel): LoggedEvent[] {
    if (!this.log.has(channel)) this.log.set(channel, []);
    return this.log.get(channel)!;
  }
}

/** The games' facts as the access rules read them; while `paused`, each read waits to be answered with the facts as they were when it was made. */
class StandInGames {
  readonly facts = new Map<string, GameFacts>();
  paused = false;
  readonly pending: Array<{ answer(): void; fail(): void }> = [];
  reads = 0;

  read = (gameId: string): Promise<GameFacts | null> => {
    this.reads += 1;
    const asNow = structuredClone(this.facts.get(gameId) ?? null);
    if (!this.paused) return Promise.resolve(asNow);
    return new Promise((resolve, reject) => this.pending.push({ answer: () => resolve(asNow), fail: () => reject(new Error('the database is unreachable')) }));
  };
  async nextRead() {
    await vi.waitFor(() => expect(this.pending.length).toBeGreaterThan(0), { timeout: 2_000, interval: 5 });
    return this.pending.shift()!;
  }
}

const userNamed = (username: string): LiveUser => ({ id: randomUUID(), username, createdAt: new Date(), isAdmin: false });
const master = userNamed('master');
const player = userNamed('player');

/** A private game run by `master`, forming, with these players. */
function privateGame(players: LiveUser[]): GameFacts {
  return {
    private: true,
    anonymous: false,
    status: 'forming',
    gameMasterId: master.id,
    invitedGameMasterId: null,
    finalAt: null,
    players: players.map((user) => ({ userId: user.id, power: null })),
  };
}
const gameId = () => randomUUID();
const press = (game: string): LiveEvent => ({
  type: 'press.message',
  gameId: game,
  messageId: randomUUID(),
  fromPower: 'England',
  gameMaster: false,
  to: 'all',
});
const left = (game: string, user: LiveUser): LiveEvent => ({
  type: 'player.left',
  gameId: game,
  playerCount: 1,
  seats: 7,
  user: { id: user.id, username: user.username },
});
const gmAction = (game: string): LiveEvent => ({ type: 'gm.action', gameId: game, actionId: randomUUID(), action: 'extend_deadline' });

let server: WebSocketServer;
let url: string;
beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

let feed: StandInFeed;
let games: StandInGames;
let hub: LiveHub;
let warnings: string[];
const sockets: LiveClient[] = [];

function startHub(catchUpRetryMs: number[] = [5, 5, 5], limits: { checkPatienceMs?: number; maxHeldEvents?: number } = {}) {
  feed = new StandInFeed();
  games = new StandInGames();
  warnings = [];
  const ignore = () => {};
  hub = new LiveHub({
    feed,
    gameFacts: games.read,
    sessionOf: async () => null,
    log: { debug: ignore, info: ignore, warn: (_details: unknown, message?: string) => void warnings.push(message ?? '') },
    heartbeatMs: 3_600_000,
    catchUpRetryMs,
    ...limits,
  });
}
afterEach(() => {
  hub.close();
  for (const socket of sockets.splice(0)) socket.socket.close();
});

type Watcher = { client: LiveClient; connection: LiveConnection };

/** A real socket, opened on the hub as `user`. */
async function open(user: LiveUser): Promise<Watcher> {
  const accepted = new Promise<WebSocket>((resolve) => server.once('connection', resolve));
  const client = await connect(url, {});
  sockets.push(client);
  const connection = hub.open(await accepted, user, { token: randomUUID(), kind: 'cookie' });
  await client.next('welcome');
  return { client, connection };
}
async function subscribed(watcher: Watcher, channel: LiveChannel) {
  await hub.handle(watcher.connection, { type: 'subscribe', channel });
  return watcher.client.next('subscribed', (message) => message.channel === channel);
}
/** Everything the hub has sent the socket so far (a pong comes after it). */
async function settled(watcher: Watcher): Promise<ServerMessage[]> {
  const pongs = () => watcher.client.messages.filter((message) => message.type === 'pong').length;
  const before = pongs();
  await hub.handle(watcher.connection, { type: 'ping' });
  await vi.waitFor(() => expect(pongs()).toBe(before + 1), { timeout: 2_000, interval: 5 });
  return watcher.client.messages.filter((message) => message.type !== 'pong' && message.type !== 'welcome');
}
/** A player watching a private game of theirs on a new hub, from when the game's reads wait to be answered or failed. */
async function watchingAsReadsPause(...hub: Parameters<typeof startHub>) {
  startHub(...hub);
  const game = gameId();
  const channel = `game:${game}` as const;
  games.facts.set(game, privateGame([player]));
  const watcher = await open(player);
  await subscribed(watcher, channel);
  games.paused = true;
  return { game, channel, watcher };
}
/** Every read of a game fails from now to the end of the test, as while the database is down. */
function failEveryRead() {
  const failing = setInterval(() => games.pending.splice(0).forEach((read) => read.fail()), 2);
  onTestFinished(() => clearInterval(failing));
}
const seqs = (messages: ServerMessage[]) => messages.flatMap((message) => (message.type === 'event' ? [message.seq] : []));
/** The messages in short: `event 3`, `subscribed 2`, `unsubscribed`, `resync`. */
const outline = (messages: ServerMessage[]) =>
  messages.map((message) => (message.type === 'event' || message.type === 'subscribed' ? `${message.type} ${message.seq}` : message.type));

describe('the order of events', () => {
  test('an event that skips numbers waits for the catch-up read; then the missed ones and it are given in order, once', async () => {
    startHub();
    const game = gameId();
    const channel = `game:${game}` as const;
    games.facts.set(game, privateGame([player]));
    const watcher = await open(player);
    await subscribed(watcher, channel);
    feed.publish(channel, press(game));
    feed.publish(channel, press(game), { notify: false });
    feed.publish(channel, press(game)); // 3: number 2 was missed
    feed.publish(channel, press(game)); // 4: waits behind the catch-up
    const read = await feed.nextRead();
    expect(read.after).toBe(1);
    expect(seqs(await settled(watcher))).toEqual([1]);

    read.answer();
    expect(seqs(await settled(watcher))).toEqual([1, 2, 3, 4]);
    expect(feed.reads).toHaveLength(1);
  });

  test('a subscription made with `after` gets what it missed before `subscribed`, then what came meanwhile, each once', async () => {
    startHub();
    feed.publish('lobby', press(gameId()));
    feed.publish('lobby', press(gameId()));
    const watcher = await open(player);
    const subscribing = hub.handle(watcher.connection, { type: 'subscribe', channel: 'lobby', after: 1 });
    const read = await feed.nextRead();
    feed.publish('lobby', press(gameId())); // 3: notified while the log is read, and read with it
    read.answer();
    await subscribing;
    feed.publish('lobby', press(gameId())); // 4
    expect(outline(await settled(watcher))).toEqual(['event 2', 'event 3', 'subscribed 3', 'event 4']);
  });

  test('when the LISTEN connection is back, every channel is caught up with one read, from the watcher furthest behind', async () => {
    startHub();
    const [early, late] = [await open(player), await open(master)];
    await subscribed(early, 'lobby');
    feed.publish('lobby', press(gameId()));
    feed.publish('lobby', press(gameId()), { notify: false }); // early misses 2 …
    await subscribed(late, 'lobby'); // … which late never needs
    feed.publish('lobby', press(gameId()), { notify: false });
    feed.reconnected();
    const read = await feed.nextRead();
    expect(read.after).toBe(1);
    read.answer();
    expect(seqs(await settled(early))).toEqual([1, 2, 3]);
    expect(seqs(await settled(late))).toEqual([3]);
    expect(feed.reads).toHaveLength(1);
  });

  test('a catch-up read that fails is tried again; one that keeps failing tells the watcher to resync and goes on from the event that waited', async () => {
    startHub([5, 5]);
    const watcher = await open(player);
    await subscribed(watcher, 'lobby');
    feed.publish('lobby', press(gameId()), { notify: false });
    feed.publish('lobby', press(gameId())); // 2: number 1 was missed
    (await feed.nextRead()).fail();
    (await feed.nextRead()).answer();
    expect(outline(await settled(watcher))).toEqual(['subscribed 0', 'event 1', 'event 2']);

    feed.publish('lobby', press(gameId()), { notify: false });
    feed.publish('lobby', press(gameId())); // 4: number 3 was missed
    for (let attempt = 0; attempt < 3; attempt++) (await feed.nextRead()).fail();
    feed.publish('lobby', press(gameId()));
    expect(outline(await settled(watcher)).slice(3)).toEqual(['resync', 'event 4', 'event 5']);
    expect(feed.reads).toHaveLength(5);
  });
});

describe('checking again who may watch', () => {
  test('after an event that may change it, a watcher who may no longer watch is unsubscribed with the reason and hears nothing more; one who still may gets what waited', async () => {
    startHub();
    const game = gameId();
    const channel = `game:${game}` as const;
    games.facts.set(game, privateGame([player]));
    const [leaver, runner] = [await open(player), await open(master)];
    await subscribed(leaver, channel);
    await subscribed(runner, channel);
    games.paused = true;
    games.facts.set(game, privateGame([]));
    feed.publish(channel, left(game, player));
    feed.publish(channel, press(game)); // waits for the check
    expect(seqs(await settled(leaver))).toEqual([1]);
    expect(seqs(await settled(runner))).toEqual([1]);

    // Both watchers are checked with one read.
    (await games.nextRead()).answer();
    expect(outline(await settled(leaver))).toEqual(['subscribed 0', 'event 1', 'unsubscribed']);
    expect((await settled(leaver)).at(-1)).toEqual({ type: 'unsubscribed', channel, reason: 'you may no longer watch this game' });
    expect(seqs(await settled(runner))).toEqual([1, 2]);
    expect(games.pending).toEqual([]);
    expect(feed.listening(channel)).toBe(1);
  });

  test('a check that fails while the database comes back is tried again: the watcher keeps the channel and misses nothing', async () => {
    const { game, channel, watcher } = await watchingAsReadsPause();
    feed.publish(channel, gmAction(game));
    feed.publish(channel, press(game));
    (await games.nextRead()).fail();
    (await games.nextRead()).fail();
    expect(outline(await settled(watcher))).toEqual(['subscribed 0', 'event 1']);
    (await games.nextRead()).answer();
    await vi.waitFor(() => expect(seqs(watcher.client.messages)).toEqual([1, 2]), { timeout: 2_000, interval: 5 });
    expect(outline(await settled(watcher))).toEqual(['subscribed 0', 'event 1', 'event 2']);
    expect(warnings).toEqual([]);
  });

  test('a check goes on being tried through a long outage: nothing is given unchecked meanwhile, and nothing is lost after', async () => {
    const { game, channel, watcher } = await watchingAsReadsPause([1, 2, 5]);
    feed.publish(channel, gmAction(game));
    feed.publish(channel, press(game));
    feed.publish(channel, press(game));
    // Many more failed reads than the pauses listed: the last pause repeats.
    for (let attempt = 0; attempt < 12; attempt++) (await games.nextRead()).fail();
    expect(outline(await settled(watcher))).toEqual(['subscribed 0', 'event 1']);
    (await games.nextRead()).answer();
    await vi.waitFor(() => expect(seqs(watcher.client.messages)).toEqual([1, 2, 3]), { timeout: 2_000, interval: 5 });
    expect(outline(await settled(watcher))).toEqual(['subscribed 0', 'event 1', 'event 2', 'event 3']);
    expect(warnings).toEqual([]);
  });

  test('a check for a socket that closed during the outage is given up without a word', async () => {
    const { game, channel, watcher } = await watchingAsReadsPause([1, 2, 5]);
    feed.publish(channel, gmAction(game));
    (await games.nextRead()).fail();
    watcher.client.socket.close();
    await vi.waitFor(() => expect(feed.listening(channel)).toBe(0), { timeout: 2_000, interval: 5 });
    // The try under way fails too; after it, no more reads and no warning.
    failEveryRead();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const reads = games.reads;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(games.reads).toBe(reads);
    expect(warnings).toEqual([]);
  });

  test('a subscription held back past its limit of waiting events is dropped and asked to subscribe again', async () => {
    const { game, channel, watcher } = await watchingAsReadsPause([5, 5, 5], { maxHeldEvents: 3 });
    feed.publish(channel, gmAction(game));
    for (let event = 0; event < 4; event++) feed.publish(channel, press(game));
    await vi.waitFor(() => expect(watcher.client.messages.at(-1)?.type).toBe('unsubscribed'), { timeout: 2_000, interval: 5 });
    expect((await settled(watcher)).at(-1)).toMatchObject({ reason: 'too many events came while your access was being checked: subscribe again' });
    expect(outline(await settled(watcher))).toEqual(['subscribed 0', 'event 1', 'unsubscribed']);
    // The check's answer, when it comes, gives nothing to a dropped subscription.
    (await games.nextRead()).answer();
    expect(outline(await settled(watcher))).toEqual(['subscribed 0', 'event 1', 'unsubscribed']);
    expect(feed.listening(channel)).toBe(0);
  });

  test('a subscription dropped for holding back too many events during its first read is not then told it is subscribed', async () => {
    startHub([5, 5, 5], { maxHeldEvents: 2 });
    const game = gameId();
    const channel = `game:${game}` as const;
    games.facts.set(game, privateGame([player]));
    const watcher = await open(player);
    const subscribing = hub.handle(watcher.connection, { type: 'subscribe', channel, after: 0 });
    const read = await feed.nextRead();
    for (let event = 0; event < 3; event++) feed.publish(channel, press(game));
    read.answer();
    await subscribing;
    expect(outline(await settled(watcher))).toEqual(['unsubscribed']);
    expect(feed.listening(channel)).toBe(0);
  });

  test('when the check cannot be made for as long as the hub waits, the watcher is unsubscribed and asked to subscribe again', async () => {
    const { game, channel, watcher } = await watchingAsReadsPause([5, 5, 5], { checkPatienceMs: 40 });
    feed.publish(channel, gmAction(game));
    feed.publish(channel, press(game));
    failEveryRead();
    await vi.waitFor(() => expect(watcher.client.messages.at(-1)?.type).toBe('unsubscribed'), { timeout: 2_000, interval: 5 });
    expect(outline(await settled(watcher))).toEqual(['subscribed 0', 'event 1', 'unsubscribed']);
    expect((await settled(watcher)).at(-1)).toMatchObject({ reason: 'could not check that you may still watch: subscribe again' });
    expect(warnings).toContain('checking who may watch a channel failed; its watchers were unsubscribed');
  });

  test('the lobby is not checked again: a player leaving a public game costs its watchers nothing', async () => {
    startHub();
    const watcher = await open(player);
    await subscribed(watcher, 'lobby');
    feed.publish('lobby', left(gameId(), userNamed('someone')));
    feed.publish('lobby', press(gameId()));
    expect(outline(await settled(watcher))).toEqual(['subscribed 0', 'event 1', 'event 2']);
    expect(games.reads).toBe(0);
  });

  test('a replay with such an event in it gives the rest once the check is done, in order, then what came meanwhile', async () => {
    startHub();
    const game = gameId();
    const channel = `game:${game}` as const;
    games.facts.set(game, privateGame([player]));
    feed.publish(channel, press(game));
    feed.publish(channel, left(game, userNamed('someone')));
    feed.publish(channel, press(game));
    const watcher = await open(master);
    games.paused = true;
    const subscribing = hub.handle(watcher.connection, { type: 'subscribe', channel, after: 0 });
    (await games.nextRead()).answer(); // may the master watch: yes
    (await feed.nextRead()).answer(); // what was missed: 1 to 3
    await subscribing;
    feed.publish(channel, press(game)); // 4
    expect(outline(await settled(watcher))).toEqual(['event 1', 'event 2', 'subscribed 2']);

    (await games.nextRead()).answer(); // the check after 2: still yes
    expect(outline(await settled(watcher))).toEqual(['event 1', 'event 2', 'subscribed 2', 'event 3', 'event 4']);
  });

  test('a catch-up with such an event in it holds the rest until the check is done', async () => {
    const { game, channel, watcher } = await watchingAsReadsPause();
    feed.publish(channel, gmAction(game), { notify: false });
    feed.publish(channel, press(game), { notify: false });
    feed.reconnected();
    (await feed.nextRead()).answer();
    expect(seqs(await settled(watcher))).toEqual([1]);

    (await games.nextRead()).answer();
    expect(seqs(await settled(watcher))).toEqual([1, 2]);
  });

  test('a watcher being checked when the LISTEN connection comes back is caught up too, once the check is done', async () => {
    const { game, channel, watcher } = await watchingAsReadsPause();
    feed.publish(channel, gmAction(game)); // the watcher is checked
    feed.publish(channel, press(game), { notify: false });
    feed.reconnected();
    (await feed.nextRead()).answer();
    expect(seqs(await settled(watcher))).toEqual([1]);

    (await games.nextRead()).answer();
    expect(seqs(await settled(watcher))).toEqual([1, 2]);
  });

  test('a check reads the game after the event that asked for it, not a read begun before it', async () => {
    startHub();
    const game = gameId();
    const channel = `game:${game}` as const;
    games.facts.set(game, privateGame([player]));
    const runner = await open(master);
    await subscribed(runner, channel);
    games.paused = true;
    feed.publish(channel, gmAction(game)); // the runner's watch is checked: a read begins
    const leaver = await open(player);
    const subscribing = hub.handle(leaver.connection, { type: 'subscribe', channel });
    await vi.waitFor(() => expect(games.pending).toHaveLength(2), { timeout: 2_000, interval: 5 });
    games.pending.pop()!.answer(); // may the player watch: yes (the runner's check is still being read)
    await subscribing;
    // The player leaves while that first read is under way.
    games.facts.set(game, privateGame([]));
    feed.publish(channel, left(game, player));
    while (games.pending.length > 0) {
      games.pending.shift()!.answer();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await settled(leaver)).at(-1)).toEqual({ type: 'unsubscribed', channel, reason: 'you may no longer watch this game' });
    expect(seqs(await settled(runner))).toEqual([1, 2]);
  });
});
