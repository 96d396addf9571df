/**
 * Starts the live event bus (`app.bus`) with the app and stops it on close,
 * and trims its event log to the replay window (every instance does, harmlessly).
 */
import fp from 'fastify-plugin';
import { LiveBus } from './live-bus.ts';

/** How often the event log is trimmed. */
const PRUNE_EVERY_MS = 60_000;

export default fp(
  async (app) => {
    const bus = new LiveBus(app.database, app.log);
    await bus.start();
    const prune = setInterval(() => {
      bus.prune(app.prisma, app.settings.liveReplayMs).catch((error: unknown) => app.log.warn({ err: error }, 'trimming the live event log failed'));
    }, PRUNE_EVERY_MS);
    prune.unref();
    app.addHook('preClose', async () => clearInterval(prune));
    app.addHook('onClose', () => bus.stop());
    app.decorate('bus', bus);
  },
  { name: 'live-bus', dependencies: ['database'] },
);
