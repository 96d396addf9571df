/** Diadochi V loans, mounted at /api. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GameIdParamsSchema } from '../../shared/api/games.ts';
import { CreateLoanRequestSchema, LoanListSchema, LoanParamsSchema, LoanRecordSchema } from '../../shared/api/loans.ts';
import { requireUser } from '../auth/authenticate.ts';
import { errorResponses } from '../schemas.ts';
import { createLoan, endLoan, listLoans } from './service.ts';

const tags = ['loans'];

const loansRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/games/:gameId/loans',
    {
      schema: {
        tags,
        summary: 'Loans in force in the current position, and every loan of the game (public: they change the supply table)',
        params: GameIdParamsSchema,
        response: { 200: LoanListSchema, ...errorResponses },
      },
    },
    async (request) => listLoans(app.prisma, request.auth?.user ?? null, request.params.gameId),
  );

  app.post(
    '/games/:gameId/loans',
    {
      schema: {
        tags,
        summary: 'Lend a centre your power holds to another power (Diadochi V rule 9); counts from the next adjustment',
        description:
          'The rules engine decides: 422 `loan_refused` with its reason (not held, borrower owns no centre, units left unsupplied, variant without loans).',
        params: GameIdParamsSchema,
        body: CreateLoanRequestSchema,
        response: { 201: LoanRecordSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createLoan(app, requireUser(request), request.params.gameId, request.body)),
  );

  app.post(
    '/games/:gameId/loans/:loanId/end',
    {
      schema: {
        tags,
        summary: 'End a loan (lender or borrower); loans lent on from it end too',
        params: LoanParamsSchema,
        response: { 200: LoanRecordSchema, ...errorResponses },
      },
    },
    async (request) => endLoan(app, requireUser(request), request.params.gameId, request.params.loanId),
  );
};

export default loansRoutes;
