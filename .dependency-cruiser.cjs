/**
 * The module structure `npm test` holds the code to (tests/architecture.test.ts runs these rules):
 * no import cycles; an engine (shared/) that stays pure; and a server whose domains meet only through its core.
 *
 * The server's core: the game-play core (play/), who may see what (access/), the views that apply it (views/),
 * the database (db/), authentication (auth/), the event bus (bus/) and the notifications' outbox (notify/). Its
 * domains, one Fastify plugin each: accounts, admin, archive, battles, calendar, clock-votes, draws, games, gm, live,
 * loans, map-images, notifications, orders, phases, press, profiles, push, seats, vacations, webhooks. A domain imports the core
 * and its own files, never another domain's; the core imports no domain.
 */
const DOMAINS =
  '(accounts|admin|archive|battles|calendar|clock-votes|draws|games|gm|live|loans|map-images|notifications|orders|phases|press|profiles|push|seats|vacations|webhooks)';
const CORE = '(play|access|views|db|auth|bus|notify)';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Modules that import each other in a circle cannot be understood, loaded or tested one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-is-pure',
      severity: 'error',
      comment: 'The rules engine runs in Node and in the browser and does no I/O: it imports nothing of the server, the client, the tests or Node.',
      from: { path: '^shared/' },
      to: { path: ['^(server|web|tests|soak|bench|tools)/', '^node:', '^(fs|path|http|https|net|crypto|child_process|os)$'] },
    },
    {
      name: 'domains-meet-through-the-core',
      severity: 'error',
      comment: 'A server domain uses the core, not another domain: what two domains share belongs in the core.',
      from: { path: `^server/${DOMAINS}/` },
      to: { path: `^server/${DOMAINS}/`, pathNot: '^server/$1/' },
    },
    {
      name: 'core-knows-no-domain',
      severity: 'error',
      comment: 'The core (game play, access, views, database, authentication, bus) is what domains build on; it imports none of them.',
      from: { path: `^server/${CORE}/` },
      to: { path: `^server/${DOMAINS}/` },
    },
    {
      name: 'client-is-not-server',
      severity: 'error',
      comment: 'The web client talks to the server over HTTP and the websocket only; it shares the engine and the wire schemas (shared/).',
      from: { path: '^web/src/' },
      to: { path: '^server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^server/db/generated/', '^dist/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json', '.svelte'] },
  },
};
