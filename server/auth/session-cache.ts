/**
 * Sessions (with their users) as last read, by token hash, so that a request
 * does not cost a query: at a steady 2,000 requests a second the look-up was
 * most of PostgreSQL's work but for the submissions themselves (bench/README.md).
 *
 * Stale for no longer than a notification takes. Whatever ends a session or
 * changes one, or changes a user's administrator flag (log-out, revoking a
 * token, changing the password, the administrator list or command), announces
 * it with `announceSessionsChanged`, in its transaction: every instance is told
 * on SESSIONS_CHANNEL once it commits and forgets what it held, and the
 * instance that made the change also forgets at once, before answering. While
 * the listening connection is down notifications may be missed, so the cache
 * is emptied and not used until it is back. An entry is read again after
 * `ttlMs` whatever happens, which bounds what a change made outside the server
 * (plain SQL) can leave behind; expiry needs no notice (checked on each use).
 *
 * A read under way while something was forgotten may have read it as it was
 * before: such a read is used for its own request but not kept (`begin` and
 * `keep` compare generations).
 */
import { deepFreeze } from '../../shared/freeze.ts';
import type { Db } from '../db/database.ts';

/** How a client holds its session: a browser cookie or an API token. */
export type SessionKind = 'cookie' | 'api_token';

/** A session and the user it authenticates (what a request acts as). */
export type SessionWithUser = {
  id: string;
  userId: string;
  kind: SessionKind;
  tokenHash: string;
  name: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date | null;
  user: { id: string; username: string; isAdmin: boolean; createdAt: Date };
};

export const SESSIONS_CHANNEL = 'diadochi_sessions';

/** What changed: one session (by id), every session of a user, or anything (forget everything). */
export type SessionsChange = `session ${string}` | `user ${string}` | 'all';

/**
 * Tells every instance to forget what changed, once (and if) the transaction it runs in commits: given a
 * transaction, or as one of the list given to `prisma.$transaction([...])` (a Prisma promise, run when awaited).
 */
export function announceSessionsChanged(db: Db, change: SessionsChange): ReturnType<Db['$executeRaw']> {
  return db.$executeRaw`SELECT pg_notify(${SESSIONS_CHANNEL}, ${change})`;
}

export type SessionCacheOptions = { ttlMs: number; capacity: number };

export class SessionCache {
  /** In order of insertion, oldest first (evicted first when full). */
  private readonly entries = new Map<string, { session: SessionWithUser; readAt: number }>();
  /** Bumped by everything that forgets; a read begun in an earlier generation is not kept. */
  private generation = 0;
  /** False while notifications may be missed (see `listening`). */
  private live = false;
  readonly stats = { hits: 0, misses: 0, forgotten: 0 };

  constructor(private readonly options: SessionCacheOptions = { ttlMs: 60_000, capacity: 20_000 }) {}

  /** The session held for this token hash, if any and fresh enough. */
  get(tokenHash: string, now = Date.now()): SessionWithUser | undefined {
    const entry = this.live ? this.entries.get(tokenHash) : undefined;
    if (entry && now - entry.readAt < this.options.ttlMs) {
      this.stats.hits += 1;
      return entry.session;
    }
    if (entry) this.entries.delete(tokenHash);
    this.stats.misses += 1;
    return undefined;
  }

  /** Call before reading a session from the database; pass the result to `keep`. */
  begin(): number {
    return this.generation;
  }

  /** Keeps what a read begun at `generation` found, unless something was forgotten since. Frozen: every request shares it. */
  keep(session: SessionWithUser, generation: number, now = Date.now()): void {
    if (!this.live || generation !== this.generation) return;
    this.entries.delete(session.tokenHash);
    this.entries.set(session.tokenHash, { session: deepFreeze(session), readAt: now });
    if (this.entries.size > this.options.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The session's last use as just written (so that it is not written again on the next request). */
  touched(tokenHash: string, lastUsedAt: Date): void {
    const entry = this.entries.get(tokenHash);
    if (entry) entry.session = Object.freeze({ ...entry.session, lastUsedAt });
  }

  forgetToken(tokenHash: string): void {
    this.generation += 1;
    if (this.entries.delete(tokenHash)) this.stats.forgotten += 1;
  }

  forgetSession(sessionId: string): void {
    this.forgetWhere((session) => session.id === sessionId);
  }

  forgetUser(userId: string): void {
    this.forgetWhere((session) => session.userId === userId);
  }

  clear(): void {
    this.generation += 1;
    this.stats.forgotten += this.entries.size;
    this.entries.clear();
  }

  /** Whether notifications are being received: the cache is used only while they are. */
  listening(live: boolean): void {
    this.clear();
    this.live = live;
  }

  /** A notification on SESSIONS_CHANNEL (see `SessionsChange`). */
  notified(payload: string): void {
    const [what, id, ...rest] = payload.split(' ');
    if (what === 'session' && id && rest.length === 0) this.forgetSession(id);
    else if (what === 'user' && id && rest.length === 0) this.forgetUser(id);
    // `all`, or anything this version does not know: forgetting everything is always safe.
    else this.clear();
  }

  private forgetWhere(matches: (session: SessionWithUser) => boolean): void {
    this.generation += 1;
    for (const [hash, entry] of this.entries) {
      if (!matches(entry.session)) continue;
      this.entries.delete(hash);
      this.stats.forgotten += 1;
    }
  }
}
