/**
 * Every API route answers with what a view made (viewed.ts), or says at the route why its body carries no game
 * data (`config: { view: 'none' }`, with a comment). When the setting `checkViews` is on (every test app), a 2xx
 * body that is neither fails loudly: 500 `unviewed_response` and a log line naming the route. A body written as a
 * stream (the exports) is checked as the stream it is.
 *
 * Off in production: the check costs a hook per response and would only turn a leak the tests missed into an outage.
 * `routeViews(app)` tells the tests which routes answered with a view's body, and which declared they need none.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { HttpError } from '../errors.ts';
import { isViewed } from './viewed.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'none': this route's body carries no game data (say why beside it), so no view makes it. */
    view?: 'none';
  }
}

/** How a route answers: by a view's body, declared as needing none, or over a websocket (its events are published through views). */
export type RouteKind = 'view' | 'none' | 'websocket';

type Registry = {
  /** "METHOD /api/path/:param" → how it answers. */
  routes: Map<string, RouteKind>;
  /** Routes that answered 2xx: with a view's body, or with no body at all. */
  answered: Map<string, Set<'viewed' | 'empty' | 'none'>>;
};

const registries = new WeakMap<FastifyInstance, Registry>();

const isApiRoute = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');
const keyOf = (method: string, url: string) => `${method} ${url}`;
const toList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/** Installs the check on every API route registered after this (call before the domains are registered). */
export function checkRouteViews(app: FastifyInstance): void {
  if (!app.settings.checkViews) return;
  const registry: Registry = { routes: new Map(), answered: new Map() };
  registries.set(app, registry);

  const answered = (request: FastifyRequest, how: 'viewed' | 'empty' | 'none') => {
    const key = keyOf(request.method, request.routeOptions.url ?? '');
    registry.answered.set(key, (registry.answered.get(key) ?? new Set()).add(how));
  };
  const refuse = (request: FastifyRequest) => {
    const route = keyOf(request.method, request.routeOptions.url ?? '');
    request.log.error({ route }, `unviewed response: ${route} answered with a body no view made (server/views/)`);
    return new HttpError(500, 'unviewed_response', `${route} answered with a body that no view made (server/views/)`);
  };
  const succeeded = (reply: FastifyReply) => reply.statusCode >= 200 && reply.statusCode < 300;

  async function checkBody(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    if (!succeeded(reply)) return payload;
    if (request.routeOptions.config.view === 'none') answered(request, 'none');
    else if (isViewed(payload)) answered(request, 'viewed');
    else throw refuse(request);
    return payload;
  }
  // preSerialization sees only objects; a stream (or no body) is seen here.
  async function checkStream(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    if (!succeeded(reply)) return payload;
    if (payload === undefined || payload === null || payload === '') answered(request, 'empty');
    else if (payload instanceof Readable && request.routeOptions.config.view !== 'none') {
      if (!isViewed(payload)) throw refuse(request);
      answered(request, 'viewed');
    }
    return payload;
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isApiRoute(route.url)) return;
    for (const method of toList(route.method)) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const kind: RouteKind = 'wsHandler' in route && route.wsHandler ? 'websocket' : route.config?.view === 'none' ? 'none' : 'view';
      registry.routes.set(keyOf(method, route.url), kind);
    }
    route.preSerialization = [...toList(route.preSerialization), checkBody] as RouteOptions['preSerialization'];
    route.onSend = [...toList(route.onSend), checkStream] as RouteOptions['onSend'];
  });
}

/** What the check saw, for the tests: each API route's kind, and how those that answered 2xx answered. */
export function routeViews(app: FastifyInstance): { routes: ReadonlyMap<string, RouteKind>; answered: ReadonlyMap<string, ReadonlySet<string>> } {
  const registry = registries.get(app);
  if (!registry) throw new Error('the route-view check is off in this app (settings.checkViews)');
  return registry;
}
