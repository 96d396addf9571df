/** The `notification_settings` table's JSON column: one scope's choices (shared/api/notifications.ts). */
import { NotificationSettingsSchema, type NotificationSettings } from '../../../shared/api/notifications.ts';
import { parser, storedDataInvalid, storedValues } from './stored.ts';

const read = parser(NotificationSettingsSchema);

/** A row (keyed by user and scope, no id of its own) with its settings parsed. */
export function notificationSettingOf<R extends { userId: string; scope: string; settings: unknown }>(
  row: R,
): Omit<R, 'settings'> & { settings: NotificationSettings } {
  try {
    return { ...row, settings: read(row.settings) };
  } catch (error) {
    throw storedDataInvalid('notification_settings', 'settings', `${row.userId}/${row.scope}`, error);
  }
}
export const notificationSettingValues = storedValues<{ settings: NotificationSettings }>();
