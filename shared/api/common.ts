import { z } from 'zod';

export const IdSchema = z.uuid({ error: 'must be an id (a UUID)' });
/** Timestamps travel as ISO 8601 strings. */
export const TimestampSchema = z.iso.datetime({ offset: true });

export const UserRefSchema = z.object({ id: IdSchema, username: z.string() }).meta({ id: 'UserRef' });
export type UserRef = z.infer<typeof UserRefSchema>;
