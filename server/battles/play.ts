/**
 * A battle being fought: its start, each action taken (a player's, the computer's for its seat, or the computer's
 * for a side whose time ran out), the computer's moves (thought out first in the worker pool with no lock held, then
 * applied), the clock, and the one live event each change sends. Every rule is the ruleset's (shared/naval/):
 * legality, the dice, the outcome; this module stores what it says. Its writes run in a transaction that holds the
 * battle's row lock (stored.ts `lockBattle`).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { BattleChangedEvent } from '../../shared/api/battles.ts';
import { streamDice } from '../../shared/naval/dice.ts';
import { decisionOf } from '../../shared/naval/index.ts';
import type { Refusal, Turn } from '../../shared/naval/ruleset.ts';
import type { LiveBus } from '../bus/live-bus.ts';
import type { PrismaClient, Transaction } from '../db/database.ts';
import type { BattleActor } from '../db/generated/enums.ts';
import type { LoadedBattle } from '../views/battle.ts';
import type { PlayEnv } from '../play/process.ts';
import type { PlanRequest } from './computer-jobs.ts';
import type { Plan } from './computer-plan.ts';
import { ComputerBusy, type ComputerPool } from './computer-pool.ts';
import { seaAfterBattle } from './sea-outcome.ts';
import { readBattle, seedOf } from '../db/tables/battles.ts';
import { asJson, lockBattle, rulesetOf, storedLog } from './stored.ts';

/**
 * What playing a battle needs of the app: the live bus, a log, the computer's worker threads, and game play's (a
 * campaign game's battle decides its sea, and may complete the phase: sea-outcome.ts).
 */
export type BattleEnv = { bus: LiveBus; log: FastifyBaseLogger; computer: ComputerPool; play: PlayEnv };

/** Computer moves one request (or one claim of the deadline loop) makes at most; the loop goes on with the rest. */
export const MAX_COMPUTER_MOVES = 400;
/**
 * How long one plan lets the computer think (the worker threads' own time, not their start or the wait for one)
 * before it starts no further move and leaves the rest to the deadline loop (the battle is then due at once): no
 * lock is held meanwhile, but the player's request waits for it. A hex battle's computer moves fit well within it; a
 * fleet of the measured-table rulesets takes a second or more a decision.
 */
export const THINKING_PER_PLAN_MS = 2_000;
/** The sides that must act now. */
export function sidesToAct(turn: Turn): string[] {
  if (turn.kind === 'side') return [turn.side];
  if (turn.kind === 'simultaneous') return [...turn.waiting];
  return [];
}

const seatFor = (battle: LoadedBattle, side: string) => battle.seats.find((seat) => seat.role === 'side' && seat.side === side);
const isComputer = (battle: LoadedBattle, side: string) => seatFor(battle, side)?.player === 'computer';

/**
 * The dice's public salt: the battle's id and what each seat's player contributed (in the set-up's order of sides,
 * the umpire last), fixed when the battle starts.
 */
export function saltOf(battle: LoadedBattle): string {
  const sides = rulesetOf(battle)
    .sides(battle.setup)
    .map((side) => side.id);
  const place = (side: string | null) => (side === null ? sides.length : sides.indexOf(side));
  const entropies = [...battle.seats].sort((a, b) => place(a.side) - place(b.side)).map((seat) => seat.entropy ?? '');
  return [battle.id, ...entropies].join(':');
}

/**
 * Starts a battle whose human seats are all taken: the dice's salt is fixed, the ruleset sets the battle up. If the
 * computer acts first its moves are due at once: once this commits, `computerOpens` plays them (or the deadline loop).
 */
export async function startBattle(tx: Transaction, battle: LoadedBattle, now: Date): Promise<LoadedBattle> {
  const seed = await seedOf(tx, battle.id);
  const salt = saltOf(battle);
  const dice = streamDice(seed, salt);
  const ruleset = rulesetOf(battle);
  const started = ruleset.start(battle.setup, dice);
  const { state } = started;
  const log = storedLog(started.log);
  // A battle may end in its own set-up (Classis with a one-turn limit whose first chit is End of Turn): then it is
  // finished at once, not left active with nobody to act.
  const outcome = ruleset.outcome(state);
  const ended = outcome === null ? { status: 'active' as const } : { status: 'finished' as const, finishedAt: now, deadlineAt: null, decision: null };
  await tx.battle.update({
    where: { id: battle.id },
    data: {
      salt,
      startLog: asJson(log),
      state: asJson(state),
      nextRoll: dice.next,
      startedAt: now,
      ...ended,
      ...(outcome === null ? {} : { outcome: asJson(outcome) }),
    },
  });
  return setClock(tx, { ...battle, salt, startLog: log, state, nextRoll: dice.next, startedAt: now, ...ended, outcome }, now, false);
}

type Taken = { ok: true; battle: LoadedBattle } | { ok: false; refusal: Refusal };

/**
 * Takes one action for `side`: checked and applied by the ruleset with the next dice of the stream, stored with its
 * log. A plot handed in while sides act together stays its side's until its turn is resolved: then every plot of
 * that turn is revealed (the decision the battle waits for has changed).
 */
export async function takeAction(
  tx: Transaction,
  battle: LoadedBattle,
  seed: string,
  side: string,
  action: unknown,
  by: { actor: BattleActor; userId: string | null },
  now: Date,
): Promise<Taken> {
  const ruleset = rulesetOf(battle);
  const before = battle.state;
  if (before === null || battle.salt === null || battle.status !== 'active')
    return { ok: false, refusal: { code: 'battle_over', message: 'the battle is not being fought' } };
  // `apply` checks the action first (shared/naval/ruleset.ts) and refuses it unchanged: no separate `check`, which
  // on a fleet of the measured-table rulesets costs as much as the move itself. A refused move's dice are not kept.
  const dice = streamDice(seed, battle.salt, battle.nextRoll);
  const applied = ruleset.apply(before, side, action, dice);
  if (!applied.ok) return { ok: false, refusal: applied.error };
  const index = battle.actionCount + 1;
  const secret = ruleset.turn(before).kind === 'simultaneous';
  const outcome = ruleset.outcome(applied.state);
  const resolved = outcome !== null || decisionOf(battle.ruleset, applied.state) !== decisionOf(battle.ruleset, before);
  await tx.battleAction.create({
    data: {
      battleId: battle.id,
      index,
      side,
      action: asJson(action),
      text: ruleset.describe(before, action),
      log: asJson(applied.log),
      by: by.actor,
      userId: by.userId,
      secret,
      revealed: !secret || resolved,
      createdAt: now,
    },
  });
  if (resolved) await tx.battleAction.updateMany({ where: { battleId: battle.id, revealed: false }, data: { revealed: true } });
  const finished = outcome !== null;
  await tx.battle.update({
    where: { id: battle.id },
    data: {
      state: asJson(applied.state),
      actionCount: index,
      nextRoll: dice.next,
      ...(finished ? { status: 'finished', outcome: asJson(outcome), finishedAt: now, deadlineAt: null, decision: null } : {}),
    },
  });
  return {
    ok: true,
    battle: {
      ...battle,
      state: applied.state,
      actionCount: index,
      nextRoll: dice.next,
      ...(finished ? { status: 'finished', outcome, finishedAt: now, deadlineAt: null, decision: null } : {}),
    },
  };
}

/**
 * The clock after a change: a new decision falling due to a human side gets a full deadline; one still pending keeps
 * its own; moves the computer still owes make it due now (the deadline loop goes on with them) unless it is `stuck`
 * (it found none the rules accept); none once the battle is over.
 */
async function setClock(tx: Transaction, battle: LoadedBattle, now: Date, stuck: boolean): Promise<LoadedBattle> {
  if (battle.status !== 'active') return battle;
  const ruleset = rulesetOf(battle);
  const pending = sidesToAct(ruleset.turn(battle.state));
  const decision = decisionOf(battle.ruleset, battle.state);
  const computerOwes = pending.some((side) => isComputer(battle, side));
  // A decision still pending keeps its deadline, unless it has passed already (a move the computer could not make
  // for a late side): then it gets a new one rather than falling due again at every tick.
  const keeps = decision === battle.decision && battle.deadlineAt !== null && battle.deadlineAt.getTime() > now.getTime();
  // Moves the computer still owes are due at once (the deadline loop goes on with them), unless it could find none.
  const deadlineAt = computerOwes && !stuck ? now : keeps ? battle.deadlineAt : new Date(now.getTime() + battle.turnSeconds * 1000);
  await tx.battle.update({ where: { id: battle.id }, data: { decision, deadlineAt } });
  return { ...battle, decision, deadlineAt };
}

/** The sides the computer plays in this battle. */
export function computerSides(battle: LoadedBattle): string[] {
  return battle.seats.flatMap((seat) => (seat.role === 'side' && seat.player === 'computer' && seat.side !== null ? [seat.side] : []));
}

/**
 * Thinks out, in the worker pool and with no lock held, the computer's moves from `battle` as read. Null when the
 * pool is too busy or the opponent failed (logged).
 */
async function planAfter(env: BattleEnv, battle: LoadedBattle, seed: string, start: PlanStart): Promise<Plan | null> {
  if (battle.state === null || battle.salt === null) return null;
  try {
    const thought = await env.computer.plan({
      ruleset: battle.ruleset,
      state: battle.state,
      seed,
      salt: battle.salt,
      nextRoll: battle.nextRoll,
      battleId: battle.id,
      actionCount: battle.actionCount,
      computerSides: computerSides(battle),
      budgetMs: THINKING_PER_PLAN_MS,
      maxMoves: MAX_COMPUTER_MOVES,
      ...start,
    });
    return thought.value;
  } catch (error) {
    if (error instanceof ComputerBusy) return null;
    env.log.error({ err: error, battleId: battle.id }, 'the computer opponent failed to think');
    return null;
  }
}

/**
 * In the transaction holding the battle's lock, the battle still where the plan started: the plan's computer moves
 * taken as any action is (the rules check each again, with the same dice), then the clock. A move they refuse ends it
 * there (logged: the plan and the stored battle disagree), the rest owed.
 */
async function settlePlanned(env: BattleEnv, tx: Transaction, start: LoadedBattle, seed: string, plan: Plan, now: Date): Promise<LoadedBattle> {
  for (const fault of plan.faults) env.log.warn({ battleId: start.id }, fault);
  let battle = start;
  for (const move of plan.moves) {
    if (move.by === 'player') continue;
    const taken = await takeAction(tx, battle, seed, move.side, move.action, { actor: move.by, userId: null }, now);
    if (!taken.ok) {
      env.log.error({ battleId: battle.id, side: move.side, refusal: taken.refusal }, 'a move the computer planned was refused when applied');
      return setClock(tx, battle, now, false);
    }
    battle = taken.battle;
  }
  return setClock(tx, battle, now, plan.stuck);
}

/** Nobody acted and nobody called the battle off since `seen` was read: a plan made from it still fits `battle`. */
const stillAt = (battle: LoadedBattle, seen: LoadedBattle) =>
  battle.status === 'active' && battle.actionCount === seen.actionCount && battle.decision === seen.decision;

/** What a plan starts from beyond the battle as read: a player's action taken first, or the decision a late side owed. */
type PlanStart = Pick<PlanRequest, 'first' | 'late'>;

/** No moves planned: whatever the computer owes is due at once, and the deadline loop makes it. */
const OWED: Plan = { moves: [], owes: true, stuck: false, faults: [] };

/** How one caller has the computer move (`planThenSettle`). */
export type PlanThenSettle<Seen extends { battle: LoadedBattle }> = {
  /**
   * The battle as this caller takes it, read with no lock and again under it: null leaves it (nothing is planned,
   * or the plan is dropped); it may throw instead (a player's request refused).
   */
  see: (battle: LoadedBattle | null) => Seen | null;
  /** What the plan starts from beyond the battle (none: the computer's own moves). */
  planFrom?: (seen: Seen) => PlanStart;
  /**
   * No plan (no worker free, or the opponent failed): `leave` the battle as it is (the deadline loop makes its moves),
   * `fail` with ComputerBusy (nothing is written: a claim of the deadline loop stays due), or `owe`: settle all the
   * same, the computer's moves due at once.
   */
  unplanned: 'leave' | 'fail' | 'owe';
  /** Under the lock, before the plan's moves: the player's own action; the battle it leaves. */
  first?: (tx: Transaction, seen: Seen, seed: string, now: Date) => Promise<LoadedBattle>;
  /** The time of the change; by default when the lock is taken. */
  now?: Date;
};

/**
 * The one way the computer moves in a battle being fought: its moves thought out in the worker pool from the battle
 * as read, with no lock held (other requests on the battle are served meanwhile), then taken in a transaction that
 * holds the battle's lock, only if the battle is still where the plan started (still active, at the same count and
 * decision, and still what `how.see` wants), and the change published. Null when nothing was settled: the battle
 * was not the caller's to move, it moved on meanwhile, or (`leave`) no plan came; else the locked battle and the
 * battle it left.
 */
export async function planThenSettle<Seen extends { battle: LoadedBattle }>(
  env: BattleEnv,
  db: PrismaClient,
  battleId: string,
  how: PlanThenSettle<Seen>,
): Promise<{ from: LoadedBattle; to: LoadedBattle } | null> {
  const seen = how.see(await readBattle(db, battleId));
  if (seen === null) return null;
  const seed = await seedOf(db, battleId);
  const planned = await planAfter(env, seen.battle, seed, how.planFrom?.(seen) ?? {});
  if (planned === null && how.unplanned === 'leave') return null;
  if (planned === null && how.unplanned === 'fail') throw new ComputerBusy(env.computer.load.waiting);
  return db.$transaction(async (tx) => {
    const locked = how.see(await lockBattle(tx, battleId));
    if (locked === null || !stillAt(locked.battle, seen.battle)) return null;
    const from = locked.battle;
    const now = how.now ?? new Date();
    const start = how.first ? await how.first(tx, locked, seed, now) : from;
    const to = await settlePlanned(env, tx, start, seed, planned ?? OWED, now);
    await publishChange(env, tx, to, 'acted');
    return { from, to };
  });
}

/**
 * Tells whoever watches the battle that it changed (in the transaction: only if it commits), and the lobby when a
 * listed battle appears, fills, starts, ends or goes: the battle lists re-read themselves then. A move in a battle
 * changes no list, so it stays on the battle's own channel; a private battle never reaches the lobby. Every change
 * to a battle ends here: a campaign game's battle that ended (or was called off) decides (or reopens) its sea in the
 * same transaction.
 */
export async function publishChange(env: BattleEnv, tx: Transaction, battle: LoadedBattle, what: BattleChangedEvent['what'], now = new Date()): Promise<void> {
  await seaAfterBattle(env, tx, battle, now);
  const event: BattleChangedEvent = {
    type: 'battle.changed',
    battleId: battle.id,
    what: battle.status === 'finished' && what === 'acted' ? 'finished' : what,
    status: battle.status,
    actionCount: battle.actionCount,
  };
  const listed = !battle.private && event.what !== 'acted';
  await env.bus.publishAll(tx, [{ channel: `battle:${battle.id}`, event }, ...(listed ? [{ channel: 'lobby' as const, event }] : [])]);
}

/**
 * After a battle's start has committed: the computer's first moves when it acts first (`planThenSettle`). A busy
 * pool, or a battle someone moved first, leaves them to the deadline loop: the battle is due at once.
 */
export async function computerOpens(env: BattleEnv, db: PrismaClient, battleId: string, now: Date = new Date()): Promise<void> {
  await planThenSettle(env, db, battleId, {
    see: (battle) =>
      battle?.status === 'active' && sidesToAct(rulesetOf(battle).turn(battle.state)).some((side) => isComputer(battle, side)) ? { battle } : null,
    unplanned: 'leave',
    now,
  });
}
