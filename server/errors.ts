/**
 * One error shape for the whole API: `{ error: { code, message, issues? } }`
 * (shared/api/errors.ts). Handlers throw `HttpError`; everything else that can
 * go wrong (schema validation, malformed JSON, rate limits, an unreachable
 * database) is translated here, so a bad request never surfaces as a 500.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiError, ApiErrorCode } from '../shared/api/errors.ts';
import { isDatabaseUnavailable } from './db/errors.ts';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
    /** Extra top-level fields of the error body, e.g. the verdict on each order of a refused submission. */
    readonly extra?: Record<string, unknown>,
    /** For `validation_failed`: each problem with the field it concerns, for forms to show beside the field. */
    readonly issues?: ApiError['error']['issues'],
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * A fault of the server's own that has a code of its own (500), e.g. a corrupt stored value: logged, and answered
 * with its code and message. Not an HttpError, which is the request's fault: whatever runs it treats it as the
 * fault it is (a batch of order submissions stores nothing and stores each again alone, play/submissions.ts).
 */
export class ServerFault extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ServerFault';
  }
}

export const badRequest = (code: ApiErrorCode, message: string) => new HttpError(400, code, message);
/** A request field the rules refuse (`body.username`, `query.cursor`): 400 `validation_failed`, naming the field in the message and in `issues`. */
export const invalid = (path: `${'body' | 'query' | 'params'}.${string}`, message: string) =>
  new HttpError(400, 'validation_failed', `${path}: ${message}`, undefined, [{ path, message }]);
export const unauthenticated = (message = 'log in, or send a valid API token as "Authorization: Bearer <token>"') =>
  new HttpError(401, 'unauthenticated', message);
export const forbidden = (code: ApiErrorCode, message: string) => new HttpError(403, code, message);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
export const conflict = (code: ApiErrorCode, message: string) => new HttpError(409, code, message);
export const unprocessable = (code: ApiErrorCode, message: string, extra?: Record<string, unknown>) => new HttpError(422, code, message, extra);

function errorBody(code: string, message: string, issues?: ApiError['error']['issues']): ApiError {
  return { error: issues ? { code, message, issues } : { code, message } };
}

/** Codes for the 4xx errors Fastify itself raises (bad JSON, wrong content type, …). */
const codeForStatus: Record<number, ApiErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/**
 * `serveClientIndex`: the built web client routes in the browser, so unknown
 * non-API GETs get its index.html (needs @fastify/static's reply.sendFile).
 */
export function installErrorHandlers(app: FastifyInstance, { serveClientIndex = false } = {}): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ ...error.extra, ...errorBody(error.code, error.message, error.issues) });
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const part = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'body');
      const issues = error.validation.map((issue) => ({
        path: [part, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
        message: issue.message ?? 'is invalid',
      }));
      const message = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
      return reply.code(400).send(errorBody('validation_failed', message, issues));
    }

    if (error instanceof ServerFault) {
      request.log.error({ err: error }, error.message);
      return reply.code(500).send(errorBody(error.code, error.message));
    }

    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).header('retry-after', '5').send(errorBody('database_unavailable', 'the database is unavailable; try again in a few seconds'));
    }

    // Safety nets for races the handlers did not foresee: a duplicate, or a row gone meanwhile.
    const prismaCode = (error as { code?: unknown }).code;
    if (prismaCode === 'P2002') {
      return reply.code(409).send(errorBody('conflict', 'that conflicts with a change made at the same time; reload and retry'));
    }
    if (prismaCode === 'P2025') {
      return reply.code(404).send(errorBody('not_found', 'it no longer exists'));
    }

    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = codeForStatus[status] ?? 'bad_request';
      return reply.code(status).send(errorBody(code, error.message));
    }

    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
    } else {
      request.log.error({ err: error }, 'unhandled error');
    }
    return reply.code(500).send(errorBody('internal_error', 'something went wrong on our side'));
  });

  app.setNotFoundHandler((request, reply) => {
    if (serveClientIndex && request.method === 'GET' && !request.url.startsWith('/api/')) {
      return reply.sendFile('index.html');
    }
    return reply.code(404).send(errorBody('not_found', `no route ${request.method} ${request.url.split('?')[0]}`));
  });
}
