/**
 * App-wide notification machinery: `app.notify.transports`, the channels this instance delivers (mail here; push and
 * webhooks add theirs before the app is ready), and `app.notify.worker`, the outbox's delivery worker
 * (delivery.ts), started once the app is ready and stopped on close before the database goes away.
 */
import fp from 'fastify-plugin';
import type { Transports } from './transport.ts';
import { DeliveryWorker } from './delivery.ts';
import { MailTransport } from './mail.ts';
import { phaseMapAttacher } from './map-attachment.ts';
import { webhookTransport } from './webhook.ts';
import { pushTransport } from './push.ts';
import { vapidKeysOf } from './vapid.ts';

export type Notify = { transports: Transports; worker: DeliveryWorker };

export default fp(
  async (app) => {
    const { mail, delivery } = app.settings.notify;
    const transports: Transports = {
      mail: new MailTransport(mail, app.log.child({ module: 'mail' }), phaseMapAttacher(app.prisma, app.mapPictures)),
      push: pushTransport({ prisma: app.prisma, vapid: vapidKeysOf(app.settings.push, app.settings.publicUrl), settings: app.settings.push }),
    };
    transports.webhook = webhookTransport(app.prisma, app.settings.webhooks);
    const worker = new DeliveryWorker(app.prisma, transports, app.log.child({ module: 'outbox' }), delivery);
    app.decorate('notify', { transports, worker } satisfies Notify);
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => worker.stop());
    app.addHook('onClose', async () => {
      await Promise.all(Object.values(transports).map((transport) => transport?.close?.()));
    });
  },
  { name: 'notify', dependencies: ['database', 'map-pictures'] },
);
