/**
 * Game mail's app-wide part: the environment every event writer needs (the site's address and the secret that signs
 * unsubscribe links), handed to game play (`app.play.notify`, which processing a phase and ending a game use), and
 * the deadline reminders' loop, started once the app is ready and stopped before the database closes.
 */
import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import { ReminderLoop } from './reminders.ts';
import type { NotifyEnv } from './unsubscribe.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Game mail (notify/events-plugin.ts): what event writers need, and the reminders' loop. */
    gameMail: { env: NotifyEnv; reminders: ReminderLoop };
  }
}

export default fp(
  async (app) => {
    // Without a configured secret (tests), one for this app alone: its links verify only here.
    const env: NotifyEnv = { publicUrl: app.settings.publicUrl, secret: app.settings.gameMail.secret ?? randomBytes(32).toString('base64url') };
    // The play plugin made app.play before the settings for mail were known here; processing reads it per call.
    app.play.notify = env;
    const reminders = new ReminderLoop(app.prisma, env, app.log.child({ module: 'reminders' }), app.settings.gameMail.reminders);
    app.decorate('gameMail', { env, reminders });
    app.addHook('onReady', async () => reminders.start());
    app.addHook('preClose', async () => reminders.stop());
  },
  { name: 'game-mail', dependencies: ['database', 'play'] },
);
