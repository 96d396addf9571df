/**
 * Recognising "the database cannot be reached right now" among the errors that
 * Prisma, its driver adapters and node-postgres throw, so the API answers 503
 * (try again) instead of 500 (our bug).
 */

/** Prisma error codes: can't reach server, timed out, connection closed, pool timeout, … */
const unavailablePrismaCodes = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);

/** Driver-adapter error kinds (@prisma/driver-adapter-utils) that mean the same. */
const unavailableAdapterKinds = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'DatabaseDoesNotExist']);

/** SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, restart). */
const unavailableSqlState = /^(08|57P0[1-3])/;

/** node-postgres, and the schema engine at start-up, raise these as plain Errors without a code. */
const unavailableMessages = [
  "Can't reach database server", // Prisma's P1001 text, as the wasm schema engine reports it
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];

const socketErrorCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH']);

type ErrorLike = {
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  message?: unknown;
  meta?: { driverAdapterError?: unknown };
  cause?: unknown;
};

/**
 * Prisma's P2028 when a transaction waited too long for a connection or ran past its time: the database is busy,
 * not our bug (P2028 also covers misuse of a finished transaction, which these words do not match).
 */
const busyTransaction = /unable to start a transaction in the given time|expired transaction/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    const candidate = current as ErrorLike;
    if (candidate.constructor?.name === 'PrismaClientInitializationError') return true;
    if (typeof candidate.code === 'string') {
      if (unavailablePrismaCodes.has(candidate.code) || socketErrorCodes.has(candidate.code)) return true;
      if (candidate.code === 'P2028' && typeof candidate.message === 'string' && busyTransaction.test(candidate.message)) return true;
      if (unavailableSqlState.test(candidate.code)) return true;
    }
    if (typeof candidate.kind === 'string' && unavailableAdapterKinds.has(candidate.kind)) return true;
    if (typeof candidate.originalCode === 'string' && unavailableSqlState.test(candidate.originalCode)) return true;
    if (typeof candidate.message === 'string' && unavailableMessages.some((text) => (candidate.message as string).includes(text))) {
      return true;
    }
    pending.push(candidate.meta?.driverAdapterError, candidate.cause);
  }
  return false;
}

/** A unique constraint was violated (two requests raced to take the same name or seat). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}
