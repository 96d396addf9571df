/**
 * Consent: a game master who also plays a power is a player first
 * (access/policy.ts). The tools that could give them information or an
 * advantage (CONSENT_TOOLS: process now then roll back shows everyone's
 * orders; ending the game, changing who plays a rival power, handing the
 * tools to a friend, publishing the press now) do nothing at once when they
 * use them: the other active players are asked, and the tool acts — as the
 * game master, in the transaction of the last answer — only once every one of
 * them has agreed. One refusal closes the request; so does the game moving on
 * (another phase, or its end) before everyone answered. One request at a time.
 *
 * Before the players are asked, the tool is tried and undone (a savepoint), so
 * they are never asked to agree to something that cannot be done; it is tried
 * again for real when the last of them agrees, and a request that can no
 * longer be carried out then lapses, saying why.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { GmAction, GmProposal } from '../../shared/api/gm.ts';
import { CONSENT_TOOLS, type ConsentTool } from '../../shared/api/gm-actions.ts';
import type { Prisma, Transaction } from '../db/database.ts';
import { conflict, forbidden, HttpError, notFound } from '../errors.ts';
import { makeContext, requireGameMaster, requirePower, viewableGame, withLockedGame, type GameContext, type Viewer } from '../play/context.ts';
import type { Auth } from '../auth/caller.ts';
import { logGmAction, type GmActionRow, type GmLogDetails } from '../play/gm-log.ts';
import { gmActionResponse, gmActionView } from '../views/gm-action.ts';
import { gmProposalListView, gmProposalResponse, gmProposalView as view, proposalAnsweredView } from '../views/gm-proposal.ts';
import { gmProposalOf, gmProposalValues, type GmProposalRow as ProposalRow } from '../db/tables/gm-log.ts';
import { TOOLS, type ToolName } from '../play/gm-tools.ts';

type User = Auth['user'];

export function needsConsent(tool: ToolName, context: GameContext): tool is ConsentTool {
  return context.playsAsGameMaster && context.game.status !== 'forming' && (CONSENT_TOOLS as readonly string[]).includes(tool);
}

/** Runs a tool as `context`'s viewer and logs it; returns the log entry. */
export async function runTool(
  app: FastifyInstance,
  tx: Transaction,
  context: GameContext,
  tool: ToolName,
  request: unknown,
  extra: GmLogDetails = {},
): Promise<GmActionRow> {
  const actionId = randomUUID();
  const done = await (TOOLS[tool] as (...args: unknown[]) => ReturnType<(typeof TOOLS)['pause']>)(app, tx, context, actionId, request);
  const row = await logGmAction(tx, app.bus, context.game.id, context.viewer!.id, done.action, { ...done.details, ...extra }, actionId);
  await done.after?.();
  return row;
}

/** Tries the tool and undoes it: throws what it would throw. */
async function tryTool(app: FastifyInstance, tx: Transaction, context: GameContext, tool: ToolName, request: unknown): Promise<void> {
  await tx.$executeRawUnsafe('SAVEPOINT consent_try');
  try {
    await (TOOLS[tool] as (...args: unknown[]) => Promise<unknown>)(app, tx, context, randomUUID(), request);
  } finally {
    // Whatever it wrote (and the live events it published) goes; the transaction goes on.
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT consent_try');
  }
}

/** Where the game stands, as a request records it: the last phase's index and the game's status. */
async function standing(
  tx: Transaction | FastifyInstance['prisma'],
  context: GameContext,
): Promise<{ phaseIndex: number; gameStatus: GameContext['game']['status'] }> {
  const last = await tx.phase.findFirst({ where: { gameId: context.game.id }, orderBy: { index: 'desc' }, select: { index: true } });
  return { phaseIndex: last?.index ?? 0, gameStatus: context.game.status };
}

/** The request's status, a lapse counted from how the game stands now. */
function statusOf(row: ProposalRow, now: { phaseIndex: number; gameStatus: string }): GmProposal['status'] {
  if (row.status !== 'open') return row.status;
  return row.phaseIndex === now.phaseIndex && row.gameStatus === now.gameStatus ? 'open' : 'lapsed';
}

async function announce(app: FastifyInstance, tx: Transaction, row: ProposalRow, status: GmProposal['status']): Promise<void> {
  await app.bus.publish(tx, `game:${row.gameId}`, { type: 'gm.proposal', gameId: row.gameId, proposalId: row.id, action: row.action, status });
}

/**
 * A tool used by a game master who plays: tried and undone, then put to the other active players (or used at once
 * when there is nobody else to ask). In the caller's transaction, holding the game's lock.
 */
export async function propose(
  app: FastifyInstance,
  tx: Transaction,
  context: GameContext,
  tool: ConsentTool,
  request: Prisma.InputJsonObject,
): Promise<{ proposal: GmProposal } | { action: GmAction }> {
  const me = context.viewer!.id;
  // Every other power with a player at the board (not in civil disorder, not eliminated, not vacant), in the variant's order.
  const needed = context.variant.powers.filter((power) => {
    const seat = context.game.players.find((candidate) => candidate.power === power);
    return seat?.userId && seat.userId !== me && seat.status === 'active';
  });
  if (needed.length === 0) return gmActionResponse(context, await runTool(app, tx, context, tool, request, { consent: { agreed: [] } }));
  const now = await standing(tx, context);
  const pending = (await tx.gmProposal.findMany({ where: { gameId: context.game.id, status: 'open' } })).map((row) => gmProposalOf(row));
  if (pending.some((row) => statusOf(row, now) === 'open')) {
    throw conflict('conflict', "a request of yours is waiting for the players' answers: withdraw it before asking another");
  }
  await tryTool(app, tx, context, tool, request);
  const row = gmProposalOf(
    await tx.gmProposal.create({ data: { gameId: context.game.id, proposedById: me, action: tool, ...gmProposalValues({ request }), ...now, needed } }),
  );
  await announce(app, tx, row, 'open');
  return gmProposalResponse(view(context, row, 'open'));
}

export async function listProposals(app: FastifyInstance, viewer: Viewer, gameId: string): Promise<{ proposals: GmProposal[] }> {
  const context = await viewableGame(app.prisma, gameId, viewer);
  const rows = (await app.prisma.gmProposal.findMany({ where: { gameId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).map((row) => gmProposalOf(row));
  const now = await standing(app.prisma, context);
  return gmProposalListView(rows.map((row) => view(context, row, statusOf(row, now))));
}

async function proposalOf(tx: Transaction, gameId: string, proposalId: string): Promise<ProposalRow> {
  const row = gmProposalOf(await tx.gmProposal.findUnique({ where: { id: proposalId } }));
  if (!row || row.gameId !== gameId) throw notFound('no such request of the game master in this game');
  return row;
}

/** Marks a request closed; returns why, for the caller to answer with once the transaction commits. */
async function lapse(app: FastifyInstance, tx: Transaction, row: ProposalRow, note: string | null): Promise<HttpError> {
  await tx.gmProposal.update({ where: { id: row.id }, data: { status: 'lapsed', note, decidedAt: new Date() } });
  await announce(app, tx, row, 'lapsed');
  return conflict(
    'proposal_closed',
    note ? `the request can no longer be carried out (${note}): it was closed` : 'the game has moved on since the request was made: it lapsed',
  );
}

/**
 * A player answers a request. The last agreement carries the tool out as the game master; a request that lapsed,
 * or that can no longer be carried out, is closed and the answer is 409 `proposal_closed`.
 */
export async function answerProposal(app: FastifyInstance, user: User, gameId: string, proposalId: string, agree: boolean) {
  const outcome = await withLockedGame(app, gameId, user, async (tx, context) => {
    const row = await proposalOf(tx, gameId, proposalId);
    const { power } = requirePower(context);
    if (!row.needed.includes(power)) throw forbidden('forbidden', `the game master did not ask ${power}: ${row.needed.join(', ')} answer this request`);
    const status = statusOf(row, await standing(tx, context));
    if (status === 'lapsed' && row.status === 'open') return { error: await lapse(app, tx, row, null) };
    if (status !== 'open') throw conflict('proposal_closed', `the request is ${status} already`);
    if (row.agreed.includes(power)) throw conflict('conflict', `${power} has agreed already`);
    if (!agree) {
      const refused = gmProposalOf(await tx.gmProposal.update({ where: { id: row.id }, data: { status: 'refused', refusedBy: power, decidedAt: new Date() } }));
      await announce(app, tx, refused, 'refused');
      return proposalAnsweredView(view(context, refused, 'refused'), null);
    }
    const agreed = [...row.agreed, power];
    if (!row.needed.every((needed) => agreed.includes(needed))) {
      const updated = gmProposalOf(await tx.gmProposal.update({ where: { id: row.id }, data: { agreed } }));
      await announce(app, tx, updated, 'open');
      return proposalAnsweredView(view(context, updated, 'open'), null);
    }
    // Everyone agreed: the game master's tool, as the game master (who must still be one).
    const master = await tx.user.findUnique({ where: { id: row.proposedById }, select: { id: true, username: true, createdAt: true, isAdmin: true } });
    const masterContext = master && makeContext(context.game, master, context.now);
    if (!masterContext?.isGameMaster) return { error: await lapse(app, tx, row, 'the one who asked no longer runs the game') };
    await tx.$executeRawUnsafe('SAVEPOINT consent_run');
    let action: GmActionRow;
    try {
      action = await runTool(app, tx, masterContext, row.action as ToolName, row.request, { consent: { agreed } });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT consent_run');
      return { error: await lapse(app, tx, row, error.message) };
    }
    const done = gmProposalOf(await tx.gmProposal.update({ where: { id: row.id }, data: { status: 'agreed', agreed, decidedAt: new Date() } }));
    await announce(app, tx, done, 'agreed');
    // The answer shows the action as the one who answered may see it.
    return proposalAnsweredView(view(context, done, 'agreed'), gmActionView(context, action));
  });
  if ('error' in outcome) throw outcome.error;
  app.scheduler.wake();
  return outcome;
}

/** The game master takes a request back before everyone has answered. */
export async function withdrawProposal(app: FastifyInstance, user: User, gameId: string, proposalId: string): Promise<{ proposal: GmProposal }> {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    requireGameMaster(context);
    const row = await proposalOf(tx, gameId, proposalId);
    const status = statusOf(row, await standing(tx, context));
    if (status !== 'open') throw conflict('proposal_closed', `the request is ${status} already`);
    const withdrawn = gmProposalOf(await tx.gmProposal.update({ where: { id: row.id }, data: { status: 'withdrawn', decidedAt: new Date() } }));
    await announce(app, tx, withdrawn, 'withdrawn');
    return gmProposalResponse(view(context, withdrawn, 'withdrawn'));
  });
}
