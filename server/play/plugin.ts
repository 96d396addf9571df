/**
 * App-wide game-play machinery: what processing needs (`app.play`), the deadline scheduler (`app.scheduler`),
 * started once the app is ready and stopped first on close, before the
 * database it needs goes away (graceful shutdown); and the batches order
 * submissions are stored in (`app.submissions`, submissions.ts).
 */
import fp from 'fastify-plugin';
import { SubmissionBatcher } from './submissions.ts';
import { PhaseScheduler } from './scheduler.ts';

export default fp(
  async (app) => {
    app.decorate('play', { bus: app.bus, finalAfterMs: app.settings.finalAfterMs });
    const scheduler = new PhaseScheduler(app.prisma, app.play, app.log.child({ module: 'scheduler' }), app.settings.scheduler);
    app.decorate('scheduler', scheduler);
    app.decorate('submissions', new SubmissionBatcher(app));
    app.addHook('onReady', async () => scheduler.start());
    app.addHook('preClose', async () => scheduler.stop());
  },
  { name: 'play', dependencies: ['database', 'live-bus'] },
);
