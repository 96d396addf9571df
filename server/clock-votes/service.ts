/**
 * Players' votes to pause, resume or extend the clock (shared/api/clock-votes.ts), shaped as the draw votes are
 * (server/draws/): every change under the game's lock, announced live, and written to the game master's log.
 *
 * Voters are the powers still in the game (the engine's survivors) whose seat has an active player. A vote
 * passes once the game's rule is met, and in that same transaction the clock changes through the game master's
 * own tool (gm/tools.ts: pause, resume, change-deadline), so the deadline moves exactly as the game master's
 * would, logged as the players' doing (no actor, `byVote`). It fails as soon as it can no longer pass, when its
 * phase ends, or once `closesAt` passes: the expiry loop (expiry.ts) closes it then, whoever reads it; a read, a
 * ballot or a proposal that comes first settles it first, under the same lock.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { survivors } from '../../shared/index.ts';
import { CLOCK_VOTE_LIMITS, type ProposeClockVoteRequest } from '../../shared/api/clock-votes.ts';
import { MAX_DEADLINE_SECONDS } from '../../shared/api/gm.ts';
import type { Auth } from '../auth/caller.ts';
import type { Db, Prisma, Transaction } from '../db/database.ts';
import { conflict, forbidden, HttpError, notFound, unprocessable } from '../errors.ts';
import { gameContextInclude, makeContext, requireActive, requirePower, viewableGame, withLockedGame, type GameContext, type Viewer } from '../play/context.ts';
import { gameOf } from '../db/tables/games.ts';
import { logGmAction } from '../play/gm-log.ts';
import { latestPosition, openPhase } from '../play/phases.ts';
import { clockVotesView, type ClockVoteRow } from '../views/clock-vote.ts';
// The game master's own tools: a vote that passes changes the clock exactly as they would.
import { TOOLS } from '../play/gm-tools.ts';
import { notifyClockVote } from '../notify/game-events.ts';

type User = Auth['user'];
const include = { ballots: { orderBy: { castAt: 'asc' } } } satisfies Prisma.ClockVoteInclude;

/** Powers that vote now: survivors whose seat has an active player. */
async function votersOf(db: Db, context: GameContext): Promise<string[]> {
  const position = await latestPosition(db, context);
  const alive = new Set(position ? survivors(context.variant, position) : []);
  return context.game.players
    .filter((seat) => seat.power && seat.userId && seat.status === 'active' && alive.has(seat.power))
    .map((seat) => seat.power!)
    .sort();
}

/** Agreeing ballots needed to pass: all voters, or more than half of them. */
function neededOf(rule: 'unanimous' | 'majority', voters: number): number {
  return rule === 'unanimous' ? voters : Math.floor(voters / 2) + 1;
}

type Verdict = { pass: true } | { pass: false; fail: string | null };

/** Whether the ballots of voters pass the vote, fail it for good, or leave it open. */
function verdictOf(rule: 'unanimous' | 'majority', voters: string[], ballots: { power: string; agree: boolean }[]): Verdict {
  const counted = ballots.filter((ballot) => voters.includes(ballot.power));
  const agree = counted.filter((ballot) => ballot.agree).length;
  const disagree = counted.length - agree;
  const needed = neededOf(rule, voters.length);
  if (voters.length > 0 && agree >= needed) return { pass: true };
  if (voters.length - disagree < needed) return { pass: false, fail: `${disagree} of ${voters.length} powers disagreed: it can no longer pass` };
  return { pass: false, fail: null };
}

/** The live event, and the players told by mail or push (a proposal once to each, a decision to all; notify/game-events.ts). */
async function announce(app: FastifyInstance, tx: Transaction, vote: ClockVoteRow, status: ClockVoteRow['status']) {
  await app.bus.publish(tx, `game:${vote.gameId}`, { type: 'clock-vote.changed', gameId: vote.gameId, voteId: vote.id, status });
  if (app.play.notify) await notifyClockVote(tx, app.play.notify, vote.gameId, { ...vote, status });
}

function logDetails(vote: ClockVoteRow, event: string, extra: Prisma.InputJsonObject = {}): Prisma.InputJsonObject {
  return {
    event,
    voteId: vote.id,
    kind: vote.kind,
    extendSeconds: vote.extendSeconds,
    proposedBy: vote.proposedByPower,
    agree: vote.ballots.filter((ballot) => ballot.agree).map((ballot) => ballot.power),
    disagree: vote.ballots.filter((ballot) => !ballot.agree).map((ballot) => ballot.power),
    ...extra,
  };
}

/** Ends a vote that failed (or was withdrawn): its status, the log, the live event. */
async function close(app: FastifyInstance, tx: Transaction, vote: ClockVoteRow, status: 'failed' | 'withdrawn', reason: string | null, now: Date) {
  await tx.clockVote.update({ where: { id: vote.id }, data: { status, decidedAt: now } });
  await logGmAction(tx, app.bus, vote.gameId, null, 'clock-vote', logDetails(vote, status, reason ? { reason } : {}));
  await announce(app, tx, vote, status);
}

/** What the game master's tool takes for the vote's kind. */
function toolFor(vote: ClockVoteRow) {
  if (vote.kind === 'extend') return { tool: TOOLS['change-deadline'], request: { extendBySeconds: vote.extendSeconds! } };
  return { tool: vote.kind === 'pause' ? TOOLS.pause : TOOLS.resume, request: {} };
}

/**
 * Passes the vote: the clock changes through the game master's tool, logged as the players' doing; should the tool
 * refuse (the game master paused the game meanwhile, say), the vote fails with the tool's reason.
 */
async function pass(app: FastifyInstance, tx: Transaction, context: GameContext, vote: ClockVoteRow, now: Date) {
  const { tool, request } = toolFor(vote);
  const actionId = randomUUID();
  let done: Awaited<ReturnType<typeof tool>>;
  try {
    done = await (tool as (...args: unknown[]) => ReturnType<typeof tool>)(app, tx, context, actionId, request);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return close(app, tx, vote, 'failed', `the clock could not change: ${error.message}`, now);
  }
  await tx.clockVote.update({ where: { id: vote.id }, data: { status: 'passed', decidedAt: now } });
  await logGmAction(tx, app.bus, vote.gameId, null, 'clock-vote', logDetails(vote, 'passed'));
  await logGmAction(tx, app.bus, vote.gameId, null, done.action, { ...done.details, byVote: vote.id }, actionId);
  await announce(app, tx, vote, 'passed');
  await done.after?.();
}

/**
 * Settles the game's open vote, if any: expired, its phase ended, passed or failed by the ballots as they stand.
 * Returns the vote's id (null: none was open).
 */
async function settle(app: FastifyInstance, tx: Transaction, context: GameContext, now: Date): Promise<string | null> {
  const vote = await tx.clockVote.findFirst({ where: { gameId: context.game.id, status: 'open' }, include });
  if (!vote) return null;
  await settleVote(app, tx, context, vote, now);
  return vote.id;
}

async function settleVote(app: FastifyInstance, tx: Transaction, context: GameContext, vote: ClockVoteRow, now: Date): Promise<void> {
  const phase = await tx.phase.findFirst({ where: { gameId: context.game.id, status: 'open' }, select: { index: true } });
  if (context.game.status !== 'active' || phase?.index !== vote.phaseIndex)
    return close(app, tx, vote, 'failed', 'the phase it was proposed in has ended', now);
  if (vote.closesAt.getTime() <= now.getTime()) return close(app, tx, vote, 'failed', 'time ran out before enough powers agreed', now);
  const verdict = verdictOf(context.game.voteRule, await votersOf(tx, context), vote.ballots);
  if (verdict.pass) return pass(app, tx, context, vote, now);
  if (verdict.fail) return close(app, tx, vote, 'failed', verdict.fail, now);
}

/**
 * Settles the game's open vote for the expiry loop (expiry.ts), in a transaction that holds the game's lock already:
 * the game read as the server sees it (no viewer), so a private game's vote closes too. Returns the vote that was
 * open and its status now (null: none was open, or the game is gone).
 */
export async function settleLocked(app: FastifyInstance, tx: Transaction, gameId: string, now: Date) {
  const game = gameOf(await tx.game.findUnique({ where: { id: gameId }, include: gameContextInclude }));
  if (!game) return null;
  const id = await settle(app, tx, makeContext(game, null, now), now);
  return id === null ? null : tx.clockVote.findUniqueOrThrow({ where: { id }, select: { id: true, status: true } });
}

async function votesOf(db: Db, context: GameContext) {
  const rows = await db.clockVote.findMany({ where: { gameId: context.game.id }, include, orderBy: { createdAt: 'desc' }, take: 11 });
  const voters = await votersOf(db, context);
  const mine = context.seat?.power && voters.includes(context.seat.power) ? context.seat.power : null;
  return clockVotesView(context, rows, { rule: context.game.voteRule, voters, needed: neededOf(context.game.voteRule, voters.length), yourPower: mine });
}

/** In a transaction holding the game's lock: settle, do `work`, settle again, and answer the votes as they stand. */
function locked(app: FastifyInstance, user: Viewer, gameId: string, work?: (tx: Transaction, context: GameContext, now: Date) => Promise<void>) {
  // An expired vote is settled in a transaction of its own, so that a refusal of `work` does not undo it.
  const settled = withLockedGame(app, gameId, user, async (tx, context) => {
    await settle(app, tx, context, new Date());
    if (!work) return votesOf(tx, await viewableGame(tx, gameId, user));
  });
  return settled
    .then(
      (answer) =>
        answer ??
        withLockedGame(app, gameId, user, async (tx, context) => {
          const now = new Date();
          await work!(tx, context, now);
          await settle(app, tx, context, now);
          // The game as it is now (a passed vote changed its clock).
          return votesOf(tx, await viewableGame(tx, gameId, user));
        }),
    )
    .finally(() => app.scheduler.wake());
}

/** The game's votes; an open vote past its time (or its phase) is settled first, under the lock. */
export async function listClockVotes(app: FastifyInstance, viewer: Viewer, gameId: string) {
  const context = await viewableGame(app.prisma, gameId, viewer);
  const open = await app.prisma.clockVote.findFirst({ where: { gameId, status: 'open' }, select: { closesAt: true, phaseIndex: true } });
  if (open) {
    const phase = await app.prisma.phase.findFirst({ where: { gameId, status: 'open' }, select: { index: true } });
    if (open.closesAt.getTime() <= Date.now() || phase?.index !== open.phaseIndex) return locked(app, viewer, gameId);
  }
  return votesOf(app.prisma, context);
}

/** The power of a player who may vote now; 403 otherwise. */
async function voterPower(tx: Transaction, context: GameContext): Promise<string> {
  const { power } = requirePower(context);
  if (!(await votersOf(tx, context)).includes(power))
    throw forbidden('forbidden', `${power} does not vote: only powers still in the game with an active player do`);
  return power;
}

export async function proposeClockVote(app: FastifyInstance, user: User, gameId: string, body: ProposeClockVoteRequest) {
  return locked(app, user, gameId, async (tx, context, now) => {
    requireActive(context);
    const power = await voterPower(tx, context);
    if (await tx.clockVote.findFirst({ where: { gameId, status: 'open' }, select: { id: true } }))
      throw conflict('clock_vote_open', 'a vote on the clock is open already: vote on it, or wait until it is decided');
    const phase = await openPhase(tx, gameId);
    const paused = context.game.pausedAt !== null;
    if (body.kind === 'pause' && paused) throw conflict('game_paused', 'the game is paused already');
    if (body.kind === 'resume' && !paused) throw conflict('conflict', 'the game is not paused: there is nothing to resume');
    if (body.kind === 'extend') {
      const target = (phase.deadlineAt?.getTime() ?? now.getTime()) + body.extendSeconds * 1000;
      if (target > now.getTime() + MAX_DEADLINE_SECONDS * 1000)
        throw unprocessable('deadline_out_of_range', `the deadline would be more than ${MAX_DEADLINE_SECONDS / 86400} days from now`);
    }
    // A day, or until the deadline when it comes sooner (not while paused: the deadline then stands still).
    const dayLater = now.getTime() + CLOCK_VOTE_LIMITS.openSeconds * 1000;
    const deadline = !paused && phase.deadlineAt && phase.deadlineAt.getTime() > now.getTime() ? phase.deadlineAt.getTime() : Number.POSITIVE_INFINITY;
    const vote = await tx.clockVote.create({
      data: {
        gameId,
        phaseIndex: phase.index,
        kind: body.kind,
        extendSeconds: body.kind === 'extend' ? body.extendSeconds : null,
        proposedByPower: power,
        closesAt: new Date(Math.min(dayLater, deadline)),
        ballots: { create: { power, agree: true } },
      },
      include,
    });
    await logGmAction(tx, app.bus, gameId, null, 'clock-vote', logDetails(vote, 'proposed'));
    await announce(app, tx, vote, 'open');
  });
}

async function openVote(tx: Transaction, gameId: string, voteId: string) {
  const vote = await tx.clockVote.findFirst({ where: { id: voteId, gameId }, include });
  if (!vote) throw notFound('no clock vote with that id in this game');
  if (vote.status !== 'open') throw conflict('clock_vote_closed', `the vote has ${vote.status === 'withdrawn' ? 'been withdrawn' : vote.status}`);
  return vote;
}

export async function castClockBallot(app: FastifyInstance, user: User, gameId: string, voteId: string, agree: boolean) {
  return locked(app, user, gameId, async (tx, context) => {
    requireActive(context);
    const power = await voterPower(tx, context);
    const vote = await openVote(tx, gameId, voteId);
    if (vote.ballots.some((ballot) => ballot.power === power)) throw conflict('already_voted', `${power} has voted on this already`);
    await tx.clockVoteBallot.create({ data: { voteId, power, agree } });
    await announce(app, tx, vote, 'open');
  });
}

export async function withdrawClockVote(app: FastifyInstance, user: User, gameId: string, voteId: string) {
  return locked(app, user, gameId, async (tx, context, now) => {
    const { power } = requirePower(context);
    const vote = await openVote(tx, gameId, voteId);
    if (vote.proposedByPower !== power) throw forbidden('forbidden', `only ${vote.proposedByPower}, who proposed it, may withdraw it`);
    await close(app, tx, vote, 'withdrawn', null, now);
  });
}
