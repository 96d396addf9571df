/**
 * The archive of battles: a battle's record (shared/naval/record.ts) as its viewer may have it, the check of a
 * finished battle's dice and replay, and importing a record, stored as a finished battle only if it checks out.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { ImportBattleRequestSchema } from '../../shared/api/battles.ts';
import { streamDice } from '../../shared/naval/dice.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { type BattleRecord, BattleRecordSchema, verify } from '../../shared/naval/record.ts';
import { mayViewBattle } from '../access/battle-policy.ts';
import type { Auth } from '../auth/caller.ts';
import { conflict, invalid, notFound, unprocessable } from '../errors.ts';
import { battleRecordView, battleVerificationView, type LoadedBattle } from '../views/battle.ts';
import { viewBattle } from './lobby.ts';
import { asJson, readActions, readBattle, seedOf } from './stored.ts';

type User = Auth['user'];
type Viewer = User | null;

const DEFAULT_TURN_SECONDS = 48 * 3600;

/** The battle, if the viewer may see it and it has started (its salt is fixed); 404 or 409 otherwise. */
async function startedBattle(app: FastifyInstance, viewer: Viewer, battleId: string, inviteCode?: string): Promise<LoadedBattle & { salt: string }> {
  const battle = await readBattle(app.prisma, battleId);
  if (!battle || !mayViewBattle(battle, viewer, inviteCode)) throw notFound('no battle with that id');
  const salt = battle.salt;
  if (salt === null) throw conflict('conflict', 'the battle has not started: it has no record yet');
  return { ...battle, salt };
}

export async function exportBattle(app: FastifyInstance, viewer: Viewer, battleId: string, inviteCode?: string) {
  const battle = await startedBattle(app, viewer, battleId, inviteCode);
  const seed = battle.status === 'finished' ? await seedOf(app.prisma, battle.id) : null;
  return battleRecordView(battle, await readActions(app.prisma, battle.id), seed, viewer);
}

export async function verifyBattle(app: FastifyInstance, viewer: Viewer, battleId: string) {
  const battle = await startedBattle(app, viewer, battleId);
  if (battle.status !== 'finished') throw conflict('conflict', 'the seed is revealed when the battle ends: it can be checked then');
  const seed = await seedOf(app.prisma, battle.id);
  const record = battleRecordView(battle, await readActions(app.prisma, battle.id), seed, viewer);
  return battleVerificationView(battle, seed, verify(RULESETS[battle.ruleset], record));
}

/** What replaying a verified record gives: each action in words, the final state and the outcome. */
function replay(record: BattleRecord & { seed: string }) {
  const ruleset = RULESETS[record.ruleset];
  const setup = ruleset.setupSchema.parse(record.setup);
  const dice = streamDice(record.seed, record.salt);
  let state = ruleset.start(setup, dice).state;
  const texts: string[] = [];
  for (const entry of record.actions) {
    const action = ruleset.actionSchema.parse(entry.action);
    texts.push(ruleset.describe(state, action));
    const applied = ruleset.apply(state, entry.side, action, dice);
    // verify() replayed the same actions and found none refused.
    if (!applied.ok) throw new Error(`a verified record's action was refused on replay: ${applied.error.message}`);
    state = applied.state;
  }
  return { setup, state, texts, outcome: ruleset.outcome(state), nextRoll: dice.next };
}

/** A record checked (verify) and replayed; or its problems, a replay the engine cannot make included (never a 500). */
function replayedRecord(record: BattleRecord): { ok: true; replayed: ReturnType<typeof replay>; seed: string } | { ok: false; problems: string[] } {
  try {
    const verification = verify(RULESETS[record.ruleset], record);
    if (!verification.ok || record.seed === undefined) return { ok: false, problems: [...verification.problems] };
    return { ok: true, replayed: replay({ ...record, seed: record.seed }), seed: record.seed };
  } catch (error) {
    return { ok: false, problems: [`the rules could not replay it: ${(error as Error).message}`] };
  }
}

export async function importBattle(app: FastifyInstance, user: User, request: z.output<typeof ImportBattleRequestSchema>) {
  const parsed = BattleRecordSchema.safeParse(request.record);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`body.record${issue.path.map((part) => `.${String(part)}`).join('')}`, issue.message);
  }
  const record = parsed.data;
  const checked = replayedRecord(record);
  if (!checked.ok) throw unprocessable('import_invalid', `the record does not check out: ${checked.problems[0]}`, { problems: checked.problems });
  const replayed = checked.replayed;
  if (replayed.outcome === null) throw unprocessable('import_invalid', 'the record is of a battle that is not over: only finished battles are imported');
  const sides = RULESETS[record.ruleset].sides(replayed.setup);
  const seed = checked.seed;
  const now = new Date();
  const battleId = await app.prisma.$transaction(async (tx) => {
    const created = await tx.battle.create({
      data: {
        title: request.title ?? String((replayed.setup as { title?: unknown }).title ?? 'Imported battle').slice(0, 120),
        ruleset: record.ruleset,
        setup: asJson(replayed.setup),
        createdById: user.id,
        status: 'finished',
        turnSeconds: DEFAULT_TURN_SECONDS,
        commitment: record.commitment,
        salt: record.salt,
        startLog: asJson(record.start),
        state: asJson(replayed.state),
        actionCount: record.actions.length,
        nextRoll: replayed.nextRoll,
        outcome: asJson(replayed.outcome),
        importedAt: now,
        startedAt: now,
        finishedAt: now,
        seed: { create: { seed } },
        seats: { create: sides.map((side) => ({ role: 'side' as const, side: side.id, player: 'human' as const })) },
      },
    });
    await tx.battleAction.createMany({
      data: record.actions.map((entry, i) => ({
        battleId: created.id,
        index: i + 1,
        side: entry.side,
        action: asJson(entry.action),
        text: replayed.texts[i],
        log: asJson(entry.log),
        by: 'player' as const,
        createdAt: now,
      })),
    });
    return created.id;
  });
  return viewBattle(app, user, battleId);
}
