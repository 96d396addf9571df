/**
 * A campaign game's contested sea fought as a battle (shared/campaign/: the sea's forces set up under the game's
 * ruleset), through the core's sea-battles.ts:
 *
 * - **Fought** (the game master opens it): each side's seat goes to the player of its first power (a power in civil
 *   disorder, eliminated or without a player: the computer), the umpire's to the game master; the battle starts at
 *   once, linked to the sea, and when it ends its result decides the sea (sea-outcome.ts).
 * - **Auto-resolved** (the game master, or the deadline: sea-deadlines.ts): the computer plays both sides to the end
 *   in a worker thread, on the battle's committed dice, and the finished battle is stored like any other (its record
 *   verifies); then its result decides the sea. In three steps, so that no transaction waits for the computer: the
 *   battle is opened and the sea marked as fought (game lock); the computer fights (no lock, no connection); the
 *   actions are stored and the sea decided (battle lock, then the game's). A crash between the steps leaves an
 *   ordinary battle of two computer seats due after AUTO_RESOLVE_GRACE_MS: the battles' deadline loop plays it out
 *   and it decides the sea the same way.
 *
 * Visibility: the battle is private when the game is; the game's players and game master may watch it, and an
 * anonymous game's battle names nobody but oneself until the game's result is final (access/battle-policy.ts).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Campaign, FightSeaRequest } from '../../shared/api/campaign.ts';
import { battleFromSea } from '../../shared/campaign/setups/index.ts';
import { commitmentOf, streamDice } from '../../shared/naval/dice.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import type { Auth } from '../auth/caller.ts';
import type { Prisma, PrismaClient, Transaction } from '../db/database.ts';
import { gameOf } from '../db/tables/games.ts';
import { seaBattleOf } from '../db/tables/sea-battles.ts';
import { conflict } from '../errors.ts';
import { gameContextInclude, type LoadedGame, requireGameMaster, withLockedGame } from '../play/context.ts';
import { logGmAction } from '../play/gm-log.ts';
import { lockSeaBattle, markFighting, type SeaBattleRow, seaForcesOf } from '../play/sea-battles.ts';
import { seaBattleAnswer } from '../views/sea-battle.ts';
import type { FoughtBattle } from './computer-fight.ts';
import { type BattleEnv, computerOpens, publishChange, saltOf, startBattle } from './play.ts';
import { seedOf } from '../db/tables/battles.ts';
import { asJson, lockBattle, storedLog } from './stored.ts';

type User = Auth['user'];
export type SeaParams = { gameId: string; index: number; sea: string };

/** A sea battle's clock when the game master gives none: by correspondence, 48 hours a decision. */
const DEFAULT_TURN_SECONDS = 48 * 3600;
/**
 * How long an auto-resolved battle may wait for the computer before the battles' deadline loop plays it out itself
 * (a crash between opening it and storing its end): well past a fleet battle's worst fight in a busy worker.
 */
export const AUTO_RESOLVE_GRACE_MS = 10 * 60_000;
const MAX_TITLE = 120;
/** How long one job of an auto-resolved battle fights before handing it on (the pool stops a job at 60 s). */
const FIGHT_STRETCH_MS = 5_000;

/** The sea's battle for the game's ruleset: its set-up and the sides' ids; 409 naming why it cannot be fought yet. */
async function battleOfSea(tx: Transaction, campaign: Campaign | null, game: { name: string }, row: SeaBattleRow) {
  if (!campaign) throw conflict('conflict', 'this game is not a campaign: its seas are not fought as battles');
  if (row.status !== 'undecided') {
    const why = row.status === 'fighting' ? 'a battle is being fought for it' : `it has been ${row.status}`;
    throw conflict('conflict', `${row.contested.name} cannot be fought again: ${why}`);
  }
  const forces = seaForcesOf(campaign, row);
  if (!forces.ok) throw conflict('conflict', `${forces.error.join('; ')}: set the sides first (PUT …/sides)`);
  const phase = await tx.phase.findUniqueOrThrow({ where: { id: row.phaseId }, select: { name: true } });
  const title = `${row.contested.name}, ${phase.name} (${game.name})`.slice(0, MAX_TITLE);
  const setup = battleFromSea(campaign.ruleset, forces.value, title);
  if (!setup.ok) throw conflict('conflict', `${row.contested.name} cannot be fought under ${RULESETS[campaign.ruleset].title}: ${setup.error.join('; ')}`);
  return { ruleset: campaign.ruleset, setup: setup.value, forces: forces.value, title };
}

type Seat = { side: string; userId: string | null };

/** Creates the battle (its seed drawn and committed to), private when the game is. */
async function createLinkedBattle(
  tx: Transaction,
  game: LoadedGame,
  fight: Awaited<ReturnType<typeof battleOfSea>>,
  seats: Seat[],
  umpireId: string | null,
  createdById: string | null,
  turnSeconds: number,
  pace: 'live' | 'correspondence',
  now: Date,
): Promise<string> {
  const seed = randomBytes(32).toString('hex');
  const rows: Prisma.BattleSeatCreateWithoutBattleInput[] = [
    ...seats.map(({ side, userId }) =>
      userId === null
        ? { role: 'side' as const, side, player: 'computer' as const }
        : { role: 'side' as const, side, player: 'human' as const, user: { connect: { id: userId } }, joinedAt: now },
    ),
    ...(umpireId === null ? [] : [{ role: 'umpire' as const, side: null, player: 'human' as const, user: { connect: { id: umpireId } }, joinedAt: now }]),
  ];
  const created = await tx.battle.create({
    data: {
      title: fight.title,
      ruleset: fight.ruleset,
      setup: asJson(fight.setup),
      createdById,
      private: game.private,
      inviteCode: game.private ? randomBytes(12).toString('base64url') : null,
      pace,
      turnSeconds,
      commitment: commitmentOf(seed),
      seed: { create: { seed } },
      seats: { create: rows },
    },
  });
  return created.id;
}

/** The set-up's side ids, in the order of the sea's sides (the builders name them after the sides). */
function sideIds(fight: Awaited<ReturnType<typeof battleOfSea>>): string[] {
  const ids = RULESETS[fight.ruleset].sides(fight.setup).map((side) => side.id);
  return fight.forces.sides.map((side, i) => (ids.includes(side.id) ? side.id : ids[i]));
}

/** Who plays the power: its player while active; nobody (the computer) in civil disorder, eliminated or unseated. */
function playerOf(game: LoadedGame, power: string): string | null {
  const seat = game.players.find((player) => player.power === power);
  return seat?.status === 'active' && seat.userId ? seat.userId : null;
}

/** The sea after the change, as its route answers. */
export async function seaAnswer(db: PrismaClient | Transaction, rowId: string, campaign: Campaign | null) {
  return seaBattleAnswer(seaBattleOf(await db.seaBattle.findUniqueOrThrow({ where: { id: rowId } })), { campaign });
}

/** The game master opens the sea's battle: the players seated, the game master as umpire; it starts at once. */
export async function fightSea(env: BattleEnv, app: FastifyInstance, user: User, params: SeaParams, request: FightSeaRequest) {
  const opened = await withLockedGame(app, params.gameId, user, async (tx, context) => {
    requireGameMaster(context);
    const row = await lockSeaBattle(tx, params.gameId, params.index, params.sea);
    const { game } = context;
    const fight = await battleOfSea(tx, game.campaign, game, row);
    const now = new Date();
    const taken = new Set<string>();
    // A user holds one seat in a battle: a player of both sides (a rare loan) plays the first, the computer the other.
    const seats = sideIds(fight).map((side, i) => {
      const userId = playerOf(game, fight.forces.sides[i].powers[0]);
      const seat = { side, userId: userId !== null && !taken.has(userId) ? userId : null };
      if (seat.userId) taken.add(seat.userId);
      return seat;
    });
    // The game master umpires, unless they play a side of it (a game master who plays).
    const umpireId = taken.has(user.id) ? null : user.id;
    const clock = request.clock;
    const turnSeconds = !clock ? DEFAULT_TURN_SECONDS : clock.pace === 'live' ? (clock.minutesPerTurn ?? 10) * 60 : (clock.hoursPerTurn ?? 48) * 3600;
    const battleId = await createLinkedBattle(tx, game, fight, seats, umpireId, user.id, turnSeconds, clock?.pace ?? 'correspondence', now);
    await markFighting(tx, app.play, row, battleId, now);
    await logGmAction(tx, env.bus, params.gameId, user.id, 'fight-sea', { phase: params.index, sea: row.sea, seaName: row.contested.name, battleId });
    const started = await startBattle(tx, await lockBattle(tx, battleId), now);
    await publishChange(env, tx, started, 'started', now);
    return { battleId, answer: await seaAnswer(tx, row.id, game.campaign) };
  });
  // A side the computer plays (a power nobody plays) may open: it thinks once the game and the battle are let go.
  await computerOpens(env, app.prisma, opened.battleId);
  return opened.answer;
}

/** The game with what the sea's battle needs (its players, its campaign), under the lock `lockSeaBattle` took. */
async function lockedGameOf(tx: Transaction, gameId: string): Promise<LoadedGame> {
  const game = gameOf(await tx.game.findUnique({ where: { id: gameId }, include: gameContextInclude }));
  if (!game) throw conflict('conflict', 'the game is gone');
  return game;
}

type Opened = {
  battleId: string;
  rowId: string;
  campaign: Campaign;
  ruleset: Campaign['ruleset'];
  state: unknown;
  seed: string;
  salt: string;
  nextRoll: number;
};

/**
 * Step 1 of an auto-resolve, in the caller's transaction holding the game's lock (lockSeaBattle): the battle of two
 * computer seats opened and started, the sea marked as fought by it.
 */
export async function openComputerBattle(env: BattleEnv, tx: Transaction, row: SeaBattleRow, createdById: string | null, now: Date): Promise<Opened> {
  const game = await lockedGameOf(tx, row.gameId);
  const fight = await battleOfSea(tx, game.campaign, game, row);
  const seats = sideIds(fight).map((side) => ({ side, userId: null }));
  const battleId = await createLinkedBattle(tx, game, fight, seats, null, createdById, DEFAULT_TURN_SECONDS, 'correspondence', now);
  await markFighting(tx, env.play, row, battleId, now);
  const battle = await lockBattle(tx, battleId);
  const seed = await seedOf(tx, battleId);
  const salt = saltOf(battle);
  const dice = streamDice(seed, salt);
  const started = RULESETS[battle.ruleset].start(battle.setup, dice);
  // Due only if the computer's fight never comes back (a crash): then the deadline loop plays it out.
  const deadlineAt = new Date(now.getTime() + AUTO_RESOLVE_GRACE_MS);
  await tx.battle.update({
    where: { id: battleId },
    data: { status: 'active', salt, startLog: asJson(storedLog(started.log)), state: asJson(started.state), nextRoll: dice.next, startedAt: now, deadlineAt },
  });
  await publishChange(env, tx, { ...battle, status: 'active' }, 'started', now);
  return { battleId, rowId: row.id, campaign: game.campaign as Campaign, ruleset: battle.ruleset, state: started.state, seed, salt, nextRoll: dice.next };
}

/**
 * Step 3: the computer's fight stored as the battle's actions and end, and the sea decided by it (publishChange →
 * sea-outcome.ts). Nothing if the battle has moved on meanwhile (the deadline loop took it over after a long wait).
 */
async function storeFight(env: BattleEnv, prisma: PrismaClient, opened: Opened, fought: FoughtBattle): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const battle = await lockBattle(tx, opened.battleId);
    if (battle.status !== 'active' || battle.actionCount !== 0) return;
    const now = new Date();
    await tx.battleAction.createMany({
      data: fought.actions.map((entry, i) => ({
        battleId: battle.id,
        index: i + 1,
        side: entry.side,
        action: asJson(entry.action),
        text: entry.text,
        log: asJson(storedLog(entry.log)),
        by: 'computer' as const,
        secret: entry.secret,
        revealed: true,
        createdAt: now,
      })),
    });
    const finished = { status: 'finished' as const, outcome: fought.outcome, finishedAt: now, deadlineAt: null, decision: null };
    await tx.battle.update({
      where: { id: battle.id },
      data: { ...finished, outcome: asJson(fought.outcome), state: asJson(fought.state), actionCount: fought.actions.length, nextRoll: fought.nextRoll },
    });
    await publishChange(
      env,
      tx,
      { ...battle, ...finished, state: fought.state, actionCount: fought.actions.length, nextRoll: fought.nextRoll },
      'finished',
      now,
    );
  });
}

/** The computer could not fight it: the battle is called off and the sea is undecided again (sea-outcome.ts). */
async function abandon(env: BattleEnv, prisma: PrismaClient, battleId: string): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const battle = await lockBattle(tx, battleId);
    if (battle.status !== 'active' || battle.actionCount !== 0) return;
    await tx.battle.update({ where: { id: battle.id }, data: { status: 'cancelled', decision: null, deadlineAt: null } });
    await publishChange(env, tx, { ...battle, status: 'cancelled' }, 'cancelled');
  });
}

/** Steps 2 and 3: the computer fights (in the pool, no transaction open), then the end is stored; how long it thought. */
export async function fightOut(env: BattleEnv, prisma: PrismaClient, opened: Opened): Promise<number> {
  const fought: FoughtBattle = { actions: [], state: opened.state, nextRoll: opened.nextRoll, outcome: { winner: null, reason: '' } };
  let ms = 0;
  try {
    // Stretch by stretch, each a job well within the pool's limit, until the battle ends.
    for (;;) {
      const stretch = await env.computer.fight({
        ruleset: opened.ruleset,
        state: fought.state,
        seed: opened.seed,
        salt: opened.salt,
        nextRoll: fought.nextRoll,
        battleId: opened.battleId,
        actionCount: fought.actions.length,
        budgetMs: FIGHT_STRETCH_MS,
      });
      ms += stretch.ms;
      fought.actions.push(...stretch.value.actions);
      fought.state = stretch.value.state;
      fought.nextRoll = stretch.value.nextRoll;
      if (stretch.value.outcome !== null) {
        fought.outcome = stretch.value.outcome;
        break;
      }
    }
  } catch (error) {
    await abandon(env, prisma, opened.battleId);
    throw error;
  }
  await storeFight(env, prisma, opened, fought);
  return ms;
}

/** The game master lets the computer fight the sea out; the answer is the sea decided. */
export async function autoResolveSea(env: BattleEnv, app: FastifyInstance, user: User, params: SeaParams) {
  const opened = await withLockedGame(app, params.gameId, user, async (tx, context) => {
    requireGameMaster(context);
    const row = await lockSeaBattle(tx, params.gameId, params.index, params.sea);
    const opened = await openComputerBattle(env, tx, row, user.id, new Date());
    const details = { phase: params.index, sea: row.sea, seaName: row.contested.name, battleId: opened.battleId };
    await logGmAction(tx, env.bus, params.gameId, user.id, 'auto-resolve-sea', details);
    return opened;
  });
  const ms = await fightOut(env, app.prisma, opened);
  env.log.info({ gameId: params.gameId, sea: params.sea, battleId: opened.battleId, ms: Math.round(ms) }, 'a sea was auto-resolved');
  return seaAnswer(app.prisma, opened.rowId, opened.campaign);
}

/**
 * The deadline's auto-resolve of a sea (sea-deadlines.ts): exactly once, as the game's lock and the sea's status
 * decide (a sea another instance has opened is `fighting` when this one gets the lock); false when it was not to be.
 */
export async function autoResolveExpired(
  env: BattleEnv,
  prisma: PrismaClient,
  due: { gameId: string; phaseIndex: number; sea: string },
  now: Date,
): Promise<boolean> {
  const opened = await prisma.$transaction(async (tx) => {
    const row = await lockSeaBattle(tx, due.gameId, due.phaseIndex, due.sea);
    if (row.status !== 'undecided' || row.deadlineAt === null || row.deadlineAt.getTime() > now.getTime()) return null;
    const opened = await openComputerBattle(env, tx, row, null, now);
    // The server's doing, not the game master's, but logged with the game master's acts: the sea was theirs to settle.
    const details = { phase: due.phaseIndex, sea: row.sea, seaName: row.contested.name, battleId: opened.battleId, expired: true };
    await logGmAction(tx, env.bus, due.gameId, null, 'auto-resolve-sea', details);
    return opened;
  });
  if (!opened) return false;
  await fightOut(env, prisma, opened);
  return true;
}
