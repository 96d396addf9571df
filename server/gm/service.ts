/**
 * The game master's tools as the routes use them: each runs in one
 * transaction holding the game's lock, writes its entry in the audit log
 * (log.ts) and announces itself live — or, used by a game master who also
 * plays, is put to the other players first (consent.ts). And the invitation
 * to take over as game master, which the one invited accepts or declines.
 */
import type { FastifyInstance } from 'fastify';
import type { GmAction, GmProposal } from '../../shared/api/gm.ts';
import { conflict } from '../errors.ts';
import { requireGameMaster, viewableGame, withLockedGame, type Viewer } from '../play/context.ts';
import type { Auth } from '../auth/caller.ts';
import { needsConsent, propose, runTool } from './consent.ts';
import { logGmAction } from '../play/gm-log.ts';
import { gmActionResponse, gmLogView } from '../views/gm-action.ts';
import { gmActionOf } from '../db/tables/gm-log.ts';
import type { ToolName, ToolRequest } from '../play/gm-tools.ts';

type User = Auth['user'];

/** What using a tool answers: the action as logged (200), or (a game master who plays) the request put to the players (202). */
export type ToolOutcome = { action: GmAction } | { proposal: GmProposal };

/** Uses a tool; wakes the scheduler, as deadlines may have moved. */
export async function useTool<T extends ToolName>(app: FastifyInstance, user: User, gameId: string, tool: T, request: ToolRequest<T>): Promise<ToolOutcome> {
  const outcome = await withLockedGame(app, gameId, user, async (tx, context): Promise<ToolOutcome> => {
    requireGameMaster(context);
    if (needsConsent(tool, context)) return propose(app, tx, context, tool, request);
    return gmActionResponse(context, await runTool(app, tx, context, tool, request));
  });
  app.scheduler.wake();
  return outcome;
}

/**
 * The one invited to run the game accepts: they are its game master from now on (logged as a take-over), and
 * the one they take over from keeps only what any member or visitor has.
 */
export async function acceptInvitation(app: FastifyInstance, user: User, gameId: string) {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    if (context.game.invitedGameMasterId !== user.id)
      throw conflict('not_invited', 'you have not been asked to run this game (or the invitation was withdrawn)');
    const before = context.game.gameMaster;
    await tx.game.update({ where: { id: gameId }, data: { gameMasterId: user.id, invitedGameMasterId: null } });
    const row = await logGmAction(tx, app.bus, gameId, user.id, 'take-over', { users: { from: before.username, to: user.username } });
    return gmActionResponse(context, row);
  });
}

/** The one invited to run the game declines (or the game master withdraws the invitation). */
export async function dropInvitation(app: FastifyInstance, user: User, gameId: string): Promise<void> {
  await withLockedGame(app, gameId, user, async (tx, context) => {
    const invited = context.game.invitedGameMasterId;
    if (!invited || (invited !== user.id && !context.isGameMaster))
      throw conflict('not_invited', 'there is no invitation to run this game that you could decline or withdraw');
    await tx.game.update({ where: { id: gameId }, data: { invitedGameMasterId: null } });
    await app.bus.publish(tx, `game:${gameId}`, { type: 'gm.invitation', gameId, pending: false });
    // The one asked may not be watching the game: their lobby hears it on their own channel.
    await app.bus.publish(tx, `user:${invited}`, { type: 'gm.invitation', gameId, pending: false });
  });
}

export async function gmLog(app: FastifyInstance, viewer: Viewer, gameId: string) {
  const context = await viewableGame(app.prisma, gameId, viewer);
  const rows = await app.prisma.gameMasterAction.findMany({
    where: { gameId },
    include: { actor: { select: { id: true, username: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return gmLogView(
    context,
    rows.map((row) => gmActionOf(row)),
  );
}
