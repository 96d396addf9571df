/**
 * Battles before and around the fighting: creating one (its seed drawn and committed to), listing, viewing, taking
 * and leaving seats; the battle starts in the transaction that fills its last human seat.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { type CreateBattleRequestSchema, type JoinBattleRequestSchema, type ListBattlesQuerySchema, UMPIRE_SEAT } from '../../shared/api/battles.ts';
import { commitmentOf } from '../../shared/naval/dice.ts';
import { RULESETS, SCENARIOS, scenarioOf } from '../../shared/naval/index.ts';
import { battleSeatOf, mayCancelBattle, mayViewBattle } from '../access/battle-policy.ts';
import type { Auth } from '../auth/caller.ts';
import type { Prisma, Transaction } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { conflict, forbidden, invalid, notFound, unauthenticated } from '../errors.ts';
import { decodeCursor, olderThan, pageOf } from '../keyset.ts';
import { battleDetailView, battleInclude, battleListView, battleLogView, type LoadedBattle } from '../views/battle.ts';
import { type BattleEnv, computerOpens, publishChange, startBattle } from './play.ts';
import { battleOf, readActions, readBattle, seedOf } from '../db/tables/battles.ts';
import { asJson, lockBattle } from './stored.ts';

type User = Auth['user'];
type Viewer = User | null;

/**
 * The battle's page for this viewer; 404 when they may not see it (the invite code, when given, opens a private one).
 * Its legal actions only when asked for (`withLegalActions`).
 */
export async function viewBattle(app: FastifyInstance, viewer: Viewer, battleId: string, inviteCode?: string, withLegalActions = false) {
  const battle = await readBattle(app.prisma, battleId);
  if (!battle || !mayViewBattle(battle, viewer, inviteCode)) throw notFound('no battle with that id');
  // The seed is read only to be revealed: once the battle is over.
  const seed = battle.status === 'finished' ? await seedOf(app.prisma, battle.id) : null;
  return battleDetailView(battle, seed, viewer, withLegalActions);
}

/** A page of the battle's log: the entries after action `after` (the start is entry 0). */
export async function battleLog(app: FastifyInstance, viewer: Viewer, battleId: string, query: { after: number; limit: number; inviteCode?: string }) {
  const battle = await readBattle(app.prisma, battleId);
  if (!battle || !mayViewBattle(battle, viewer, query.inviteCode)) throw notFound('no battle with that id');
  const actions = await readActions(app.prisma, battle.id, query.after, query.limit);
  const last = actions.at(-1)?.index ?? query.after;
  return battleLogView(battle, actions, viewer, query.after, last < battle.actionCount ? last : null);
}

export async function listBattles(app: FastifyInstance, viewer: Viewer, query: z.output<typeof ListBattlesQuerySchema>) {
  const where: Prisma.BattleWhereInput[] = [];
  if (query.filter === 'mine') {
    if (!viewer) throw unauthenticated('log in to list your battles');
    where.push({ OR: [{ createdById: viewer.id }, { seats: { some: { userId: viewer.id } } }] });
  } else if (query.filter === 'finished') {
    // The archive: every finished battle, private ones included.
    where.push({ status: 'finished' });
  } else {
    where.push({ status: query.filter === 'open' ? 'forming' : 'active', private: false });
  }
  if (query.ruleset) where.push({ ruleset: query.ruleset });
  const key = query.filter === 'finished' ? 'finishedAt' : 'createdAt';
  if (query.cursor) where.push(olderThan(key, decodeCursor(query.cursor)));
  const rows = await app.prisma.battle.findMany({
    where: { AND: where },
    include: battleInclude,
    orderBy: [{ [key]: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, query.limit, (row) => row[key] ?? row.createdAt);
  return battleListView(page.map(battleOf), nextCursor, viewer);
}

type CreateRequest = z.output<typeof CreateBattleRequestSchema>;

/** The set-up asked for: a shipped scenario, or one's own read by the ruleset's set-up schema (400 naming the field). */
function setupOf(request: CreateRequest): { setup: unknown; scenarioId: string | null } {
  const ruleset = RULESETS[request.ruleset];
  if (request.scenario !== undefined) {
    const scenario = scenarioOf(request.ruleset, request.scenario);
    if (!scenario) {
      const known = SCENARIOS[request.ruleset].map((s) => s.id).join(', ');
      throw invalid('body.scenario', `${request.ruleset} has no scenario "${request.scenario}" (its scenarios: ${known})`);
    }
    return { setup: ruleset.setupSchema.parse(scenario.setup), scenarioId: scenario.id };
  }
  const parsed = ruleset.setupSchema.safeParse(request.setup);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`body.setup${issue.path.map((part) => `.${String(part)}`).join('')}`, issue.message);
  }
  return { setup: parsed.data, scenarioId: null };
}

export async function createBattle(env: BattleEnv, app: FastifyInstance, creator: User, request: CreateRequest) {
  const ruleset = RULESETS[request.ruleset];
  const { setup, scenarioId } = setupOf(request);
  const sides = ruleset.sides(setup).map((side) => side.id);
  const players = new Map<string, 'human' | 'computer'>();
  request.seats.forEach((seat, i) => {
    if (!sides.includes(seat.side)) throw invalid(`body.seats.${i}.side`, `"${seat.side}" is not a side of this set-up (${sides.join(', ')})`);
    if (players.has(seat.side)) throw invalid(`body.seats.${i}.side`, `side "${seat.side}" is named twice`);
    players.set(seat.side, seat.player);
  });
  if (sides.every((side) => players.get(side) === 'computer')) throw invalid('body.seats', 'at least one side must be played by a human');
  if (request.join !== undefined) {
    const human = request.join === UMPIRE_SEAT ? request.umpire : sides.includes(request.join) && players.get(request.join) !== 'computer';
    if (!human) throw invalid('body.join', `"${request.join}" is not a seat you can take (a side played by a human${request.umpire ? ', or "umpire"' : ''})`);
  }
  const seed = randomBytes(32).toString('hex');
  const turnSeconds = request.clock.pace === 'live' ? request.clock.minutesPerTurn * 60 : request.clock.hoursPerTurn * 3600;
  const now = new Date();
  const seats: Prisma.BattleSeatCreateWithoutBattleInput[] = [
    ...sides.map((side) => ({ role: 'side' as const, side, player: players.get(side) ?? ('human' as const) })),
    ...(request.umpire ? [{ role: 'umpire' as const, side: null, player: 'human' as const }] : []),
  ].map((seat) => {
    const mine = request.join !== undefined && (seat.role === 'umpire' ? request.join === UMPIRE_SEAT : seat.side === request.join);
    return mine ? { ...seat, user: { connect: { id: creator.id } }, entropy: request.entropy ?? null, joinedAt: now } : seat;
  });
  const battleId = await app.prisma.$transaction(async (tx) => {
    const created = await tx.battle.create({
      data: {
        title: request.title,
        ruleset: request.ruleset,
        scenarioId,
        setup: asJson(setup),
        createdById: creator.id,
        private: request.private,
        inviteCode: request.private ? randomBytes(12).toString('base64url') : null,
        pace: request.clock.pace,
        turnSeconds,
        commitment: commitmentOf(seed),
        seed: { create: { seed } },
        seats: { create: seats },
      },
    });
    const battle = await lockBattle(tx, created.id);
    if (!(await startWhenFull(env, tx, battle, now))) await publishChange(env, tx, battle, 'created');
    return created.id;
  });
  await computerOpens(env, app.prisma, battleId);
  return viewBattle(app, creator, battleId);
}

/** Starts the battle in this transaction once every human seat is taken; whether it did. */
async function startWhenFull(env: BattleEnv, tx: Transaction, battle: LoadedBattle, now: Date): Promise<boolean> {
  if (battle.seats.some((seat) => seat.player === 'human' && seat.userId === null)) return false;
  const started = await startBattle(tx, battle, now);
  await publishChange(env, tx, started, 'started');
  return true;
}

export async function joinBattle(env: BattleEnv, app: FastifyInstance, user: User, battleId: string, request: z.output<typeof JoinBattleRequestSchema>) {
  await app.prisma
    .$transaction(async (tx) => {
      const battle = await lockBattle(tx, battleId);
      if (battle.private && !mayViewBattle(battle, user, request.inviteCode)) {
        // Without a code a private battle does not exist for you; with a wrong one you knew of it.
        if (!request.inviteCode) throw notFound('no battle with that id');
        throw forbidden('invalid_invite_code', 'the invite code is wrong');
      }
      if (battle.status !== 'forming') throw conflict('not_joinable', `the battle is ${battle.status}, not waiting for players`);
      if (battleSeatOf(battle, user)) throw conflict('already_joined', 'you already have a seat in this battle');
      const seat = battle.seats.find((candidate) => (request.seat === UMPIRE_SEAT ? candidate.role === 'umpire' : candidate.side === request.seat));
      if (!seat) throw invalid('body.seat', `this battle has no seat "${request.seat}"`);
      if (seat.player === 'computer') throw conflict('conflict', 'the computer plays that side');
      if (seat.userId !== null) throw conflict('conflict', 'that seat is taken');
      const now = new Date();
      await tx.battleSeat.update({ where: { id: seat.id }, data: { userId: user.id, entropy: request.entropy ?? null, joinedAt: now } });
      const joined = { ...battle, seats: battle.seats.map((s) => (s.id === seat.id ? { ...s, userId: user.id, entropy: request.entropy ?? null } : s)) };
      await publishChange(env, tx, joined, 'joined');
      await startWhenFull(env, tx, joined, now);
    })
    .catch((error: unknown) => {
      // Two joins by the same user racing past the check above.
      if (isUniqueViolation(error)) throw conflict('already_joined', 'you already have a seat in this battle');
      throw error;
    });
  await computerOpens(env, app.prisma, battleId);
  return viewBattle(app, user, battleId, request.inviteCode);
}

export async function leaveBattle(env: BattleEnv, app: FastifyInstance, user: User, battleId: string) {
  const inviteCode = await app.prisma.$transaction(async (tx) => {
    const battle = await lockBattle(tx, battleId);
    const seat = battleSeatOf(battle, user);
    if (!seat) {
      if (!mayViewBattle(battle, user)) throw notFound('no battle with that id');
      throw conflict('not_a_player', 'you have no seat in this battle');
    }
    if (battle.status !== 'forming') throw conflict('not_joinable', `the battle is ${battle.status}: seats can only be left before it starts`);
    await tx.battleSeat.update({ where: { id: seat.id }, data: { userId: null, entropy: null, joinedAt: null } });
    await publishChange(env, tx, battle, 'left');
    return battle.inviteCode ?? undefined;
  });
  return viewBattle(app, user, battleId, inviteCode);
}

/** The creator calls off a battle that has not started: its seats are freed and it leaves the open list; nothing was rolled. */
export async function cancelBattle(env: BattleEnv, app: FastifyInstance, user: User, battleId: string) {
  const inviteCode = await app.prisma.$transaction(async (tx) => {
    const battle = await lockBattle(tx, battleId);
    if (!mayViewBattle(battle, user)) throw notFound('no battle with that id');
    if (!mayCancelBattle(battle, user)) throw forbidden('forbidden', "only the battle's creator may call it off");
    if (battle.status !== 'forming') throw conflict('not_joinable', `the battle is ${battle.status}: only a battle waiting for players can be called off`);
    await tx.battle.update({ where: { id: battle.id }, data: { status: 'cancelled', decision: null, deadlineAt: null } });
    await publishChange(env, tx, { ...battle, status: 'cancelled' }, 'cancelled');
    return battle.inviteCode ?? undefined;
  });
  return viewBattle(app, user, battleId, inviteCode);
}
