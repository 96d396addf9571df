/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document
 * (what fastify-type-provider-zod makes of the zod schemas in shared/api), so
 * a route added tomorrow is fuzzed with bodies of its own shape without
 * anyone writing a generator for it. Covers the keywords that document uses
 * ($ref, const, enum, anyOf/oneOf, type, format, pattern, lengths, bounds,
 * items, properties, required, additionalProperties); an unknown keyword
 * falls back to any JSON value.
 */
import fc from 'fast-check';

export type JsonSchema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};

export type OpenApiDocument = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
        requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
  components: { schemas: Record<string, JsonSchema> };
};

/** Strings a server should survive anywhere a string goes. */
export const nastyStrings = [
  '',
  ' ',
  '\u0000',
  '\uFFFF',
  '\uD800',
  '🙂',
  '../../etc/passwd',
  "'; DROP TABLE users; --",
  '%00',
  '${7*7}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'NaN',
  '-0',
  '1e309',
  '00000000-0000-0000-0000-000000000000',
  'game:',
  'lobby',
];

const anyJson = fc.jsonValue({ maxDepth: 3 });
/** Any value at all, JSON-wise: includes huge strings, big numbers and deep nesting. */
export const garbage: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: anyJson },
  { weight: 1, arbitrary: fc.constantFrom(...nastyStrings) },
  { weight: 1, arbitrary: fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1, 0, 1e308, -1e308, 0.5, 2 ** 31, -(2 ** 31) - 1) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 80_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 3000 }).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n))) },
);

export class SchemaArbitraries {
  private readonly cache = new Map<string, fc.Arbitrary<unknown>>();

  /**
   * `hints`: real values by property name (a power of the game, a centre it holds, orders for its
   * units…), mixed in with the schema's own so that requests also get past the rules to the logic.
   */
  constructor(
    private readonly document: OpenApiDocument,
    private readonly hints: Record<string, unknown[]> = {},
  ) {}

  private property(key: string, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const own = this.valid(schema, depth);
    const hinted = this.hints[key];
    return hinted && hinted.length > 0 && depth < 3 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...hinted) }, { weight: 2, arbitrary: own }) : own;
  }

  resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let guard = 0; current.$ref && guard < 20; guard++) {
      const name = current.$ref.replace('#/components/schemas/', '');
      const target = this.document.components.schemas[name];
      if (!target) throw new Error(`unresolved $ref ${current.$ref}`);
      current = target;
    }
    return current;
  }

  /** Values of the schema's shape (depth-limited: deep optional parts are left out). */
  valid(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
    // A recursive schema stops here.
    if (depth > 14) return fc.constant(null);
    if (schema.$ref) {
      const key = `${schema.$ref}@${depth}`;
      let cached = this.cache.get(key);
      if (!cached) {
        cached = this.valid(this.resolve(schema), depth);
        this.cache.set(key, cached);
      }
      return cached;
    }
    if ('const' in schema) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) return fc.oneof(...alternatives.map((alternative) => this.valid(alternative, depth + 1)));
    if (schema.allOf && schema.allOf.length > 0) return this.valid(schema.allOf[0], depth);
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    if (types.length > 1) return fc.oneof(...types.map((type) => this.valid({ ...schema, type }, depth)));
    switch (types[0]) {
      case 'string':
        return this.string(schema);
      case 'integer': {
        const min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
        const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
        // Where the database's columns end (32-bit integers) and JavaScript's exact ones do: inside the bounds only.
        const edges = [0, 1, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53 - 1, -(2 ** 53 - 1), min, max].filter((n) => n >= min && n <= max);
        return fc.oneof(
          { weight: 3, arbitrary: fc.integer({ min: Math.max(min, -1e6), max: Math.min(max, 1e6) }) },
          { weight: 2, arbitrary: fc.constantFrom(...edges) },
        );
      }
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const items = schema.items ?? {};
        const minLength = schema.minItems ?? 0;
        const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, depth > 4 ? minLength : 4));
        return fc.array(this.valid(items, depth + 1), { minLength, maxLength });
      }
      case 'object': {
        const properties = schema.properties ?? {};
        const required = new Set(schema.required ?? []);
        // Deep down, only what is required (keeps generated states and exports small).
        const keys = Object.keys(properties).filter((key) => depth < 6 || required.has(key));
        const record = fc.record(Object.fromEntries(keys.map((key) => [key, this.property(key, properties[key], depth + 1)])), {
          requiredKeys: keys.filter((key) => required.has(key)),
        });
        if (typeof schema.additionalProperties === 'object' && keys.length === 0) {
          return fc.dictionary(fc.string({ maxLength: 8 }), this.valid(schema.additionalProperties, depth + 1), { maxKeys: depth > 3 ? 0 : 3 });
        }
        return record;
      }
      default:
        return anyJson;
    }
  }

  private string(schema: JsonSchema): fc.Arbitrary<string> {
    const minLength = schema.minLength ?? 0;
    const maxLength = schema.maxLength ?? 40;
    if (schema.format === 'uuid') return fc.uuid();
    if (schema.format === 'date-time')
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString());
    if (schema.pattern) {
      try {
        const pattern = new RegExp(schema.pattern);
        // The pattern itself may fix the length (a 64-digit hash): no default cap on it, or the filter never passes.
        const longest = schema.maxLength ?? Number.POSITIVE_INFINITY;
        return fc.stringMatching(pattern).filter((s) => s.length >= minLength && s.length <= longest);
      } catch {
        // A pattern JavaScript cannot compile: plain strings.
      }
    }
    return fc.oneof(
      { weight: 5, arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 30) }) },
      { weight: 1, arbitrary: fc.constantFrom(...nastyStrings).filter((s) => s.length >= minLength && s.length <= maxLength) },
      // Right at the limit.
      { weight: 1, arbitrary: fc.constant('y'.repeat(Math.min(maxLength, 20_000))) },
    );
  }
}

type Path = (string | number)[];

function leafPaths(value: unknown, path: Path = [], out: Path[] = [], depth = 0): Path[] {
  out.push(path);
  if (depth > 8) return out;
  if (Array.isArray(value)) value.forEach((item, i) => leafPaths(item, [...path, i], out, depth + 1));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) leafPaths(item, [...path, key], out, depth + 1);
  return out;
}

function setAt(value: unknown, path: Path, replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const copy: unknown = structuredClone(value);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    parent[last] = replacement;
  }
  return copy;
}

/** A valid-shaped value with one thing wrong: a field dropped, retyped, made huge, or an unknown one added. */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, fc.nat(), fc.constantFrom('drop', 'retype', 'huge', 'extra', 'proto'), garbage).map(([value, at, kind, junk]) => {
    const paths = leafPaths(value);
    const path = paths[at % paths.length];
    switch (kind) {
      case 'drop':
        return path.length === 0 ? undefined : setAt(value, path, undefined, true);
      case 'retype':
        return setAt(value, path, junk);
      case 'huge':
        return setAt(value, path, 'z'.repeat(5000 + (at % 70_000)));
      case 'extra':
        return value && typeof value === 'object' && !Array.isArray(value) ? { ...value, [`unexpected${at % 7}`]: junk } : [value, junk];
      default:
        // Serialised as it stands: a "__proto__" key in the JSON text.
        return { __rawJson: `{"__proto__": {"isAdmin": true}, "x": ${JSON.stringify(value ?? null)}}` };
    }
  });
}
