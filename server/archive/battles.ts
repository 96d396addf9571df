/**
 * A campaign game's battle in its export, checked on import: the battle a decided sea carries must be the one that
 * sea's fleets fight under the game's ruleset (its set-up as the campaign builds it from the sea, shared/campaign/),
 * its record must verify (seed against commitment, every die, the replay's log: shared/naval/record.ts), its replay
 * must end, and its winner must decide the sea as the export says it was decided (shared/campaign/decision.ts).
 * Anything else is a 422 naming the phase, the sea and what does not match.
 *
 * An imported battle becomes a battle row here, finished and imported, linked to its sea: the imported game's results
 * link to it as the exported game's did, and its page replays it and checks its dice.
 */
import type { Campaign, SeaOutcome } from '../../shared/api/campaign.ts';
import { decisionFrom } from '../../shared/campaign/decision.ts';
import { forcesAtSea } from '../../shared/campaign/forces.ts';
import { fleetsLost } from '../../shared/campaign/losses.ts';
import { battleFromSea } from '../../shared/campaign/setups/index.ts';
import type { ContestedSea } from '../../shared/index.ts';
import { streamDice } from '../../shared/naval/dice.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { type BattleRecord, verify } from '../../shared/naval/record.ts';
import type { Outcome } from '../../shared/naval/ruleset.ts';
import type { Prisma, Transaction } from '../db/database.ts';
import { unprocessable } from '../errors.ts';
import { canonical } from './canonical.ts';

const invalid = (message: string) => unprocessable('import_invalid', message);

/** What replaying a verified battle gives: the set-up, the state at its end, each action in words, the outcome. */
export type ReplayedBattle = { setup: unknown; state: unknown; texts: string[]; outcome: Outcome; nextRoll: number };

const outcomeText = (outcome: SeaOutcome) =>
  `${'winner' in outcome ? `won by ${outcome.winner}${outcome.unit ? ` (${outcome.unit})` : ''}` : 'a standoff'}` +
  (outcome.destroyed && outcome.destroyed.length > 0 ? `, the fleets at ${outcome.destroyed.join(', ')} lost` : '');

/**
 * Checks the battle of the decided sea `sea` (as the engine lists it, with its decision) against the campaign; returns
 * its replay. `label` names the phase ("phases[0] (Spring 240 BC)"). Throws 422 naming what does not match.
 */
export function checkSeaBattle(
  label: string,
  campaign: Campaign,
  sea: ContestedSea,
  decided: { outcome: SeaOutcome; sides?: readonly (readonly string[])[] },
  record: BattleRecord,
): ReplayedBattle {
  const where = `${label}.decided (${sea.province}): its battle`;
  if (record.ruleset !== campaign.ruleset) throw invalid(`${where} is fought under ${record.ruleset}; the campaign fights its seas under ${campaign.ruleset}`);
  const ruleset = RULESETS[record.ruleset];
  const forces = forcesAtSea(sea, campaign.fleets, decided.sides);
  if (!forces.ok) throw invalid(`${label}.decided (${sea.province}): who fought there cannot be told: ${forces.error.join('; ')}`);
  const title = (record.setup as { title?: unknown } | null)?.title;
  if (typeof title !== 'string') throw invalid(`${where}: its set-up has no title`);
  // The set-up the sea's fleets give (the title is the exporting server's words): another fleet would be another battle.
  const expected = battleFromSea(record.ruleset, forces.value, title);
  if (!expected.ok) throw invalid(`${where}: the sea cannot be fought under ${ruleset.title}: ${expected.error.join('; ')}`);
  const given = ruleset.setupSchema.safeParse(record.setup);
  if (!given.success || canonical(ruleset.setupSchema.parse(expected.value)) !== canonical(given.data)) {
    throw invalid(`${where}: its set-up is not the battle of the fleets that met in ${sea.name} (${forces.value.sides.map((s) => s.name).join(' against ')})`);
  }
  let replayed: ReplayedBattle;
  try {
    const verification = verify(ruleset, record);
    if (!verification.ok || record.seed === undefined) throw invalid(`${where} does not check out: ${verification.problems[0] ?? 'the seed is not revealed'}`);
    const dice = streamDice(record.seed, record.salt);
    let state = ruleset.start(given.data, dice).state;
    const texts: string[] = [];
    for (const entry of record.actions) {
      // verify() loaded and replayed each of these without a refusal.
      const action = ruleset.actionSchema.parse(entry.action);
      texts.push(ruleset.describe(state, action));
      const applied = ruleset.apply(state, entry.side, action, dice);
      if (!applied.ok) throw invalid(`${where}: an action is refused on replay: ${applied.error.message}`);
      state = applied.state;
    }
    const outcome = ruleset.outcome(state);
    if (outcome === null) throw invalid(`${where} is not over: replayed, its last action leaves it going on`);
    replayed = { setup: given.data, state, texts, outcome, nextRoll: dice.next };
  } catch (error) {
    if (error instanceof Error && 'statusCode' in error) throw error;
    throw invalid(`${where}: the rules could not replay it: ${(error as Error).message}`);
  }
  const winner = replayed.outcome.winner;
  // The fleets that lost every ship go down with them, as when the battle decided the sea (shared/campaign/losses.ts).
  const lost = fleetsLost(record.ruleset, forces.value, replayed.state);
  const decision = decisionFrom(forces.value, winner, lost.ok ? lost.value : []);
  if (!decision.ok) throw invalid(`${where}: ${decision.error}`);
  if (canonical(decision.value.outcome) !== canonical(decided.outcome)) {
    const side = winner === null ? 'nobody won it' : `${forces.value.sides.find((s) => s.id === winner)?.name ?? winner} won it`;
    throw invalid(
      `${label}.decided (${sea.province}): the sea is decided as ${outcomeText(decided.outcome)}, but its battle gives ${outcomeText(decision.value.outcome)} (${side})`,
    );
  }
  return replayed;
}

/**
 * Stores a checked battle as a finished, imported battle of the importer's (its seats the computer's when the computer
 * fought it, empty players' seats otherwise: the exported game's players have no account here); returns its id.
 */
export async function storeSeaBattle(
  tx: Transaction,
  record: BattleRecord & { seed?: string },
  replayed: ReplayedBattle,
  fought: { by: 'battle' | 'computer'; at: Date; createdById: string; private: boolean },
): Promise<string> {
  const ruleset = RULESETS[record.ruleset];
  const json = (value: unknown) => value as Prisma.InputJsonValue;
  const title = String((replayed.setup as { title?: unknown }).title).slice(0, 120);
  const player = fought.by === 'computer' ? ('computer' as const) : ('human' as const);
  const created = await tx.battle.create({
    data: {
      title,
      ruleset: record.ruleset,
      setup: json(replayed.setup),
      createdById: fought.createdById,
      status: 'finished',
      private: fought.private,
      turnSeconds: 48 * 3600,
      commitment: record.commitment,
      salt: record.salt,
      startLog: json(record.start),
      state: json(replayed.state),
      actionCount: record.actions.length,
      nextRoll: replayed.nextRoll,
      outcome: json(replayed.outcome),
      importedAt: new Date(),
      createdAt: fought.at,
      startedAt: fought.at,
      finishedAt: fought.at,
      // checkSeaBattle refused a record without its seed.
      seed: { create: { seed: record.seed ?? '' } },
      seats: { create: ruleset.sides(replayed.setup).map((side) => ({ role: 'side' as const, side: side.id, player })) },
    },
  });
  await tx.battleAction.createMany({
    data: record.actions.map((entry, i) => ({
      battleId: created.id,
      index: i + 1,
      side: entry.side,
      action: json(entry.action),
      text: replayed.texts[i],
      log: json(entry.log),
      by: player === 'computer' ? ('computer' as const) : ('player' as const),
      createdAt: fought.at,
    })),
  });
  return created.id;
}
