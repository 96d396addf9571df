/**
 * Session and API-token secrets. The client holds a random 256-bit token; the
 * database keeps only its SHA-256, so a database leak does not leak sessions.
 */
import { createHmac, hash, randomBytes } from 'node:crypto';
import type { Database, Db, Sql } from '../db/database.ts';
import type { SessionCache, SessionKind, SessionWithUser } from './session-cache.ts';

export type { SessionKind, SessionWithUser } from './session-cache.ts';

export const SESSION_COOKIE = 'sid';
/** API tokens carry a prefix so they are recognisable (e.g. by secret scanners). */
const API_TOKEN_PREFIX = 'dip_';
/** lastUsedAt is refreshed at most this often after the first use, to avoid a write per request. */
const LAST_USED_RESOLUTION_MS = 5 * 60_000;

export function hashToken(token: string): string {
  // One call, no Hash object: this runs for every authenticated request.
  return hash('sha256', token, 'hex');
}

/**
 * The CSRF token of a cookie session: an HMAC keyed by the session secret, so it
 * needs no storage and cannot be computed without the (httpOnly) cookie.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('csrf').digest('base64url');
}

export async function createSession(
  db: Db,
  userId: string,
  kind: SessionKind,
  { name = null, ttlMs = null }: { name?: string | null; ttlMs?: number | null } = {},
) {
  const token = (kind === 'api_token' ? API_TOKEN_PREFIX : '') + randomBytes(32).toString('base64url');
  const session = await db.session.create({
    data: {
      userId,
      kind,
      name,
      tokenHash: hashToken(token),
      expiresAt: ttlMs === null ? null : new Date(Date.now() + ttlMs),
    },
  });
  return { token, session };
}

/** A session and its user (what a request is authenticated as), by token hash; times in epoch milliseconds. */
const SESSIONS_SQL = `
SELECT s.id::text AS id, s.user_id::text AS user_id, s.kind::text AS kind, s.token_hash, s.name,
  round(extract(epoch FROM s.created_at) * 1000)::text AS created_ms, round(extract(epoch FROM s.last_used_at) * 1000)::text AS last_used_ms,
  round(extract(epoch FROM s.expires_at) * 1000)::text AS expires_ms,
  u.username, u.is_admin, round(extract(epoch FROM u.created_at) * 1000)::text AS user_created_ms
FROM sessions s JOIN users u ON u.id = s.user_id
-- bpchar[]: the column's own type, so that the look-up uses its index.
WHERE s.token_hash = ANY($1::bpchar[])`;

function sessionOf(row: Record<string, unknown>): SessionWithUser {
  const date = (ms: unknown) => new Date(Number(ms));
  return {
    id: row.id as string,
    userId: row.user_id as string,
    kind: row.kind as SessionKind,
    tokenHash: row.token_hash as string,
    name: row.name as string | null,
    createdAt: date(row.created_ms),
    lastUsedAt: date(row.last_used_ms),
    expiresAt: row.expires_ms === null ? null : date(row.expires_ms),
    user: { id: row.user_id as string, username: row.username as string, isAdmin: row.is_admin as boolean, createdAt: date(row.user_created_ms) },
  };
}

/**
 * Every request looks up its session: the look-ups made in the same turn of
 * the event loop are read together, in one plain-SQL query.
 */
class SessionLoader {
  private pending = new Map<string, Array<{ resolve: (session: SessionWithUser | null) => void; reject: (error: unknown) => void }>>();
  private scheduled = false;

  constructor(private readonly sql: Sql) {}

  load(tokenHash: string): Promise<SessionWithUser | null> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(tokenHash);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(tokenHash, [{ resolve, reject }]);
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    try {
      const byHash = new Map((await this.sql(SESSIONS_SQL, [[...batch.keys()]])).map((row) => [row.token_hash as string, sessionOf(row)]));
      for (const [hash, waiting] of batch) for (const { resolve } of waiting) resolve(byHash.get(hash) ?? null);
    } catch (error) {
      for (const waiting of batch.values()) for (const { reject } of waiting) reject(error);
    }
  }
}
const loaders = new WeakMap<Database, SessionLoader>();

/**
 * The live session (and its user) for a token of the given kind, or null.
 * Given the database (not a Prisma client or transaction), it is looked up in
 * `cache` first, and concurrent look-ups that miss are batched (SessionLoader).
 */
export async function findSession(db: Db | Database, token: string, kind: SessionKind, cache?: SessionCache): Promise<SessionWithUser | null> {
  const tokenHash = hashToken(token);
  const now = Date.now();
  let session: SessionWithUser | null;
  if ('sql' in db) {
    session = cache?.get(tokenHash, now) ?? null;
    if (!session) {
      let loader = loaders.get(db);
      if (!loader) loaders.set(db, (loader = new SessionLoader(db.sql)));
      const generation = cache?.begin() ?? 0;
      session = await loader.load(tokenHash);
      if (session) cache?.keep(session, generation, now);
    }
  } else {
    const row = await db.session.findUnique({
      where: { tokenHash },
      include: { user: { select: { id: true, username: true, isAdmin: true, createdAt: true } } },
    });
    session = row && { ...row, kind: row.kind };
  }
  if (!session || session.kind !== kind) return null;
  const prisma = 'sql' in db ? db.prisma : db;
  if (session.expiresAt && session.expiresAt.getTime() <= now) {
    await prisma.session.deleteMany({ where: { id: session.id } });
    cache?.forgetToken(tokenHash);
    return null;
  }
  // The first use is always written, so that "never used" (lastUsedAt = createdAt) means what it says.
  const firstUse = session.lastUsedAt.getTime() === session.createdAt.getTime();
  if (firstUse || now - session.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await prisma.session.updateMany({ where: { id: session.id }, data: { lastUsedAt: new Date(now) } });
    cache?.touched(tokenHash, new Date(now));
  }
  return session;
}

/** Removes expired sessions (the sweep in auth.ts runs this periodically). */
export async function deleteExpiredSessions(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.session.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
