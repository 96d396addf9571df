/**
 * Importing a game from its export. Nothing is taken on trust: every processed
 * phase is re-adjudicated by the engine from its position (stateBefore with
 * its loan actions) and its orders, and must give exactly the results, events
 * and state after that the export records; each phase must start where the one
 * before ended. The game is created with the importer as creator and game
 * master; seats are vacant (the players' accounts are on another server) until
 * the game master hands them to users, and the original names are kept in the
 * import's log entry, under `details.exported` (shown where the game shows
 * names). Entries copied from the export's log are marked imported, with who
 * acted in the exported game beside them (shared/api/imported-log.ts): nothing
 * from the export poses as this server's own record.
 *
 * Dates are checked too: none in the future (beyond a little clock skew), the
 * game created, started, finished and exported in that order, every phase,
 * submission, message, loan and log entry within the game's span.
 *
 * Engine versions: each processed phase records the ENGINE_VERSION that
 * adjudicated it. A phase recorded under another version (or none: exports made
 * before versions were recorded) is re-adjudicated all the same; if it
 * reproduces it is accepted and listed in the import's log entry
 * (`details.engineVersions.rechecked`), if not the import is refused with 422
 * `engine_version_mismatch` naming the phase and both versions — not a bare
 * "does not reproduce", which is kept for exports that claim this version.
 *
 * A campaign game's seas: each phase is re-adjudicated with its decided seas, and
 * the battle that decided a sea (its record, beside the decision) is replayed by its
 * ruleset's engine (battles.ts): the set-up must be the one the sea's fleets give
 * under the campaign's ruleset, the dice and log must check out, and its winner must
 * decide the sea as the export says; otherwise 422 naming the phase, the sea and the
 * mismatch. Each such battle becomes a battle row here, finished and marked imported,
 * linked to its sea: a player following the battle's link from the imported game's
 * results finds it, its replay and the check of its dice, as in the exported game
 * (its seats are the computer's when the computer fought it, empty otherwise).
 *
 * A phase held for its sea battles (the export's last) imports held: its orders
 * final, its seas decided (with their battles), waived, or awaited as exported. The
 * awaited ones (a sea being fought included: its battle is not over, its seed still
 * secret, so it is not exported) wait again undecided, their battles' deadline
 * restarted with the campaign's whole time from the import, for the importer, the
 * game's master, to fight, auto-resolve, decide or waive; when the last is settled
 * the phase is adjudicated as ever. Its submissions are not in the export (they are
 * public only once it is processed): the deadlines kept in it are counted from what
 * this server holds, and its seats are vacant anyway.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  adjudicate,
  contestedSeas,
  ENGINE_VERSION,
  getVariant,
  phaseName,
  resultsAsNow,
  rulebookOptions,
  survivors,
  type ContestedSea,
  type DecidedProvince,
  type GameState,
  type Variant,
} from '../../shared/index.ts';
import { forcesAtSea } from '../../shared/campaign/forces.ts';
import { checkFleetLists } from '../../shared/campaign/fleets.ts';
import { IMPORT_LIMITS, type ExportedGame, type ImportGameRequestSchema } from '../../shared/api/archive.ts';
import { EXPORTED_NAMES_KEY, IMPORTED_ENTRY_KEY, type ExportedOrigin } from '../../shared/api/imported-log.ts';
import { GAME_MASTER_RECIPIENT } from '../../shared/api/press.ts';
import type { GmActionKind } from '../../shared/api/gm-actions.ts';
import { discardedPhaseValues, phaseValues } from '../db/tables/phases.ts';
import { seaBattleValues } from '../db/tables/sea-battles.ts';
import { submissionValues } from '../db/tables/submissions.ts';
import { gameValues } from '../db/tables/games.ts';
import { gmActionValues, JsonObjectSchema, type JsonObject } from '../db/tables/gm-log.ts';
import { unprocessable } from '../errors.ts';
import { deadlineSeconds } from '../play/first-phase.ts';
import { readGame } from '../views/game.ts';
import { syncLoans } from '../play/loan-sync.ts';
import type { Transaction } from '../db/database.ts';
import { applyLoanActions, parseState } from '../play/phases.ts';
import type { Auth } from '../auth/caller.ts';
import { checkSeaBattle, type ReplayedBattle, storeSeaBattle } from './battles.ts';
import { canonical } from './canonical.ts';

const invalid = (message: string) => unprocessable('import_invalid', message);

export { canonical };

function firstDifference(label: string, expected: unknown, actual: unknown): string | null {
  if (canonical(expected) === canonical(actual)) return null;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return `${label}: the engine gives ${actual.length} entries, the export has ${expected.length}`;
    const i = expected.findIndex((item, k) => canonical(item) !== canonical(actual[k]));
    return `${label}[${i}]: the export has ${canonical(expected[i])}, the engine gives ${canonical(actual[i])}`;
  }
  return `${label}: the export has ${canonical(expected).slice(0, 300)}, the engine gives ${canonical(actual).slice(0, 300)}`;
}

const DAY_MS = 86_400_000;
/** No archive is older than this; PostgreSQL and JavaScript disagree about dates before year 1. */
const EARLIEST = Date.UTC(1970, 0, 1);

/**
 * Every date of the export, in order and within the game's span (a little clock skew, between the exporting
 * server's clocks or with this one's, allowed): a forged date would otherwise sort the game first in a list
 * (a finish in 9999) or tell a history that cannot have happened. Throws 422 naming the field.
 */
export function checkDates(data: ExportedGame, now: Date): void {
  const skew = IMPORT_LIMITS.clockSkewMs;
  const latest = now.getTime() + skew;
  const time = (field: string, iso: string): number => {
    const t = Date.parse(iso);
    if (!(t >= EARLIEST)) throw invalid(`${field}: ${iso} is before 1970`);
    if (t > latest) throw invalid(`${field}: ${iso} is in the future (this server's time is ${now.toISOString()})`);
    return t;
  };
  const within = (field: string, iso: string, from: [string, number], to: [string, number]): number => {
    const t = time(field, iso);
    if (t < from[1] - skew) throw invalid(`${field}: ${iso} is before ${from[0]}`);
    if (t > to[1] + skew) throw invalid(`${field}: ${iso} is after ${to[0]}`);
    return t;
  };
  const { game } = data;
  const exported: [string, number] = ['exportedAt', time('exportedAt', data.exportedAt)];
  const created: [string, number] = ['game.createdAt', within('game.createdAt', game.createdAt, ['1970', EARLIEST], exported)];
  const started: [string, number] = game.startedAt ? ['game.startedAt', within('game.startedAt', game.startedAt, created, exported)] : created;
  if (game.status === 'active' && game.finishedAt) throw invalid('game.finishedAt: a game going on has not finished');
  const end: [string, number] = game.finishedAt ? ['game.finishedAt', within('game.finishedAt', game.finishedAt, started, exported)] : exported;
  if (game.pausedAt) within('game.pausedAt', game.pausedAt, started, exported);

  type PhaseDates = Pick<ExportedGame['phases'][number], 'deadlineAt' | 'processedAt' | 'submissions' | 'loanActions' | 'heldAt'>;
  const phaseDates = (label: string, phase: PhaseDates, open: boolean, until: [string, number]) => {
    // Deadlines are ahead (an open phase's), and move (pauses, the game master), but not by years.
    if (phase.deadlineAt) {
      const t = Date.parse(phase.deadlineAt);
      if (t < created[1] - 366 * DAY_MS || t > (phase.processedAt ? Date.parse(phase.processedAt) : until[1]) + 366 * DAY_MS) {
        throw invalid(`${label}.deadlineAt: ${phase.deadlineAt} is more than a year away from the game's phases`);
      }
    }
    if (open && phase.processedAt) throw invalid(`${label}.processedAt: an open phase has not been processed`);
    if ('heldAt' in phase && phase.heldAt) within(`${label}.heldAt`, phase.heldAt, started, until);
    // Not necessarily in order: a phase rolled back and processed again is processed after the ones that followed it.
    const processed: [string, number] | null = phase.processedAt
      ? [`${label}.processedAt`, within(`${label}.processedAt`, phase.processedAt, started, until)]
      : null;
    for (const [k, submission] of phase.submissions.entries()) {
      within(`${label}.submissions[${k}].submittedAt`, submission.submittedAt, started, processed ?? until);
    }
    for (const [k, action] of phase.loanActions.entries()) within(`${label}.loanActions[${k}].at`, action.at, started, processed ?? until);
  };
  for (const [i, phase] of data.phases.entries()) phaseDates(`phases[${i}]`, phase, phase.status === 'open', end);
  for (const [i, message] of data.press.entries()) within(`press[${i}].sentAt`, message.sentAt, created, end);
  for (const [i, loan] of data.loans.entries()) within(`loans[${i}].createdAt`, loan.createdAt, started, end);
  // The game master acts after the end too (re-opening it, importing it).
  for (const [i, entry] of data.gmLog.entries()) within(`gmLog[${i}].at`, entry.at, created, exported);
  for (const [i, phase] of data.discardedPhases.entries()) {
    const discarded: [string, number] = [
      `discardedPhases[${i}].discardedAt`,
      within(`discardedPhases[${i}].discardedAt`, phase.discardedAt, started, exported),
    ];
    phaseDates(`discardedPhases[${i}]`, phase, !phase.processedAt, discarded);
  }
}

/**
 * A held phase's contested seas: as the engine lists them with the decisions so far, or (a sea waived or awaited that
 * those decisions leave without a meeting) as it listed them when the phase was held.
 */
function heldPhaseSeas(variant: Variant, position: GameState, orders: Parameters<typeof contestedSeas>[2], decided: DecidedProvince[]) {
  const listed = contestedSeas(variant, position, orders, { decided });
  const initial = contestedSeas(variant, position, orders, { decided: [] });
  const all = [...(listed.ok ? listed.value : []), ...(initial.ok ? initial.value : [])];
  return { find: (province: string) => all.find((sea) => sea.province === province) };
}

/** A processed phase recorded under another engine version that the current engine reproduces. */
export type RecheckedPhase = { phase: number; recordedVersion: number | null };

/**
 * Checks the whole export against the engine; returns the variant and the phases
 * recorded under another engine version (re-adjudicated here all the same).
 * Throws 422 naming the first problem.
 */
/** The battles of the export's decided seas, replayed: by `${phase index}:${province}`. */
export type ReplayedBattles = Map<string, ReplayedBattle>;

export function verifyExport(data: ExportedGame): { variant: Variant; rechecked: RecheckedPhase[]; battles: ReplayedBattles } {
  const rechecked: RecheckedPhase[] = [];
  const battles: ReplayedBattles = new Map();
  const variant = getVariant(data.game.variant, rulebookOptions(data.game.rules));
  if (!variant) throw invalid(`the rules engine cannot play variant "${data.game.variant}"`);
  const powers = variant.powers;
  const seated = data.players.map((player) => player.power);
  if (seated.length !== powers.length || !powers.every((power) => seated.includes(power))) {
    throw invalid(`players: must give each power of ${variant.id} exactly once (${powers.join(', ')}), not ${seated.join(', ')}`);
  }

  const campaign = data.game.campaign;
  if (campaign) {
    const lists = checkFleetLists(powers, campaign.fleets);
    if (!lists.ok) throw invalid(`game.campaign.fleets: ${lists.error.join('; ')}`);
  }

  const phases = data.phases;
  const finished = data.game.status === 'finished';
  const outcome = data.game.outcome;
  if (finished !== (outcome !== null)) throw invalid('game.outcome: a finished game has an outcome, a game going on has none');
  if (outcome && !outcome.powers.every((power) => powers.includes(power))) throw invalid('game.outcome.powers: names a power not in the game');
  const lastMustBeProcessed = outcome?.kind === 'victory';

  type Orders = Parameters<typeof contestedSeas>[2];
  type Decided = NonNullable<ExportedGame['phases'][number]['decided']>;

  /** The decided seas, each once, as the engine accepts them; the decisions the engine adjudicates with. */
  const checkDecided = (label: string, position: GameState, orders: Orders, decided: Decided) => {
    if (decided.length === 0) return [];
    if (!campaign) throw invalid(`${label}.decided: only a campaign game's phases have seas decided by battles (game.campaign is absent)`);
    const provinces = decided.map((sea) => sea.province);
    const twice = provinces.find((province, k) => provinces.indexOf(province) !== k);
    if (twice) throw invalid(`${label}.decided: ${twice} is decided twice`);
    const seas = contestedSeas(variant, position, orders, { decided });
    if (!seas.ok) throw invalid(`${label}.decided: the engine refuses these decided seas: ${seas.error.join('; ')}`);
    return decided.map(({ province, outcome }) => ({ province, outcome }));
  };

  /** The game master's sides of a sea: as the sea's battle would be set up with them. */
  const checkSides = (label: string, lists: NonNullable<typeof campaign>, sea: ContestedSea, sides: string[][]) => {
    const forces = forcesAtSea(sea, lists.fleets, sides);
    if (!forces.ok) throw invalid(`${label} (${sea.province}).sides: ${forces.error.join('; ')}`);
  };

  /** Each decided sea's battle replayed, its set-up the sea's and its outcome the sea's decision (battles.ts). */
  const checkBattles = (label: string, index: number, position: GameState, orders: Orders, decided: Decided) => {
    if (!campaign) return;
    const fought = decided.filter((sea) => sea.battle);
    if (fought.length === 0) return;
    const seas = contestedSeas(variant, position, orders, { decided });
    if (!seas.ok) throw invalid(`${label}.decided: the engine refuses these decided seas: ${seas.error.join('; ')}`);
    for (const sea of fought) {
      const contested = seas.value.find((listed) => listed.province === sea.province);
      if (!contested) throw invalid(`${label}.decided (${sea.province}): no fleets of two powers met there`);
      if (sea.by === 'game-master') throw invalid(`${label}.decided (${sea.province}): decided by the game master, it has no battle`);
      battles.set(`${index}:${sea.province}`, checkSeaBattle(label, campaign, contested, sea, sea.battle!));
    }
  };

  let previousAfter: GameState | null = null;
  phases.forEach((phase, i) => {
    const label = `phases[${i}] (${phase.name})`;
    if (phase.index !== i) throw invalid(`${label}: index is ${phase.index}, expected ${i} (phases are numbered from 0, in order)`);
    let before: GameState;
    try {
      before = parseState(phase.stateBefore);
    } catch (error) {
      throw invalid(`${label}.stateBefore: ${(error as Error).message}`);
    }
    if (before.variant !== variant.id) throw invalid(`${label}.stateBefore: is for variant "${before.variant}", not "${variant.id}"`);
    if (phase.name !== phaseName(variant, before.phase)) throw invalid(`${label}.name: the engine calls this phase "${phaseName(variant, before.phase)}"`);
    if (phase.kind !== before.phase.type) throw invalid(`${label}.kind: is "${phase.kind}", the position is a ${before.phase.type} phase`);
    if (previousAfter && canonical(previousAfter) !== canonical(before)) {
      throw invalid(`${label}.stateBefore: differs from the state after phase ${i - 1}: ${firstDifference('state', previousAfter, before)}`);
    }
    let position: GameState;
    try {
      position = applyLoanActions(variant, before, phase.loanActions);
    } catch (error) {
      throw invalid(`${label}.loanActions: ${(error as Error).message}`);
    }

    const last = i === phases.length - 1;
    const shouldBeProcessed = !last || lastMustBeProcessed;
    if ((phase.status === 'processed') !== shouldBeProcessed) {
      throw invalid(`${label}.status: is "${phase.status}"; every phase but the last is processed, and the last is open unless the game was won in it`);
    }
    if (phase.status !== 'held' && (phase.heldAt !== undefined || phase.waived !== undefined || phase.awaiting !== undefined)) {
      throw invalid(`${label}: only a phase held for its sea battles has seas waived or awaited (its status is "${phase.status}")`);
    }
    if (phase.status === 'open') {
      if (phase.decided !== undefined) throw invalid(`${label}.decided: an open phase has no decided seas`);
      if (phase.orders !== null || phase.results !== null || phase.stateAfter !== null)
        throw invalid(`${label}: an open phase has no orders, results or state after`);
      return;
    }
    if (phase.status === 'held') {
      // Held for its sea battles (the last phase of a game going on): its orders final, some seas decided, some awaited.
      if (!campaign) throw invalid(`${label}.status: only a campaign game's phase is held for its sea battles (game.campaign is absent)`);
      if (data.game.status !== 'active' || phase.kind !== 'movement') throw invalid(`${label}.status: only a movement phase of a game going on is held`);
      if (!phase.orders || phase.results !== null || phase.events !== null || phase.disbanded !== null || phase.stateAfter !== null) {
        throw invalid(`${label}: a held phase has its orders, and no results, events, disbanded units or state after yet`);
      }
      const orders = phase.orders.map((o) => ({ power: o.power, order: o.order }));
      const decided = checkDecided(label, position, orders, phase.decided ?? []);
      const adjudicated = adjudicate(variant, position, orders, decided.length > 0 ? { decided } : undefined);
      if (!adjudicated.ok) throw invalid(`${label}.orders: the engine cannot adjudicate them: ${adjudicated.error.join('; ')}`);
      const awaiting = phase.awaiting ?? [];
      const waived = phase.waived ?? [];
      if (awaiting.length === 0) throw invalid(`${label}.awaiting: a held phase awaits at least one sea (with none left it is processed)`);
      const named = [...decided, ...waived, ...awaiting].map((sea) => sea.province);
      const twice = named.find((province, k) => named.indexOf(province) !== k);
      if (twice) throw invalid(`${label}: ${twice} is listed twice among its decided, waived and awaited seas`);
      // A sea the decisions so far make contested anew is not listed: it is added when the others are settled, as ever.
      const seas = heldPhaseSeas(variant, position, orders, decided);
      const unknown = [...waived, ...awaiting].find((sea) => !seas.find(sea.province));
      if (unknown) throw invalid(`${label}: no fleets of two powers met in ${unknown.province}`);
      for (const sea of awaiting) if (sea.sides) checkSides(label, campaign, seas.find(sea.province)!, sea.sides);
      checkBattles(label, i, position, orders, phase.decided ?? []);
      return;
    }
    if (!phase.orders || !phase.results || !phase.events || !phase.disbanded || !phase.stateAfter) {
      throw invalid(`${label}: a processed phase needs its orders, results, events, disbanded units and state after`);
    }
    const orders = phase.orders.map((o) => ({ power: o.power, order: o.order }));
    // A campaign phase's decided seas: adjudicated with them, as it was played.
    const decided = checkDecided(label, position, orders, phase.decided ?? []);
    checkBattles(label, i, position, orders, phase.decided ?? []);
    const outcomeOfEngine = adjudicate(variant, position, orders, decided.length > 0 ? { decided } : undefined);
    if (!outcomeOfEngine.ok) throw invalid(`${label}: the engine cannot adjudicate it: ${outcomeOfEngine.error.join('; ')}`);
    const { results, events, disbanded, next } = outcomeOfEngine.value;
    const recordedVersion = phase.engineVersion ?? null;
    // An older engine may have worded a result differently: compared as this engine words it (kept as recorded).
    const problem =
      firstDifference(`${label}.results`, resultsAsNow(phase.results, recordedVersion), results) ??
      firstDifference(`${label}.events`, phase.events, events) ??
      firstDifference(`${label}.disbanded`, phase.disbanded, disbanded) ??
      firstDifference(`${label}.stateAfter`, parseState(phase.stateAfter), next);
    if (recordedVersion !== ENGINE_VERSION) {
      if (problem) {
        const recorded = recordedVersion === null ? 'an unknown engine version (the export does not say)' : `engine version ${recordedVersion}`;
        throw unprocessable(
          'engine_version_mismatch',
          `${label} was adjudicated by ${recorded}; this server runs engine version ${ENGINE_VERSION}, which adjudicates it differently ` +
            `(${problem}). Import it on a server running the engine version it was played with.`,
        );
      }
      rechecked.push({ phase: i, recordedVersion });
    } else if (problem && decided.length > 0) {
      const seas = decided.map((sea) => `${sea.province} ${'winner' in sea.outcome ? `won by ${sea.outcome.winner}` : 'a standoff'}`).join(', ');
      throw invalid(`${label}: adjudicated with its decided seas (${seas}), it does not give its recorded results: ${problem}`);
    } else if (problem) {
      throw invalid(`does not reproduce: ${problem}`);
    }
    previousAfter = next;
  });

  const lastPhase = phases[phases.length - 1];
  if (outcome?.kind === 'victory') {
    const winners = parseState(lastPhase.stateAfter).winners ?? [];
    if (canonical([...winners].sort()) !== canonical([...outcome.powers].sort()))
      throw invalid(`game.outcome: the engine's winners are ${winners.join(', ') || 'none'}`);
  } else if (outcome) {
    const alive = survivors(variant, applyLoanActions(variant, parseState(lastPhase.stateBefore), lastPhase.loanActions));
    const expected = outcome.kind === 'draw' ? alive : outcome.powers;
    if (outcome.kind === 'concession' && (outcome.powers.length !== 1 || !alive.includes(outcome.powers[0]))) {
      throw invalid('game.outcome: a concession names one surviving power');
    }
    // A draw the players vote for is shared by every survivor; the game master may end the game as a draw among some
    // of them (the log's last ending or re-opening is the game master's ending; later entries, e.g. imports, do not count).
    const declared =
      outcome.kind === 'draw' && data.gmLog.findLast((entry) => entry.action === 'end-game' || entry.action === 'rollback')?.action === 'end-game';
    if (declared) {
      if (outcome.powers.length === 0 || !outcome.powers.every((power) => alive.includes(power))) {
        throw invalid(`game.outcome: the game master's draw is shared by surviving powers (${alive.join(', ')})`);
      }
    } else if (canonical([...expected].sort()) !== canonical([...outcome.powers].sort()))
      throw invalid(`game.outcome: a draw is shared by the survivors (${alive.join(', ')})`);
  }

  for (const [i, phase] of [...data.phases, ...data.discardedPhases].entries()) {
    const unknown = phase.submissions.find((submission) => !powers.includes(submission.power));
    if (unknown) throw invalid(`phases[${i}].submissions: "${unknown.power}" is not a power of the game`);
  }
  for (const [i, message] of data.press.entries()) {
    if (message.fromPower !== null && !powers.includes(message.fromPower))
      throw invalid(`press[${i}].fromPower: "${message.fromPower}" is not a power of the game`);
    // GAME_MASTER_RECIPIENT: a message to the game master.
    if (message.to !== 'all' && !message.to.every((power) => power === GAME_MASTER_RECIPIENT || powers.includes(power)))
      throw invalid(`press[${i}].to: names a power not in the game`);
    if (message.phaseIndex !== null && (message.phaseIndex < 0 || message.phaseIndex >= phases.length)) throw invalid(`press[${i}].phaseIndex: no such phase`);
  }
  for (const [i, loan] of data.loans.entries()) {
    if (!powers.includes(loan.lender) || !powers.includes(loan.borrower)) throw invalid(`loans[${i}]: names a power not in the game`);
  }
  for (const [i, vote] of data.votes.entries()) {
    if (!powers.includes(vote.power) || !vote.powers.every((power) => powers.includes(power))) throw invalid(`votes[${i}]: names a power not in the game`);
  }
  for (const [i, phase] of data.discardedPhases.entries()) {
    if (phase.rollback >= data.gmLog.length) throw invalid(`discardedPhases[${i}].rollback: no such entry in gmLog`);
  }
  return { variant, rechecked, battles };
}

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * A log entry copied from the export: marked imported, with who acted and the names it gave kept apart, as
 * the exported game's (an entry the exporting server had itself imported keeps its own origin). `importedActor`:
 * where this server kept the actor before.
 */
function importedLogDetails(entry: ExportedGame['gmLog'][number]): JsonObject {
  const { users, [EXPORTED_NAMES_KEY]: earlier, [IMPORTED_ENTRY_KEY]: _imported, importedActor, ...details } = entry.details;
  const origin: ExportedOrigin = {
    actor: entry.actor ?? text(record(earlier)?.actor) ?? text(importedActor),
    users: record(users) ?? record(record(earlier)?.users),
  };
  // Details are JSON (they came in a JSON body), typed so by the log's own schema (db/tables/gm-log.ts).
  return JsonObjectSchema.parse({ ...details, [IMPORTED_ENTRY_KEY]: true, [EXPORTED_NAMES_KEY]: origin });
}

/** What the engine made of an exported phase, as the phases' repository keeps it (orders without their text). */
function engineRecord(phase: ExportedGame['phases'][number] | ExportedGame['discardedPhases'][number]) {
  return {
    stateBefore: phase.stateBefore,
    loanActions: phase.loanActions,
    orders: phase.orders?.map((o) => ({ power: o.power, order: o.order })),
    results: phase.results,
    events: phase.events,
    disbanded: phase.disbanded,
    stateAfter: phase.stateAfter,
  };
}

/** What storing an imported campaign phase's seas needs besides the phase. */
type SeaImport = { battles: ReplayedBattles; campaign: ExportedGame['game']['campaign']; createdById: string; private: boolean; now: Date };

/**
 * The seas of an imported campaign phase, as the engine lists them adjudicated with its decisions (checked by
 * verifyExport): the decided ones with their outcome (and who decided, when the export says), each with its battle
 * (replayed by verifyExport) stored as a finished imported battle and linked, as the exported game linked it.
 * A processed phase's other seas were waived to the ordinary rules. A held phase's seas are as exported: decided,
 * waived, or awaited, which wait again undecided with the campaign's whole time for their battles from the import.
 */
async function storeSeas(tx: Transaction, variant: Variant, gameId: string, phaseId: string, phase: ExportedGame['phases'][number], env: SeaImport) {
  const decided = phase.decided ?? [];
  const position = applyLoanActions(variant, parseState(phase.stateBefore), phase.loanActions);
  const orders = (phase.orders ?? []).map((o) => ({ power: o.power, order: o.order }));
  const held = phase.status === 'held';
  const listed = contestedSeas(variant, position, orders, { decided });
  if (!listed.ok) throw invalid(`phases[${phase.index}] (${phase.name}).decided: the engine refuses these decided seas: ${listed.error.join('; ')}`);
  const find = heldPhaseSeas(variant, position, orders, decided).find;
  const waived = new Set((phase.waived ?? []).map((sea) => sea.province));
  const awaiting = phase.awaiting ?? [];
  const seas = held
    ? [...decided.map((sea) => sea.province), ...waived, ...awaiting.map((sea) => sea.province)].map((province) => find(province)!)
    : listed.value;
  const at = phase.processedAt ? new Date(phase.processedAt) : phase.heldAt ? new Date(phase.heldAt) : env.now;
  const deadlineAt = new Date(env.now.getTime() + (env.campaign?.battleHours ?? 0) * 3_600_000);
  for (const [k, sea] of seas.entries()) {
    const decision = decided.find((d) => d.province === sea.province);
    const waits = awaiting.find((d) => d.province === sea.province);
    const contested = { province: sea.province, name: sea.name, powers: sea.powers, units: sea.units, supports: sea.supports };
    const replayed = env.battles.get(`${phase.index}:${sea.province}`);
    const battleId =
      decision?.battle && replayed
        ? await storeSeaBattle(tx, decision.battle, replayed, {
            by: decision.by === 'computer' ? 'computer' : 'battle',
            at,
            createdById: env.createdById,
            private: env.private,
          })
        : null;
    const sides = decision?.sides ?? waits?.sides ?? null;
    const status = decision ? 'decided' : waits ? 'undecided' : 'waived';
    await tx.seaBattle.create({
      data: {
        gameId,
        phaseId,
        sea: sea.province,
        ...seaBattleValues({ contested, outcome: decision?.outcome ?? null, sides }),
        status,
        battleId,
        decidedBy: decision ? (decision.by ?? null) : status === 'waived' ? 'game-master' : null,
        decidedAt: status === 'undecided' ? null : at,
        deadlineAt: status === 'undecided' ? deadlineAt : null,
        // In the order they were decided: the order the engine takes the decisions in (process.ts acceptedDecisions).
        createdAt: new Date(at.getTime() + k),
      },
    });
  }
}

export async function importGame(app: FastifyInstance, user: Auth['user'], request: z.output<typeof ImportGameRequestSchema>) {
  const data = request.export;
  const now = new Date();
  checkDates(data, now);
  const { variant, rechecked, battles } = verifyExport(data);
  const gameId = await app.prisma.$transaction(async (tx) => {
    const settings = data.game;
    const game = await tx.game.create({
      data: {
        name: settings.name,
        variantId: variant.id,
        status: settings.status,
        createdById: user.id,
        gameMasterId: user.id,
        movementDeadlineSeconds: settings.deadlines.movement,
        retreatDeadlineSeconds: settings.deadlines.retreat,
        adjustmentDeadlineSeconds: settings.deadlines.adjustment,
        pressKind: settings.press,
        anonymous: settings.anonymous,
        private: request.private,
        inviteCode: request.private ? randomUUID().replaceAll('-', '').slice(0, 16) : null,
        maxMissedDeadlines: settings.maxMissedDeadlines,
        powerAssignment: settings.powerAssignment,
        rules: settings.rules,
        autoStart: false,
        seats: variant.powers.length,
        ...gameValues({ outcome: settings.outcome, campaign: settings.campaign ?? null }),
        createdAt: new Date(settings.createdAt),
        startedAt: settings.startedAt ? new Date(settings.startedAt) : now,
        finishedAt: settings.finishedAt ? new Date(settings.finishedAt) : settings.status === 'finished' ? now : null,
        // A finished game's export holds all its secrets already (complete): its result is final here from the start.
        finalAt: settings.status === 'finished' ? now : null,
        importedAt: now,
      },
    });
    for (const player of data.players) {
      // Vacant seats: in civil disorder until the game master hands them to someone (eliminated stays eliminated).
      const status = player.status === 'eliminated' ? 'eliminated' : 'civil_disorder';
      await tx.player.create({ data: { gameId: game.id, userId: null, power: player.power, status, missedDeadlines: player.missedDeadlines } });
    }
    const phaseIds: string[] = [];
    for (const phase of data.phases) {
      const open = phase.status === 'open';
      const created = await tx.phase.create({
        data: {
          gameId: game.id,
          index: phase.index,
          name: phase.name,
          kind: phase.kind,
          status: phase.status,
          ...phaseValues(engineRecord(phase)),
          // As recorded: the version that adjudicated it (it also reproduces under this one, checked above).
          engineVersion: phase.status === 'processed' ? (phase.engineVersion ?? null) : null,
          // An open phase gets a fresh clock here (none once the game is over).
          deadlineAt: open
            ? settings.status === 'active'
              ? new Date(now.getTime() + deadlineSeconds(game, phase.kind) * 1000)
              : null
            : phase.deadlineAt
              ? new Date(phase.deadlineAt)
              : null,
          processedAt: phase.processedAt ? new Date(phase.processedAt) : null,
          heldAt: phase.status === 'held' ? new Date(phase.heldAt ?? now) : null,
        },
      });
      phaseIds.push(created.id);
      if ((phase.decided && phase.decided.length > 0) || phase.status === 'held') {
        await storeSeas(tx, variant, game.id, created.id, phase, { battles, campaign: settings.campaign, createdById: user.id, private: request.private, now });
      }
      for (const submission of phase.submissions) {
        await tx.orderSubmission.create({
          data: {
            gameId: game.id,
            phaseId: created.id,
            power: submission.power,
            submittedById: null,
            byGameMaster: submission.byGameMaster,
            text: submission.text,
            ...submissionValues({ orders: submission.orders }),
            ready: submission.ready,
            createdAt: new Date(submission.submittedAt),
          },
        });
      }
    }
    for (const message of data.press) {
      await tx.pressMessage.create({
        data: {
          gameId: game.id,
          phaseId: message.phaseIndex === null ? null : phaseIds[message.phaseIndex],
          senderPower: message.fromPower,
          senderUserId: null,
          public: message.to === 'all',
          recipients: message.to === 'all' ? [] : message.to,
          body: message.body,
          createdAt: new Date(message.sentAt),
        },
      });
    }
    for (const loan of data.loans) {
      await tx.loan.create({
        data: {
          gameId: game.id,
          lenderPower: loan.lender,
          borrowerPower: loan.borrower,
          centre: loan.centre,
          status: loan.status,
          startedInPhase: loan.startedInPhase,
          endedInPhase: loan.endedInPhase,
          endReason: loan.endReason,
          createdAt: new Date(loan.createdAt),
        },
      });
    }
    const lastPhase = data.phases[data.phases.length - 1];
    const current =
      lastPhase.status !== 'processed' ? applyLoanActions(variant, parseState(lastPhase.stateBefore), lastPhase.loanActions) : parseState(lastPhase.stateAfter);
    await syncLoans(tx, game.id, lastPhase.index, current.loans, 'not in the imported position');
    if (settings.status === 'active') {
      for (const vote of data.votes) {
        await tx.drawVote.create({ data: { gameId: game.id, power: vote.power, kind: vote.kind, powers: vote.powers, phaseIndex: vote.phaseIndex } });
      }
    }
    const logIds: string[] = [];
    for (const entry of data.gmLog) {
      const row = await tx.gameMasterAction.create({
        data: {
          gameId: game.id,
          actorUserId: null,
          action: entry.action,
          ...gmActionValues({ details: importedLogDetails(entry) }),
          createdAt: new Date(entry.at),
        },
      });
      logIds.push(row.id);
    }
    for (const phase of data.discardedPhases) {
      await tx.discardedPhase.create({
        data: {
          gameId: game.id,
          gmActionId: logIds[phase.rollback],
          index: phase.index,
          name: phase.name,
          kind: phase.kind,
          ...discardedPhaseValues({ ...engineRecord(phase), submissions: phase.submissions }),
          engineVersion: phase.engineVersion ?? null,
          deadlineAt: phase.deadlineAt ? new Date(phase.deadlineAt) : null,
          processedAt: phase.processedAt ? new Date(phase.processedAt) : null,
          discardedAt: new Date(phase.discardedAt),
        },
      });
    }
    await tx.gameMasterAction.create({
      data: {
        gameId: game.id,
        actorUserId: user.id,
        action: 'import' satisfies GmActionKind,
        ...gmActionValues({
          details: {
            exportedAt: data.exportedAt,
            complete: data.complete,
            phases: data.phases.length,
            // Battles replayed from the export and stored, each linked to the sea it decided.
            ...(battles.size > 0 ? { battles: battles.size } : {}),
            // Phases recorded under another engine version (or none), which this server's engine re-adjudicated identically.
            engineVersions: { server: ENGINE_VERSION, exporter: data.engineVersion ?? null, rechecked },
            // The exported game's names: users of another server, not this one's.
            [EXPORTED_NAMES_KEY]: {
              actor: null,
              users: { gameMaster: data.gameMaster, players: Object.fromEntries(data.players.map((player) => [player.power, player.username])) },
            } satisfies ExportedOrigin,
          },
        }),
      },
    });
    return game.id;
  });
  return readGame(app.prisma, user, gameId);
}
