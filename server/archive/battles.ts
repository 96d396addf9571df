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
import { RULESETS } from '../../shared/naval/index.ts';
import { type BattleRecord, type Replayed, replayRecord } from '../../shared/naval/record.ts';
import type { Outcome } from '../../shared/naval/ruleset.ts';
import type { Transaction } from '../db/database.ts';
import { insertImportedBattle } from '../db/tables/battles.ts';
import { unprocessable } from '../errors.ts';
import { canonical } from './canonical.ts';

const invalid = (message: string) => unprocessable('import_invalid', message);

/** A verified battle replayed to its end (shared/naval/record.ts), with its revealed seed. */
export type ReplayedBattle = Replayed & { outcome: Outcome; seed: string };

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
  const checked = replayRecord(ruleset, { ...record, setup: given.data });
  if (!checked.ok) throw invalid(`${where} does not check out: ${checked.problems[0]}`);
  const { outcome } = checked.replayed;
  if (outcome === null) throw invalid(`${where} is not over: replayed, its last action leaves it going on`);
  const replayed: ReplayedBattle = { ...checked.replayed, outcome, seed: checked.seed };
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
export function storeSeaBattle(
  tx: Transaction,
  record: BattleRecord,
  replayed: ReplayedBattle,
  fought: { by: 'battle' | 'computer'; at: Date; createdById: string; private: boolean },
): Promise<string> {
  return insertImportedBattle(tx, record, replayed.seed, replayed, {
    title: String((replayed.setup as { title?: unknown }).title),
    createdById: fought.createdById,
    private: fought.private,
    turnSeconds: 48 * 3600,
    at: fought.at,
    player: fought.by === 'computer' ? 'computer' : 'human',
  });
}
