/**
 * Campaign play: a game whose sea fights are fought out as naval battles. The game's campaign (ruleset, fleet lists,
 * the battles' time), set at creation (games/lobby.ts) and changed by the game master before the start; and the game
 * master's hand on a held phase's contested seas: the sides where three or more powers met, a decision, a waiver.
 * Fighting and auto-resolving a sea are server/battles/'s; both go through the core's sea-battles.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { CampaignSettingsSchema, DecideSeaRequest, SeaSidesRequest } from '../../shared/api/campaign.ts';
import type { Auth } from '../auth/caller.ts';
import { gameValues } from '../db/tables/games.ts';
import { seaBattleOf } from '../db/tables/sea-battles.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import { campaignOf } from '../play/campaign.ts';
import { requireGameMaster, viewableGame, withLockedGame, type GameContext, type Viewer } from '../play/context.ts';
import { logGmAction } from '../play/gm-log.ts';
import { decideSea, lockSeaBattle, outcomeForWinner, seaForcesOf, setSeaSides, waiveSea, type SeaBattleRow } from '../play/sea-battles.ts';
import { readGame } from '../views/game.ts';
import { seaBattleAnswer, seaBattleListView } from '../views/sea-battle.ts';

type User = Auth['user'];

/** The game master changes the campaign while the game is forming (a game that was not one becomes one). */
export async function setCampaign(app: FastifyInstance, user: User, gameId: string, settings: z.output<typeof CampaignSettingsSchema>) {
  await withLockedGame(app, gameId, user, async (tx, context) => {
    requireGameMaster(context);
    if (context.game.status !== 'forming') throw conflict('game_not_active', `the game is ${context.game.status}: its campaign is set before it starts`);
    const campaign = campaignOf(context.game.variantId, settings, 'body');
    await tx.game.update({ where: { id: gameId }, data: { ...gameValues({ campaign }) } });
    await logGmAction(tx, app.bus, gameId, user.id, 'campaign', { ruleset: campaign.ruleset, battleHours: campaign.battleHours });
  });
  return readGame(app.prisma, user, gameId);
}

export async function listSeas(app: FastifyInstance, viewer: Viewer, gameId: string, index: number) {
  const context = await viewableGame(app.prisma, gameId, viewer);
  const phase = await app.prisma.phase.findUnique({ where: { gameId_index: { gameId, index } }, select: { id: true, status: true } });
  if (!phase) throw notFound(`no phase ${index} in this game`);
  // An open phase (one rolled back, too) has no contested seas until its orders are final.
  const rows = phase.status === 'open' ? [] : await app.prisma.seaBattle.findMany({ where: { phaseId: phase.id }, orderBy: { createdAt: 'asc' } });
  return seaBattleListView(
    rows.map((row) => seaBattleOf(row)),
    context.game,
  );
}

/**
 * The game master's hand on a sea: refused to a game master who plays a power fighting there (the battle or the
 * computer decides that sea, not one of its sides).
 */
function requireImpartial(context: GameContext, row: SeaBattleRow, what: string): void {
  requireGameMaster(context);
  const own = context.seat?.power;
  if (!own || !context.game.campaign) return;
  const forces = seaForcesOf(context.game.campaign, row);
  const fighting = forces.ok ? forces.value.sides.flatMap((side) => side.powers) : row.contested.powers;
  if (fighting.includes(own)) {
    throw forbidden(
      'game_master_plays',
      `you play ${own}, which fights in ${row.contested.name}: you may not ${what} it; the battle or the computer decides it`,
    );
  }
}

/** Runs `work` on the sea under the game's lock, then answers with the sea as it is after. */
async function onSea(
  app: FastifyInstance,
  user: User,
  params: { gameId: string; index: number; sea: string },
  work: (tx: Parameters<Parameters<typeof withLockedGame>[3]>[0], context: GameContext, row: SeaBattleRow) => Promise<void>,
) {
  return withLockedGame(app, params.gameId, user, async (tx, context) => {
    // Whether the sea exists is for the game master to learn.
    requireGameMaster(context);
    const row = await lockSeaBattle(tx, params.gameId, params.index, params.sea);
    await work(tx, context, row);
    const after = seaBattleOf(await tx.seaBattle.findUniqueOrThrow({ where: { id: row.id } }));
    return seaBattleAnswer(after, context.game);
  });
}

export async function setSides(app: FastifyInstance, user: User, params: { gameId: string; index: number; sea: string }, body: SeaSidesRequest) {
  return onSea(app, user, params, async (tx, context, row) => {
    requireImpartial(context, row, 'set the sides of');
    const now = new Date();
    // Agreements to auto-resolve were to fight the sides as they were: asked again (the change publishes the sea).
    if (row.autoResolveAgreed.length > 0) await tx.seaBattle.update({ where: { id: row.id }, data: { autoResolveAgreed: [] } });
    await setSeaSides(tx, app.play, row, body.sides, now);
    await logGmAction(tx, app.bus, params.gameId, user.id, 'sea-sides', { phase: params.index, sea: row.sea, seaName: row.contested.name, sides: body.sides });
  });
}

export async function decide(app: FastifyInstance, user: User, params: { gameId: string; index: number; sea: string }, body: DecideSeaRequest) {
  return onSea(app, user, params, async (tx, context, row) => {
    requireImpartial(context, row, 'decide');
    if (!context.game.campaign) throw conflict('conflict', 'this game is not a campaign');
    const forces = seaForcesOf(context.game.campaign, row);
    if (!forces.ok) throw conflict('conflict', `${forces.error.join('; ')}: set the sides first (PUT …/sides)`);
    const outcome = outcomeForWinner(forces.value, body.winner);
    if (!outcome.ok) throw conflict('conflict', outcome.error);
    // Logged before the phase may be processed with it, so the log reads in the order things happened.
    await logGmAction(tx, app.bus, params.gameId, user.id, 'decide-sea', {
      phase: params.index,
      sea: row.sea,
      seaName: row.contested.name,
      outcome: outcome.value,
    });
    await decideSea(tx, app.play, row, outcome.value, 'game-master', new Date());
  });
}

export async function waive(app: FastifyInstance, user: User, params: { gameId: string; index: number; sea: string }) {
  return onSea(app, user, params, async (tx, context, row) => {
    requireImpartial(context, row, 'waive');
    await logGmAction(tx, app.bus, params.gameId, user.id, 'waive-sea', { phase: params.index, sea: row.sea, seaName: row.contested.name });
    await waiveSea(tx, app.play, row, new Date());
  });
}
