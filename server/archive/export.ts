/**
 * Exports: a game as one JSON document (ExportedGameSchema, re-importable),
 * and its processed phases as DATC text cases that `npm run -s datc -- FILE`
 * re-checks. Both obey the visibility rules: for a game still going on, the
 * open phase's orders and other powers' private press are left out, and user
 * names only appear where the game shows them to the exporter.
 */
import { ENGINE_VERSION, formatOrder, phaseToDatcCase, type Rulebook, type SubmittedOrder } from '../../shared/index.ts';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportedGame, type ExportedPhase } from '../../shared/api/archive.ts';
import type { GameOutcome } from '../../shared/api/games.ts';
import type { Db } from '../db/database.ts';
import { conflict } from '../errors.ts';
import { viewableGame, type GameContext, type Viewer } from '../play/context.ts';
import { loanActionsOf, parseState, playerStatusOnWire, positionOf, type PhaseRow, type StoredOrder } from '../play/phases.ts';
import { readablePress } from '../press/service.ts';

function requireStarted(context: GameContext): void {
  if (context.game.status !== 'active' && context.game.status !== 'finished') {
    throw conflict('game_not_active', `the game is ${context.game.status}: only started games have a history to export`);
  }
}

function phaseRecord(phase: PhaseRow, submissions: ExportedPhase['submissions']): Omit<ExportedPhase, 'status'> {
  const processed = phase.status === 'processed';
  const orders = processed ? ((phase.orders ?? []) as StoredOrder[]) : null;
  return {
    index: phase.index,
    name: phase.name,
    kind: phase.kind,
    deadlineAt: phase.deadlineAt?.toISOString() ?? null,
    processedAt: phase.processedAt?.toISOString() ?? null,
    stateBefore: parseState(phase.stateBefore),
    loanActions: loanActionsOf(phase),
    orders: orders && orders.map((o) => ({ power: o.power, order: o.order, text: formatOrder(o.order) })),
    results: processed ? (phase.results as ExportedPhase['results']) : null,
    events: processed ? (phase.events as ExportedPhase['events']) : null,
    disbanded: processed ? (phase.disbanded as ExportedPhase['disbanded']) : null,
    stateAfter: processed && phase.stateAfter ? parseState(phase.stateAfter) : null,
    submissions: processed ? submissions : [],
    engineVersion: processed ? phase.engineVersion : null,
  };
}

export async function exportGame(db: Db, viewer: Viewer, gameId: string): Promise<ExportedGame> {
  const context = await viewableGame(db, gameId, viewer);
  requireStarted(context);
  const { game } = context;
  const name = (user: { username: string } | null | undefined) => (user && context.revealNames ? user.username : null);

  const phases = await db.phase.findMany({ where: { gameId }, orderBy: { index: 'asc' } });
  const submissions = await db.orderSubmission.findMany({ where: { gameId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const byPhase = new Map<string, ExportedPhase['submissions']>();
  for (const row of submissions) {
    const list = byPhase.get(row.phaseId) ?? [];
    list.push({
      power: row.power,
      text: row.text,
      orders: row.orders as ExportedPhase['submissions'][number]['orders'],
      ready: row.ready,
      byGameMaster: row.byGameMaster,
      submittedAt: row.createdAt.toISOString(),
    });
    byPhase.set(row.phaseId, list);
  }
  const indexOfPhase = new Map(phases.map((phase) => [phase.id, phase.index]));

  const press = await db.pressMessage.findMany({
    where: { AND: [{ gameId }, readablePress(context)] },
    include: { senderUser: { select: { username: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const loans = await db.loan.findMany({ where: { gameId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const votes = await db.drawVote.findMany({ where: { gameId }, orderBy: { createdAt: 'asc' } });
  const log = await db.gameMasterAction.findMany({
    where: { gameId },
    include: { actor: { select: { username: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const logIndex = new Map(log.map((row, i) => [row.id, i]));
  const discarded = await db.discardedPhase.findMany({ where: { gameId }, orderBy: [{ discardedAt: 'asc' }, { index: 'asc' }] });

  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    engineVersion: ENGINE_VERSION,
    complete: game.status === 'finished',
    game: {
      name: game.name,
      variant: game.variantId as ExportedGame['game']['variant'],
      status: game.status as 'active' | 'finished',
      press: game.pressKind,
      anonymous: game.anonymous,
      deadlines: { movement: game.movementDeadlineSeconds, retreat: game.retreatDeadlineSeconds, adjustment: game.adjustmentDeadlineSeconds },
      maxMissedDeadlines: game.maxMissedDeadlines,
      powerAssignment: game.powerAssignment,
      rules: game.rules as Rulebook,
      createdAt: game.createdAt.toISOString(),
      startedAt: game.startedAt?.toISOString() ?? null,
      finishedAt: game.finishedAt?.toISOString() ?? null,
      pausedAt: game.pausedAt?.toISOString() ?? null,
      outcome: (game.outcome as GameOutcome | null) ?? null,
    },
    // The game master is named on the game for everyone.
    gameMaster: game.gameMaster.username,
    players: game.players
      .filter((seat) => seat.power)
      .map((seat) => ({
        power: seat.power!,
        username: seat.userId === viewer?.id ? (seat.user?.username ?? null) : name(seat.user),
        status: playerStatusOnWire(seat.status),
        missedDeadlines: seat.missedDeadlines,
      })),
    phases: phases.map((phase) => ({ ...phaseRecord(phase, byPhase.get(phase.id) ?? []), status: phase.status })),
    press: press.map((row) => ({
      phaseIndex: row.phaseId ? (indexOfPhase.get(row.phaseId) ?? null) : null,
      fromPower: row.senderPower,
      gameMaster: row.senderPower === null,
      sender: row.senderPower === null ? (row.senderUser?.username ?? null) : row.senderUserId === viewer?.id ? (row.senderUser?.username ?? null) : name(row.senderUser),
      to: row.public ? 'all' : row.recipients,
      body: row.body,
      sentAt: row.createdAt.toISOString(),
    })),
    loans: loans.map((row) => ({
      centre: row.centre,
      lender: row.lenderPower,
      borrower: row.borrowerPower,
      status: row.status,
      startedInPhase: row.startedInPhase,
      endedInPhase: row.endedInPhase,
      endReason: row.endReason,
      createdAt: row.createdAt.toISOString(),
    })),
    votes: votes.map((row) => ({ power: row.power, kind: row.kind, powers: row.powers, phaseIndex: row.phaseIndex })),
    gmLog: log.map((row) => {
      const details = { ...(row.details as Record<string, unknown>) };
      if (!context.revealNames) delete details.users;
      return { action: row.action, actor: row.actor?.username ?? null, details, at: row.createdAt.toISOString() };
    }),
    discardedPhases: discarded
      .filter((row) => logIndex.has(row.gmActionId))
      .map((row) => ({
        ...phaseRecord(
          { ...row, status: row.processedAt ? 'processed' : 'open', createdAt: row.discardedAt, id: row.id } as unknown as PhaseRow,
          row.submissions as ExportedPhase['submissions'],
        ),
        rollback: logIndex.get(row.gmActionId)!,
        discardedAt: row.discardedAt.toISOString(),
      })),
  };
}

/** The processed phases as DATC text cases, from each phase's adjudicated position to the recorded one after. */
export async function exportDatc(db: Db, viewer: Viewer, gameId: string): Promise<string> {
  const context = await viewableGame(db, gameId, viewer);
  requireStarted(context);
  const phases = await db.phase.findMany({ where: { gameId, status: 'processed' }, orderBy: { index: 'asc' } });
  const header = `# ${context.game.name} (${context.variant.name}): ${phases.length} processed phases, exported ${new Date().toISOString()}\n`;
  const cases = phases.map((phase) => {
    const orders: SubmittedOrder[] = ((phase.orders ?? []) as StoredOrder[]).map((o) => ({ power: o.power, order: o.order }));
    return phaseToDatcCase(
      context.variant,
      `G${phase.index}`,
      `${context.game.name}: ${phase.name}`.replace(/\s+/g, ' '),
      // Loans made during the phase are part of the position it was adjudicated from.
      positionOf(context.variant, phase),
      orders,
      parseState(phase.stateAfter),
    );
  });
  return header + cases.join('\n');
}
