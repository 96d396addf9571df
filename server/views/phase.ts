/**
 * A phase as a viewer may see it: its reference and summary, its page (position, supply table, who has submitted
 * and is ready), and its record in an export. What processing recorded — every power's orders and submissions, the
 * results, the position after — only once the phase is processed (access/policy.ts `adjudicationIsPublic`).
 * And a seat's standing as the wire words it, in a phase's table and in live events.
 */
import { formatOrder, powerSummary, powersToOrder, resultsAsNow } from '../../shared/index.ts';
import type { ExportedPhase } from '../../shared/api/archive.ts';
import type { PhaseRef } from '../../shared/api/games.ts';
import type { LiveEvent } from '../../shared/api/live.ts';
import type { PhaseDetail, PhaseSummary } from '../../shared/api/play.ts';
import { adjudicationIsPublic, ordersArePublic } from '../access/policy.ts';
import type { Db } from '../db/database.ts';
import type { PhaseRecord, SubmissionRecord } from '../db/tables/phases.ts';
import type { GameContext } from '../play/context.ts';
import { latestSubmissions, positionOf } from '../play/phases.ts';
import { viewed } from './viewed.ts';
import { seaBattleOf } from '../db/tables/sea-battles.ts';
import { seaBattleView } from './sea-battle.ts';

type PlayerStatus = 'active' | 'civil_disorder' | 'eliminated';

export function playerStatusOnWire(status: PlayerStatus): 'active' | 'civil-disorder' | 'eliminated' {
  return status === 'civil_disorder' ? 'civil-disorder' : status;
}

/** A seat's standing changed (missed deadlines, civil disorder, elimination, a new player), as its live event says it: never who plays it. */
export function playerStatusEvent(
  gameId: string,
  seat: { power: string; userId: string | null },
  status: PlayerStatus,
  missedDeadlines: number,
  replaced = false,
): Extract<LiveEvent, { type: 'player.status' }> {
  // A seat nobody holds has no player to have a standing.
  return { type: 'player.status', gameId, power: seat.power, status: seat.userId === null ? null : playerStatusOnWire(status), missedDeadlines, replaced };
}

export function phaseRef(phase: Pick<PhaseRecord, 'index' | 'name' | 'kind' | 'deadlineAt'>): PhaseRef {
  return { index: phase.index, name: phase.name, kind: phase.kind, deadlineAt: phase.deadlineAt?.toISOString() ?? null };
}

export function phaseSummary(phase: Pick<PhaseRecord, 'index' | 'name' | 'kind' | 'deadlineAt' | 'status' | 'processedAt' | 'engineVersion'>): PhaseSummary {
  return { ...phaseRef(phase), status: phase.status, processedAt: phase.processedAt?.toISOString() ?? null, engineVersion: phase.engineVersion };
}

/** A game's phases, oldest first. */
export function phaseListView(phases: Parameters<typeof phaseSummary>[0][]) {
  return viewed({ phases: phases.map(phaseSummary) });
}

/** What processing recorded, as recorded: everyone's once the phase is processed, nothing before. */
function adjudication(phase: PhaseRecord) {
  const orders = ordersArePublic(phase) ? (phase.orders ?? []).map((o) => ({ power: o.power, order: o.order, text: formatOrder(o.order) })) : null;
  // Held for its contested seas: the orders are final and shown, the results wait for the battles.
  if (!adjudicationIsPublic(phase)) return { orders, results: null, events: null, disbanded: null, stateAfter: null };
  return {
    orders,
    results: phase.results ?? [],
    events: phase.events ?? [],
    disbanded: phase.disbanded ?? [],
    stateAfter: phase.stateAfter,
  };
}

/** Everything about a phase that this viewer may see (orders and results only once processed). */
export async function phaseDetail(db: Db, context: GameContext, phase: PhaseRecord): Promise<PhaseDetail> {
  const { variant } = context;
  const state = positionOf(variant, phase);
  const latest = await latestSubmissions(db, phase.id);
  const mustOrder = new Set(powersToOrder(variant, state));
  const recorded = adjudication(phase);
  return viewed({
    ...phaseSummary(phase),
    paused: phase.status === 'open' && context.game.pausedAt !== null,
    stateBefore: phase.stateBefore,
    loanActions: phase.loanActions,
    state,
    supply: powerSummary(variant, state),
    powers: variant.powers.map((power) => {
      const seat = context.game.players.find((player) => player.power === power);
      const submission = latest.get(power);
      return {
        power,
        playerStatus: !seat || seat.userId === null ? null : playerStatusOnWire(seat.status),
        mustOrder: mustOrder.has(power),
        submitted: submission !== undefined,
        ready: submission?.ready ?? false,
        missedDeadlines: seat?.missedDeadlines ?? 0,
      };
    }),
    ...recorded,
    // As this engine writes results, whichever engine recorded them (shared/phases/results-then.ts).
    results: recorded.results && resultsAsNow(recorded.results, phase.engineVersion),
    seas: await phaseSeas(db, context, phase),
  });
}

/** A campaign phase's contested seas, once its orders are final (a phase rolled back and open again has none yet). */
async function phaseSeas(db: Db, context: GameContext, phase: PhaseRecord) {
  if (!context.game.campaign || phase.status === 'open') return [];
  const rows = await db.seaBattle.findMany({ where: { phaseId: phase.id }, orderBy: { createdAt: 'asc' } });
  return rows.map((row) => seaBattleView(seaBattleOf(row), context.game));
}

/** A phase in an export: as recorded (results in the words of the engine that adjudicated it), its submissions once processed. */
export function phaseRecordView(phase: PhaseRecord, submissions: SubmissionRecord[]): Omit<ExportedPhase, 'status'> {
  const shown = adjudicationIsPublic(phase);
  return {
    index: phase.index,
    name: phase.name,
    kind: phase.kind,
    deadlineAt: phase.deadlineAt?.toISOString() ?? null,
    processedAt: phase.processedAt?.toISOString() ?? null,
    stateBefore: phase.stateBefore,
    loanActions: phase.loanActions,
    ...adjudication(phase),
    submissions: shown ? submissions : [],
    engineVersion: shown ? phase.engineVersion : null,
  };
}
