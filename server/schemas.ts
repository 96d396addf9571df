/** Route-schema pieces shared by all domains. */
import { ApiErrorSchema } from '../shared/api/errors.ts';

/** Every route can answer with the common error body; listed so OpenAPI shows it. */
export const errorResponses = {
  '4xx': ApiErrorSchema,
  '5xx': ApiErrorSchema,
} as const;
