/** A facing as a schema whose type is the hex sea's Facing (0 to 5), so that states need no casts. */
import { z } from 'zod';

export const FacingField = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);
