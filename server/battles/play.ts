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
import { ComputerBusy, type ComputerPool, type Thought } from './computer-pool.ts';
import type { Plan, PlanRequest } from './computer-plan.ts';
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
/**
 * The options of every transaction that may let the computer move: long enough for its thinking (above) and one
 * decision begun just before the budget ran out, short enough to give up on a stuck one.
 */
export const BATTLE_TX_OPTIONS = { maxWait: 20_000, timeout: 60_000 } as const;

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
  const started = rulesetOf(battle).start(battle.setup, dice);
  const { state } = started;
  const log = storedLog(started.log);
  await tx.battle.update({
    where: { id: battle.id },
    data: { status: 'active', salt, startLog: asJson(log), state: asJson(state), nextRoll: dice.next, startedAt: now },
  });
  return setClock(tx, { ...battle, status: 'active', salt, startLog: log, state, nextRoll: dice.next, startedAt: now }, now, false);
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
 * Thinks out, in the worker pool and with no lock held, the computer's moves from `battle` as read (a player's
 * `first` action taken before them; for `late`, its moves for the sides whose time ran out on that decision). Null
 * when the pool is too busy or the opponent failed (logged): the computer's moves are then left to the deadline loop.
 */
export async function planAfter(
  env: BattleEnv,
  battle: LoadedBattle,
  seed: string,
  extra: { first?: PlanRequest['first']; late?: PlanRequest['late'] } = {},
): Promise<Thought<Plan> | null> {
  if (battle.state === null || battle.salt === null) return null;
  try {
    return await env.computer.plan({
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
      ...extra,
    });
  } catch (error) {
    if (error instanceof ComputerBusy) return null;
    env.log.error({ err: error, battleId: battle.id }, 'the computer opponent failed to think');
    return null;
  }
}

/**
 * In the transaction holding the battle's lock, the battle still where the plan started (the caller checks its
 * count): the plan's computer moves taken as any action is (the rules check each again, with the same dice), then
 * the clock. A move they refuse ends it there (logged: the plan and the stored battle disagree), the rest owed.
 */
export async function settlePlanned(env: BattleEnv, tx: Transaction, start: LoadedBattle, seed: string, plan: Plan, now: Date): Promise<LoadedBattle> {
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

/**
 * A deadline passed: the computer acts for each human side that owed the decision, until the decision is taken
 * (Classis: the rest of the activation; ship-to-ship: the plot), the log saying so; then its own seats, and the
 * clock. `planned`: those moves as the deadline loop thought them out before it locked the battle (deadlines.ts),
 * from this very state; without it the computer thinks now, while the caller holds the lock.
 */
export async function expireDeadline(env: BattleEnv, tx: Transaction, start: LoadedBattle, now: Date, planned?: Plan): Promise<LoadedBattle> {
  const seed = await seedOf(tx, start.id);
  const late = start.decision === null ? undefined : { decision: start.decision };
  let plan = planned;
  if (!plan) {
    const thought = await planAfter(env, start, seed, { late });
    // No worker free to act for the late side: the expiry rolls back and the battle stays due (the next tick retries),
    // rather than the late side getting a new deadline.
    if (!thought) throw new ComputerBusy(env.computer.load.waiting);
    plan = thought.value;
  }
  return settlePlanned(env, tx, start, seed, plan, now);
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
 * After a battle's start has committed: the computer's first moves when it acts first, thought out in the worker
 * pool with no lock held and applied under the battle's lock if nobody moved meanwhile (as the deadline loop does).
 * A busy pool, or a battle someone moved first, leaves them to that loop: the battle is due at once.
 */
export async function computerOpens(env: BattleEnv, db: PrismaClient, battleId: string, now: Date = new Date()): Promise<void> {
  const seen = await readBattle(db, battleId);
  if (seen?.status !== 'active' || !sidesToAct(rulesetOf(seen).turn(seen.state)).some((side) => isComputer(seen, side))) return;
  const seed = await seedOf(db, battleId);
  const thought = await planAfter(env, seen, seed);
  if (!thought) return;
  await db.$transaction(async (tx) => {
    const battle = await lockBattle(tx, battleId);
    if (battle.status !== 'active' || battle.actionCount !== seen.actionCount || battle.decision !== seen.decision) return;
    const after = await settlePlanned(env, tx, battle, seed, thought.value, now);
    await publishChange(env, tx, after, 'acted');
  }, BATTLE_TX_OPTIONS);
}
