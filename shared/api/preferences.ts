/** A user's own preferences (PUT /api/auth/preferences): for now, the time zone every time is shown in. */
import { z } from 'zod';
import { TimeZoneSchema } from './games.ts';

export const UpdatePreferencesRequestSchema = z
  .object({
    timeZone: TimeZoneSchema.nullable().describe("The IANA time zone the site, mail and calendars show times in; null: the browser's own"),
  })
  .meta({ id: 'UpdatePreferencesRequest' });
export type UpdatePreferencesRequest = z.input<typeof UpdatePreferencesRequestSchema>;

export const PreferencesSchema = z
  .object({ timeZone: z.string().nullable().describe("The chosen IANA time zone; null: the browser's own") })
  .meta({ id: 'Preferences' });
export type Preferences = z.infer<typeof PreferencesSchema>;
