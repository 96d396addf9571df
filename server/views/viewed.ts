/**
 * The mark a view puts on what it made: every response body a route returns comes from a view (server/views/), which
 * applied the access policy to it. `viewed` records the object (a WeakSet: nothing is copied, nothing kept alive);
 * route-views.ts checks, in tests, that the body a route answers with carries the mark, so that a route which shapes
 * game data by hand (and may forget a rule) fails at once instead of leaking.
 */
const made = new WeakSet<object>();

/** `value`, marked as made by a view. */
export function viewed<T extends object>(value: T): T {
  made.add(value);
  return value;
}

/** Whether a view made `value`. */
export function isViewed(value: unknown): boolean {
  return typeof value === 'object' && value !== null && made.has(value);
}
