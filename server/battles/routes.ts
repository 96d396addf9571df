/**
 * Naval battles, mounted at /api: the rulesets and their scenarios, creating, listing, viewing, joining and leaving
 * battles, acting, the log, the record (export, verification, import); and the loop that lets the computer act for
 * a side whose time ran out (deadlines.ts), started with the app and stopped first on close.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BATTLE_IMPORT_LIMITS,
  BATTLE_RULESET_IDS,
  BattleActionConflictSchema,
  BattleActionRefusedSchema,
  BattleImportRefusedSchema,
  BattleActionRequestSchema,
  BattleDetailSchema,
  BattleIdParamsSchema,
  BattleListSchema,
  BattleLogQuerySchema,
  BattleLogSchema,
  BattleNoteRequestSchema,
  BattleNoteSchema,
  BattleNotesSchema,
  BattlePageQuerySchema,
  BattleRulesetListSchema,
  BattleVerificationSchema,
  CreateBattleRequestSchema,
  ExportedBattleSchema,
  ImportBattleRequestSchema,
  JoinBattleRequestSchema,
  ListBattlesQuerySchema,
  MAX_BATTLE_NOTES,
  ViewBattleQuerySchema,
} from '../../shared/api/battles.ts';
import { FightSeaRequestSchema, SeaBattleSchema } from '../../shared/api/campaign.ts';
import { PhaseParamsSchema } from '../../shared/api/play.ts';
import { RULESETS, SCENARIOS } from '../../shared/naval/index.ts';
import { z } from 'zod';
import { requireUser } from '../auth/authenticate.ts';
import { errorResponses } from '../schemas.ts';
import { act } from './actions.ts';
import { ComputerPool } from './computer-pool.ts';
import { BattleDeadlines } from './deadlines.ts';
import { battleLog, cancelBattle, createBattle, joinBattle, leaveBattle, listBattles, viewBattle } from './lobby.ts';
import { viewWithLegalActions } from './legal-list.ts';
import { addNote, readNotes } from './notes.ts';
import type { BattleEnv } from './play.ts';
import { exportBattle, importBattle, verifyBattle } from './record.ts';
import { autoResolveSea, fightSea } from './from-sea.ts';
import { abandonSea } from './sea-abandon.ts';
import { agreeToAutoResolve } from './sea-agreement.ts';
import { SeaDeadlines } from './sea-deadlines.ts';
import { SeaOddsEstimates } from './sea-odds.ts';

const tags = ['battles'];

/** Battles a user may create per hour: each holds seats in the open list and a seed; a script should not fill the lobby. */
export const BATTLE_CREATE_LIMIT = { max: 20, windowMs: 3600_000 };

const battlesRoutes: FastifyPluginAsyncZod = async (app) => {
  const env: BattleEnv = { bus: app.bus, log: app.log.child({ module: 'battles' }), computer: new ComputerPool(), play: app.play };
  const deadlines = new BattleDeadlines(app.prisma, env, app.log.child({ module: 'battle-deadlines' }), app.settings.scheduler);
  const seaDeadlines = new SeaDeadlines(app.prisma, env, app.log.child({ module: 'sea-deadlines' }), app.settings.scheduler);
  const seaOdds = new SeaOddsEstimates(app.prisma, env, app.log.child({ module: 'sea-odds' }));
  app.addHook('onReady', async () => {
    deadlines.start();
    seaDeadlines.start();
    // Estimates a previous run of the server left unfinished go on from their saved progress.
    await seaOdds.resume();
  });
  app.addHook('preClose', async () => {
    await Promise.all([deadlines.stop(), seaDeadlines.stop(), seaOdds.stop()]);
  });
  // After the loop and the requests: none is left waiting for the computer's answer.
  app.addHook('onClose', async () => env.computer.close());

  const viewer = (request: { auth: { user: Parameters<typeof viewBattle>[1] } | null }) => request.auth?.user ?? null;

  app.get(
    '/battle-rulesets',
    {
      // The rulesets and their shipped scenarios: the project's own data, no battle's.
      config: { view: 'none' },
      schema: { tags, summary: 'Naval battle rulesets and their shipped scenarios', response: { 200: BattleRulesetListSchema, ...errorResponses } },
    },
    // The rulesets the API offers (the registry may hold one still being built).
    async () => ({
      rulesets: BATTLE_RULESET_IDS.map((id) => ({
        id,
        title: RULESETS[id].title,
        scenarios: SCENARIOS[id].map(({ id: scenario, title, source }) => ({ id: scenario, title, source })),
      })),
    }),
  );

  app.post(
    '/battles',
    {
      config: {
        rateLimit: { max: BATTLE_CREATE_LIMIT.max, timeWindow: BATTLE_CREATE_LIMIT.windowMs, keyGenerator: (request) => request.auth?.user.id ?? request.ip },
      },
      schema: {
        tags,
        summary: 'Create a battle: a ruleset, a shipped scenario or your own set-up, who plays each side, an umpire seat, the clock',
        description: `At most ${BATTLE_CREATE_LIMIT.max} battles per user and hour (429 after that).`,
        body: CreateBattleRequestSchema,
        response: { 201: BattleDetailSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createBattle(env, app, requireUser(request), request.body)),
  );

  app.get(
    '/battles',
    {
      schema: {
        tags,
        summary: 'List battles: open, active, finished (the archive), or mine; newest first, paginated',
        querystring: ListBattlesQuerySchema,
        response: { 200: BattleListSchema, ...errorResponses },
      },
    },
    async (request) => listBattles(app, viewer(request), request.query),
  );

  app.get(
    '/battles/:battleId',
    {
      schema: {
        tags,
        summary: 'View a battle as your seat may see it: the state, the board, whose turn (and whether you must act), the dice commitment',
        description: "Your legal actions are the ruleset's for the state shown (the web client runs the engine); `legalActions=true` lists them as well.",
        params: BattleIdParamsSchema,
        querystring: BattlePageQuerySchema,
        response: { 200: BattleDetailSchema, ...errorResponses },
      },
    },
    async (request) =>
      request.query.legalActions === 'true'
        ? viewWithLegalActions(env, app, viewer(request), request.params.battleId, request.query.inviteCode)
        : viewBattle(app, viewer(request), request.params.battleId, request.query.inviteCode),
  );

  app.post(
    '/battles/:battleId/join',
    {
      schema: {
        tags,
        summary:
          'Take a seat: a side played by a human, or the umpire (with the invite code for a private battle); the battle starts when every human seat is taken',
        params: BattleIdParamsSchema,
        body: JoinBattleRequestSchema,
        response: { 200: BattleDetailSchema, ...errorResponses },
      },
    },
    async (request) => joinBattle(env, app, requireUser(request), request.params.battleId, request.body),
  );

  app.post(
    '/battles/:battleId/leave',
    {
      schema: {
        tags,
        summary: 'Give up your seat before the battle starts',
        params: BattleIdParamsSchema,
        response: { 200: BattleDetailSchema, ...errorResponses },
      },
    },
    async (request) => leaveBattle(env, app, requireUser(request), request.params.battleId),
  );

  app.post(
    '/battles/:battleId/cancel',
    {
      schema: {
        tags,
        summary: 'Call off a battle that has not started (its creator): it leaves the open list and its seats are freed',
        params: BattleIdParamsSchema,
        response: { 200: BattleDetailSchema, ...errorResponses },
      },
    },
    async (request) => cancelBattle(env, app, requireUser(request), request.params.battleId),
  );

  app.get(
    '/battles/:battleId/log',
    {
      schema: {
        tags,
        summary: "The battle's log: the start, then every action with the rules' account of it and its dice (another side's plot only once resolved)",
        params: BattleIdParamsSchema,
        querystring: BattleLogQuerySchema.extend(ViewBattleQuerySchema.shape),
        response: { 200: BattleLogSchema, ...errorResponses },
      },
    },
    async (request) => battleLog(app, viewer(request), request.params.battleId, request.query),
  );

  app.post(
    '/battles/:battleId/actions',
    {
      schema: {
        tags,
        summary:
          'Act for your side: 409 when the battle has moved on since you looked (`expected`), 422 with the rules\u2019 code and reason when they refuse the action; the computer then plays its seats',
        params: BattleIdParamsSchema,
        body: BattleActionRequestSchema,
        response: { 200: BattleDetailSchema, 409: BattleActionConflictSchema, 422: BattleActionRefusedSchema, ...errorResponses },
      },
    },
    async (request) => act(env, app, requireUser(request), request.params.battleId, request.body),
  );

  app.get(
    '/battles/:battleId/notes',
    {
      schema: {
        tags,
        summary: "The umpire's notes: the umpire's alone while the battle is fought (403 for others), everyone's once it is over",
        params: BattleIdParamsSchema,
        response: { 200: BattleNotesSchema, ...errorResponses },
      },
    },
    async (request) => readNotes(app, viewer(request), request.params.battleId),
  );

  app.post(
    '/battles/:battleId/notes',
    {
      schema: {
        tags,
        summary: `Write a note, as the battle's umpire (at most ${MAX_BATTLE_NOTES} a battle)`,
        params: BattleIdParamsSchema,
        body: BattleNoteRequestSchema,
        response: { 201: BattleNoteSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await addNote(app, requireUser(request), request.params.battleId, request.body.text)),
  );

  app.get(
    '/battles/:battleId/export',
    {
      schema: {
        tags,
        summary: "The battle's record (what you may see of it): set-up, salt, commitment, every action with its log; the seed once it is over",
        params: BattleIdParamsSchema,
        querystring: ViewBattleQuerySchema,
        response: { 200: ExportedBattleSchema, ...errorResponses },
      },
    },
    async (request) => exportBattle(app, viewer(request), request.params.battleId, request.query.inviteCode),
  );

  app.get(
    '/battles/:battleId/verification',
    {
      schema: {
        tags,
        summary: "A finished battle's dice checked against its revealed seed, and its actions replayed",
        params: BattleIdParamsSchema,
        response: { 200: BattleVerificationSchema, ...errorResponses },
      },
    },
    async (request) => verifyBattle(app, viewer(request), request.params.battleId),
  );

  // A campaign game's contested seas fought as battles (from-sea.ts, sea-odds.ts); the rest of a sea's routes are server/campaign/'s.
  const SeaParamsSchema = PhaseParamsSchema.extend({
    sea: z.string().min(1).max(40).describe('The contested sea: its province id, as the phase lists it ("ION")'),
  });
  const campaignTags = ['campaign'];

  app.post(
    '/games/:gameId/phases/:index/seas/:sea/battle',
    {
      schema: {
        tags: campaignTags,
        summary:
          "Fight a contested sea as a battle of the game's ruleset (the game master): each side played by its first power's player (the computer for a power without one), the game master as umpire; its result decides the sea",
        params: SeaParamsSchema,
        body: FightSeaRequestSchema,
        response: { 200: SeaBattleSchema, ...errorResponses },
      },
    },
    async (request) => fightSea(env, app, requireUser(request), request.params, request.body),
  );

  app.post(
    '/games/:gameId/phases/:index/seas/:sea/auto-resolve',
    {
      schema: {
        tags: campaignTags,
        summary:
          "Auto-resolve a contested sea (the game master): the computer fights both sides to the end on the server's committed dice; the finished battle (which verifies like any other) decides the sea",
        params: SeaParamsSchema,
        response: { 200: SeaBattleSchema, ...errorResponses },
      },
    },
    async (request) => autoResolveSea(env, app, requireUser(request), request.params),
  );

  app.post(
    '/games/:gameId/phases/:index/seas/:sea/odds',
    {
      schema: {
        tags: campaignTags,
        summary:
          'Estimate the odds of a contested sea (the game master, or a player of a power fighting there): computer battles fought in the background, their progress saved in the sea\u2019s `odds` and published (sea.changed); 202 with the progress so far, a second ask too',
        params: SeaParamsSchema,
        response: { 202: SeaBattleSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(202).send(await seaOdds.ask(app, requireUser(request), request.params)),
  );

  app.post(
    '/games/:gameId/phases/:index/seas/:sea/abandon',
    {
      schema: {
        tags: campaignTags,
        summary:
          'Abandon the battle being fought for a contested sea (the game master; not one who plays a power fighting there, 403 game_master_plays): the battle ends with nobody winning it, marked abandoned, and the sea is undecided again, to be fought, decided, waived or auto-resolved',
        params: SeaParamsSchema,
        response: { 200: SeaBattleSchema, ...errorResponses },
      },
    },
    async (request) => abandonSea(env, app, requireUser(request), request.params),
  );

  app.post(
    '/games/:gameId/phases/:index/seas/:sea/agreement',
    {
      schema: {
        tags: campaignTags,
        summary:
          "Agree, as the player of a power fighting in an undecided contested sea, to auto-resolve it; once every power fighting there has agreed, the computer fights it out as the game master's auto-resolve does (the answer is the sea decided)",
        params: SeaParamsSchema,
        response: { 200: SeaBattleSchema, ...errorResponses },
      },
    },
    async (request) => agreeToAutoResolve(env, app, requireUser(request), request.params, true),
  );

  app.delete(
    '/games/:gameId/phases/:index/seas/:sea/agreement',
    {
      schema: {
        tags: campaignTags,
        summary: "Withdraw your power's agreement to auto-resolve a contested sea, while the sea is undecided",
        params: SeaParamsSchema,
        response: { 200: SeaBattleSchema, ...errorResponses },
      },
    },
    async (request) => agreeToAutoResolve(env, app, requireUser(request), request.params, false),
  );

  app.post(
    '/battles/import',
    {
      bodyLimit: BATTLE_IMPORT_LIMITS.bodyBytes,
      // Who may import is known before the body is read: anonymous requests stop here, their bodies unread.
      preParsing: async (request) => {
        requireUser(request);
      },
      config: {
        maxJsonItems: BATTLE_IMPORT_LIMITS.jsonItems,
        maxJsonKeys: BATTLE_IMPORT_LIMITS.jsonKeys,
        // Each import replays the whole battle: a few per user and window, as game imports.
        rateLimit: {
          max: app.settings.importRateLimit.max,
          timeWindow: app.settings.importRateLimit.windowMs,
          keyGenerator: (request) => request.auth?.user.id ?? request.ip,
        },
      },
      schema: {
        tags,
        summary:
          'Import a finished battle\u2019s record: every die is checked against its seed and the battle replayed; refused (422, with the problems) when it does not check out',
        description: `The body: at most ${BATTLE_IMPORT_LIMITS.bodyBytes / 1024 / 1024} MiB, ${BATTLE_IMPORT_LIMITS.jsonItems} JSON values and keys (413).`,
        body: ImportBattleRequestSchema,
        response: { 201: BattleDetailSchema, 422: BattleImportRefusedSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await importBattle(app, requireUser(request), request.body)),
  );
};

export default battlesRoutes;
