/**
 * The calendar feed: a user's secret iCalendar address listing the open deadline of every game they play or run
 * (server/calendar/). The address is the secret: whoever has it reads the feed, so it can be changed (the old one
 * stops working) or turned off.
 */
import { z } from 'zod';

/** `GET /api/calendar/token`, and what creating or changing it answers: the address, or null while there is none. */
export const CalendarFeedSchema = z
  .object({
    url: z.string().nullable().describe('The feed address (https://…/api/calendar/<secret>.ics) to subscribe to in a calendar app; null: no feed'),
  })
  .meta({ id: 'CalendarFeed' });
export type CalendarFeed = z.infer<typeof CalendarFeedSchema>;
