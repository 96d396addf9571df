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
 *
 * A union (`oneOf`/`anyOf`) makes fast-json-stringify validate each value
 * against the union's branches in turn, whole, to find the one to write (an
 * order against up to eleven kinds, with their patterns): that was half of its
 * cost. A union whose branches are told apart by one property's constant (zod's
 * discriminated unions: an order's `kind`, a verdict's `accepted`) is written as
 * `if`/`then`/`else` on that property alone, which picks the same branch.
 */
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type ZodRoute = Parameters<typeof zodSerializerCompiler>[0];
type JsonSchema = { [key: string]: unknown };

/** As a route's `serializerCompiler` (Fastify types it by the route's whole schema, hence the loose parameter). */
export function compiledSuccessSerializer(route: { schema: unknown; method: string; url: string; httpStatus?: string }): (data: unknown) => string {
  if (String(route.httpStatus) !== '200') return zodSerializerCompiler(route as ZodRoute);
  const jsonSchema = z.toJSONSchema(route.schema as z.ZodType, { io: 'output', target: 'draft-7' });
  return fastJson(branchesByDiscriminator(jsonSchema) as Parameters<typeof fastJson>[0]);
}

/** The property whose constant tells every branch apart (present and different in each), if there is one. */
function discriminatorOf(branches: unknown[]): string | null {
  const objects = branches as Array<{ type?: unknown; properties?: Record<string, { const?: unknown }>; required?: unknown }>;
  if (branches.length < 2 || !objects.every((branch) => branch?.type === 'object' && branch.properties)) return null;
  for (const key of Object.keys(objects[0].properties!)) {
    const values = objects.map((branch) =>
      Array.isArray(branch.required) && branch.required.includes(key) && branch.properties![key] && 'const' in branch.properties![key]
        ? branch.properties![key].const
        : undefined,
    );
    if (values.every((value) => value !== undefined) && new Set(values).size === values.length) return key;
  }
  return null;
}

/** The schema with each discriminated union as a chain of `if`/`then`/`else` on its discriminator (see above). */
export function branchesByDiscriminator(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(branchesByDiscriminator);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) out[key] = branchesByDiscriminator(value);
  const union = (out.oneOf ?? out.anyOf) as JsonSchema[] | undefined;
  const key = Array.isArray(union) ? discriminatorOf(union) : null;
  if (!union || key === null) return out;
  const { oneOf: _oneOf, anyOf: _anyOf, ...rest } = out;
  let chain: JsonSchema = union.at(-1)!;
  for (let i = union.length - 2; i >= 0; i--) {
    const value = (union[i].properties as Record<string, { const: unknown }>)[key].const;
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword, in a schema (never awaited).
    chain = { if: { type: 'object', properties: { [key]: { const: value } }, required: [key] }, then: union[i], else: chain };
  }
  return { ...rest, ...chain };
}
