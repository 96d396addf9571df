/** What the app-wide plugins add to Fastify's instance and request (declaration merging). */
import type { Database, PrismaClient } from './db/database.ts';
import type { SessionCache } from './auth/session-cache.ts';
import type { LiveBus } from './bus/live-bus.ts';
import type { PhaseScheduler } from './play/scheduler.ts';
import type { PlayEnv } from './play/process.ts';
import type { SubmissionBatcher } from './play/submissions.ts';
import type { AppSettings } from './settings.ts';
import type { Notify } from './notify/plugin.ts';

import type { Auth } from './auth/caller.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    prisma: PrismaClient;
    bus: LiveBus;
    scheduler: PhaseScheduler;
    /** What processing a phase or ending a game needs (play/process.ts). */
    play: PlayEnv;
    submissions: SubmissionBatcher;
    settings: AppSettings;
    /** Sessions as last read (auth/session-cache.ts): forget one when ending or changing it. */
    sessions: SessionCache;
    /** The outbox's delivery worker and the channels it delivers (notify/plugin.ts). */
    notify: Notify;
  }
  interface FastifyRequest {
    auth: Auth | null;
  }
  interface FastifyContextConfig {
    /** false: this write does not act on the current session, so it needs no CSRF token (log-in, sign-up). */
    csrf?: boolean;
  }
}
