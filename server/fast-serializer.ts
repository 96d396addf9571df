/**
 * A cheaper serializer for the success body of the busiest route (order
 * submissions). Every route's responses go through zod (fastify-type-provider-zod),
 * which checks the whole body against its schema before JSON.stringify: for a
 * submission, about three times the cost of writing it. Here the route's zod
 * schema is turned into JSON Schema once and compiled by fast-json-stringify,
 * Fastify's own serializer, which likewise writes only the properties the
 * schema declares (nothing undeclared can leak) but does not check the body
 * first. So it is for handlers that build their body field by field from typed
 * values; other status codes keep zod's serializer.
 */
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type ZodRoute = Parameters<typeof zodSerializerCompiler>[0];

/** As a route's `serializerCompiler` (Fastify types it by the route's whole schema, hence the loose parameter). */
export function compiledSuccessSerializer(route: { schema: unknown; method: string; url: string; httpStatus?: string }): (data: unknown) => string {
  if (String(route.httpStatus) !== '200') return zodSerializerCompiler(route as ZodRoute);
  const jsonSchema = z.toJSONSchema(route.schema as z.ZodType, { io: 'output', target: 'draft-7' });
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
}
