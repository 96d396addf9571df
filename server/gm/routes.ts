/** Game-master tools, the players' answers to a game master who plays, the invitation to take over, and the audit log; mounted at /api. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GameIdParamsSchema } from '../../shared/api/games.ts';
import {
  AnswerProposalRequestSchema,
  ChangeDeadlineRequestSchema,
  EndGameRequestSchema,
  GmActionResponseSchema,
  GmLogSchema,
  GmProposalListSchema,
  GmProposalResponseSchema,
  InviteGameMasterRequestSchema,
  PowerRequestSchema,
  ProposalAnsweredSchema,
  ProposalParamsSchema,
  ReplacePlayerRequestSchema,
  RollbackRequestSchema,
} from '../../shared/api/gm.ts';
import { CONSENT_TOOLS } from '../../shared/api/gm-actions.ts';
import { OrdersRejectedSchema, PhaseParamsSchema, SubmitOrdersRequestSchema, SubmitOrdersResponseSchema } from '../../shared/api/play.ts';
import { PowerIdSchema } from '../../shared/api/games.ts';
import { requireUser } from '../auth/authenticate.ts';
import { errorResponses } from '../schemas.ts';
import { answerProposal, listProposals, withdrawProposal } from './consent.ts';
import { acceptInvitation, dropInvitation, gmLog, useTool } from './service.ts';
import type { ToolName, ToolRequest } from '../play/gm-tools.ts';

const tags = ['game master'];
const isConsentTool = (tool: ToolName) => (CONSENT_TOOLS as readonly string[]).includes(tool);
/** What a tool answers: the action done; a tool that may need the players' consent may answer the request put to them instead. */
const consentToolResponse = { 200: GmActionResponseSchema, 202: GmProposalResponseSchema, ...errorResponses };
const toolResponse = (tool: ToolName) =>
  // Typed as the wider of the two: the handler answers 202 only for a consent tool (useTool makes no request otherwise).
  (isConsentTool(tool) ? consentToolResponse : { 200: GmActionResponseSchema, ...errorResponses }) as typeof consentToolResponse;

const consentNote = (tool: ToolName) =>
  isConsentTool(tool)
    ? 'Used by a game master who also plays a power in a game under way, it asks the other active players first (202 with the request); it acts once all of them agree (POST …/gm/proposals/{proposalId}/answer).'
    : 'Acts at once, whoever the game master is.';

const gmRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/games/:gameId/gm/log',
    {
      schema: {
        tags,
        summary: "The game master's audit log, oldest first (visible to whoever may see the game)",
        params: GameIdParamsSchema,
        response: { 200: GmLogSchema, ...errorResponses },
      },
    },
    async (request) => gmLog(app, request.auth?.user ?? null, request.params.gameId),
  );

  /** A tool's route: 200 with the action logged, or 202 with the request put to the players (a game master who plays). */
  const tool = <T extends ToolName>(path: string, name: T, summary: string, body?: z.ZodType) =>
    app.post(
      `/games/:gameId/gm/${path}`,
      {
        schema: {
          tags,
          summary,
          description: consentNote(name),
          params: GameIdParamsSchema,
          ...(body ? { body } : {}),
          response: toolResponse(name),
        },
      },
      async (request, reply) => {
        const outcome = await useTool(app, requireUser(request), request.params.gameId, name, (request.body ?? {}) as ToolRequest<T>);
        return 'proposal' in outcome ? reply.code(202).send(outcome) : reply.send(outcome);
      },
    );

  tool('process', 'process-now', 'Process the open phase now');
  tool(
    'deadline',
    'change-deadline',
    "Extend or shorten the open phase's deadline (not before now, at most 30 days ahead; a change must move it). While paused, it is kept as set: on resume only the time paused after the change moves it",
    ChangeDeadlineRequestSchema,
  );
  tool('pause', 'pause', 'Stop the clock');
  tool('resume', 'resume', 'Restart the clock; the deadline moves by the time paused (since it was last set, if set during the pause)');
  tool('replace', 'replace-player', "Hand a power's seat to another user", ReplacePlayerRequestSchema);
  tool(
    'civil-disorder',
    'civil-disorder',
    'Put a power in civil disorder: phases stop waiting for it (its player can come back by submitting orders)',
    PowerRequestSchema,
  );
  tool(
    'rollback',
    'rollback',
    'Re-open an earlier phase: later phases are discarded (kept in the archive), its orders stay for re-adjudication. In a game that has ended (until its result is final), the open phase may be named: the game goes on from it',
    RollbackRequestSchema,
  );
  tool(
    'end',
    'end-game',
    'End the game now: a draw among surviving powers (every survivor unless named, at least two) or a concession to one. Votes pending are dropped; until the result is final, a rollback to the open phase re-opens the game',
    EndGameRequestSchema,
  );
  tool(
    'finalize',
    'finalize',
    "Make an ended game's result final now: its private press and (anonymous game) names become public, and it can no longer be re-opened",
  );
  tool(
    'invite',
    'invite-game-master',
    'Ask another user to take over as game master; they become it only by accepting (replaces an invitation pending)',
    InviteGameMasterRequestSchema,
  );

  app.put(
    '/games/:gameId/gm/phases/:index/orders/:power',
    {
      schema: {
        tags,
        summary: "Enter orders for a power in the open phase (same checks and answers as a player's submission)",
        params: PhaseParamsSchema.extend({ power: PowerIdSchema }),
        body: SubmitOrdersRequestSchema,
        response: { 200: SubmitOrdersResponseSchema, 422: OrdersRejectedSchema, ...errorResponses },
      },
    },
    // Stored as a player's are (play/submissions.ts), and logged.
    async (request) =>
      app.submissions.submit({
        user: requireUser(request),
        gameId: request.params.gameId,
        phaseIndex: request.params.index,
        body: request.body,
        asGameMaster: { power: request.params.power },
      }),
  );

  app.get(
    '/games/:gameId/gm/proposals',
    {
      schema: {
        tags,
        summary: 'A game master who plays: the requests put to the players, oldest first, with who agreed (visible to whoever may see the game)',
        params: GameIdParamsSchema,
        response: { 200: GmProposalListSchema, ...errorResponses },
      },
    },
    async (request) => listProposals(app, request.auth?.user ?? null, request.params.gameId),
  );

  app.post(
    '/games/:gameId/gm/proposals/:proposalId/answer',
    {
      schema: {
        tags,
        summary: 'Agree to or refuse a request of a game master who plays (players whose consent it needs); the last agreement carries it out',
        description: '409 `proposal_closed` when it was answered, withdrawn, or lapsed as the game moved on (or can no longer be carried out).',
        params: ProposalParamsSchema,
        body: AnswerProposalRequestSchema,
        response: { 200: ProposalAnsweredSchema, ...errorResponses },
      },
    },
    async (request) => answerProposal(app, requireUser(request), request.params.gameId, request.params.proposalId, request.body.agree),
  );

  app.delete(
    '/games/:gameId/gm/proposals/:proposalId',
    {
      schema: {
        tags,
        summary: 'Withdraw your request before the players have all answered (game master)',
        params: ProposalParamsSchema,
        response: { 200: GmProposalResponseSchema, ...errorResponses },
      },
    },
    async (request) => withdrawProposal(app, requireUser(request), request.params.gameId, request.params.proposalId),
  );

  app.post(
    '/games/:gameId/gm/invitation/accept',
    {
      schema: {
        tags,
        summary: 'Accept the invitation to run the game: you are its game master from now on',
        params: GameIdParamsSchema,
        response: { 200: GmActionResponseSchema, ...errorResponses },
      },
    },
    async (request) => acceptInvitation(app, requireUser(request), request.params.gameId),
  );

  app.delete(
    '/games/:gameId/gm/invitation',
    {
      schema: {
        tags,
        summary: 'Decline the invitation to run the game (the one invited), or withdraw it (the game master)',
        params: GameIdParamsSchema,
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await dropInvitation(app, requireUser(request), request.params.gameId);
      return reply.code(204).send();
    },
  );
};

export default gmRoutes;
