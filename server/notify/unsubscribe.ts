/**
 * One-click unsubscribe (RFC 8058). Every game mail carries a link whose token names one user, one scope (a game, or
 * "default" for all games) and one event, signed with the server's notification secret (HMAC-SHA-256): whoever holds
 * the mail may turn that one choice off without logging in, and nobody can forge a link for anyone else. Nothing is
 * stored per link: a token stays valid as long as the secret does, and using it twice changes nothing more.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NotificationEventSchema, NotificationSettingsSchema, type NotificationEvent, type NotificationSettings } from '../../shared/api/notifications.ts';
import type { Db } from '../db/database.ts';
import { notificationSettingOf, notificationSettingValues } from '../db/tables/notification-settings.ts';
import { DEFAULT_SCOPE } from './preferences.ts';

/** What game mail needs besides the transaction: the site's address for links, and the secret that signs them. */
export type NotifyEnv = { publicUrl: string; secret: string };

export type UnsubscribeClaim = { userId: string; scope: string; event: NotificationEvent };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function signature(secret: string, body: string): Buffer {
  // A key of its own for these links, so the secret may serve other purposes without a token of one being valid for another.
  return createHmac('sha256', secret).update(`unsubscribe\n${body}`).digest();
}

/** The token of one choice: `<user>.<scope>.<event>.<signature>` (base64url signature). */
export function unsubscribeToken(secret: string, claim: UnsubscribeClaim): string {
  const body = `${claim.userId}.${claim.scope}.${claim.event}`;
  return `${body}.${signature(secret, body).toString('base64url')}`;
}

/** The claim a token makes, or null when it is malformed or not signed with this secret. */
export function verifyUnsubscribeToken(secret: string, token: string): UnsubscribeClaim | null {
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [userId, scope, event, signed] = parts;
  if (!UUID.test(userId) || !(scope === DEFAULT_SCOPE || UUID.test(scope))) return null;
  const parsedEvent = NotificationEventSchema.safeParse(event);
  if (!parsedEvent.success) return null;
  const given = Buffer.from(signed, 'base64url');
  const expected = signature(secret, `${userId}.${scope}.${event}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, scope, event: parsedEvent.data };
}

/** The address a mail's List-Unsubscribe header and footer link name. */
export function unsubscribeUrl(env: NotifyEnv, claim: UnsubscribeClaim): string {
  return `${env.publicUrl}/api/notifications/unsubscribe?token=${encodeURIComponent(unsubscribeToken(env.secret, claim))}`;
}

/**
 * Turns the claim's mail choice off in its scope, keeping every other choice of that scope. Returns false when the
 * user no longer exists (a deleted account: nothing to turn off).
 */
export async function applyUnsubscribe(tx: Db, claim: UnsubscribeClaim): Promise<boolean> {
  const user = await tx.user.findUnique({ where: { id: claim.userId }, select: { id: true } });
  if (!user) return false;
  if (claim.scope !== DEFAULT_SCOPE) {
    const game = await tx.game.findUnique({ where: { id: claim.scope }, select: { id: true } });
    if (!game) return false;
  }
  // Row-locked read, so a settings change racing with the click is not overwritten by a stale copy.
  await tx.$queryRaw`SELECT 1 FROM notification_settings WHERE user_id = ${claim.userId}::uuid AND scope = ${claim.scope} FOR UPDATE`;
  const row = await tx.notificationSetting.findUnique({ where: { userId_scope: { userId: claim.userId, scope: claim.scope } } });
  const current: NotificationSettings = row ? notificationSettingOf(row).settings : {};
  const settings = NotificationSettingsSchema.parse({ ...current, mail: { ...current.mail, [claim.event]: false } });
  const values = notificationSettingValues({ settings });
  await tx.notificationSetting.upsert({
    where: { userId_scope: { userId: claim.userId, scope: claim.scope } },
    create: { userId: claim.userId, scope: claim.scope, ...values },
    update: values,
  });
  return true;
}

/**
 * The secret that signs unsubscribe links: NOTIFY_SECRET when set (several instances must share it), else one made
 * at the first start and kept in DATA_DIR (so links in mail already sent keep working after a restart).
 */
export function notifySecretFrom(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'notify-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
