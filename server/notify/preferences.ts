/**
 * A user's notification choices (notification_settings), as the outbox's writers ask for them: one read per user
 * for all of a game's recipients at once.
 */
import type { Db } from '../db/database.ts';
import { effectiveNotifications, type EffectiveNotifications, type NotificationSettings } from '../../shared/api/notifications.ts';
import { notificationSettingOf } from '../db/tables/notification-settings.ts';

export const DEFAULT_SCOPE = 'default';

/** Each user's choices for the game (or their defaults, when `gameId` is null). */
export async function preferencesOf(tx: Db, userIds: readonly string[], gameId: string | null): Promise<Map<string, EffectiveNotifications>> {
  const scopes = gameId ? [DEFAULT_SCOPE, gameId] : [DEFAULT_SCOPE];
  const rows = userIds.length === 0 ? [] : await tx.notificationSetting.findMany({ where: { userId: { in: [...userIds] }, scope: { in: scopes } } });
  const byUser = new Map<string, { defaults: NotificationSettings | null; game: NotificationSettings | null }>();
  for (const row of rows) {
    const { userId, scope, settings } = notificationSettingOf(row);
    const entry = byUser.get(userId) ?? { defaults: null, game: null };
    if (scope === DEFAULT_SCOPE) entry.defaults = settings;
    else entry.game = settings;
    byUser.set(userId, entry);
  }
  return new Map(userIds.map((id) => [id, effectiveNotifications(byUser.get(id)?.defaults ?? null, byUser.get(id)?.game ?? null)]));
}
