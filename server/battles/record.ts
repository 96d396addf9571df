/**
 * The archive of battles: a battle's record (shared/naval/record.ts) as its viewer may have it, the check of a
 * finished battle's dice and replay, and importing a record, stored as a finished battle only if it checks out.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { ImportBattleRequestSchema } from '../../shared/api/battles.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { BattleRecordSchema, replayRecord, verify } from '../../shared/naval/record.ts';
import { mayViewBattle } from '../access/battle-policy.ts';
import type { Auth } from '../auth/caller.ts';
import { conflict, invalid, notFound, unprocessable } from '../errors.ts';
import { battleRecordView, battleVerificationView, type LoadedBattle } from '../views/battle.ts';
import { viewBattle } from './lobby.ts';
import { insertImportedBattle, readActions, readBattle, seedOf } from '../db/tables/battles.ts';

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

export async function importBattle(app: FastifyInstance, user: User, request: z.output<typeof ImportBattleRequestSchema>) {
  const parsed = BattleRecordSchema.safeParse(request.record);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`body.record${issue.path.map((part) => `.${String(part)}`).join('')}`, issue.message);
  }
  const record = parsed.data;
  const checked = replayRecord(RULESETS[record.ruleset], record);
  if (!checked.ok) throw unprocessable('import_invalid', `the record does not check out: ${checked.problems[0]}`, { problems: checked.problems });
  const replayed = checked.replayed;
  if (replayed.outcome === null) throw unprocessable('import_invalid', 'the record is of a battle that is not over: only finished battles are imported');
  const title = request.title ?? String((replayed.setup as { title?: unknown }).title ?? 'Imported battle');
  const battleId = await app.prisma.$transaction((tx) =>
    insertImportedBattle(tx, record, checked.seed, replayed, {
      title,
      createdById: user.id,
      private: false,
      turnSeconds: DEFAULT_TURN_SECONDS,
      at: new Date(),
      player: 'human',
    }),
  );
  return viewBattle(app, user, battleId);
}
