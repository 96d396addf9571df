/**
 * Exports: a game as one JSON document (ExportedGameSchema, re-importable),
 * and its processed phases as DATC text cases that `npm run -s datc -- FILE`
 * re-checks. Both obey the visibility rules: for a game still going on, the
 * open phase's orders and other powers' private press are left out, and user
 * names only appear where the game shows them to the exporter.
 *
 * Both are written as they are read, a page of rows at a time (EXPORT_LIMITS),
 * each page once the reader has taken the last: memory per export stays small
 * whatever the game's size, and no transaction is held open for a slow reader.
 * The list of phases (and whether each was processed) is fixed when the export
 * starts, and the other lists stop at that moment: a phase processed meanwhile
 * is written as it was then. A phase rolled back meanwhile cannot be: the
 * export stops there, unfinished (a document that does not parse).
 *
 * A campaign game's phases carry their decided seas, each with the record of the
 * battle that decided it (views/battle.ts: finished, so whole and with its seed,
 * naming nobody), and a phase held for its battles its seas waived and awaited as
 * they were when the export began (a battle still being fought is not exported).
 *
 * The document is exactly what writing the whole of it through its schema
 * gives (JSON.stringify of `z.encode(ExportedGameSchema, game)`): each piece is
 * encoded with its part of that schema, fields in the schema's order.
 */
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { ENGINE_VERSION, phaseToDatcCase, type SubmittedOrder } from '../../shared/index.ts';
import { EXPORT_FORMAT, EXPORT_LIMITS, EXPORT_VERSION, ExportEncoding, type ExportedGame } from '../../shared/api/archive.ts';
import type { Db, Prisma } from '../db/database.ts';
import { conflict } from '../errors.ts';
import { isFinal } from '../access/policy.ts';
import { viewableGame, type GameContext, type Viewer } from '../play/context.ts';
import { positionOf } from '../play/phases.ts';
import { acceptedDecisions } from '../play/process.ts';
import { seaBattleOf, type SeaBattleRow } from '../db/tables/sea-battles.ts';
import { discardedPhaseOf, phaseOf, type PhaseRecord, type PhaseRow } from '../db/tables/phases.ts';
import { readActions, readBattle, seedOf } from '../db/tables/battles.ts';
import type { BattleRecord } from '../../shared/naval/record.ts';
import { mayViewBattle } from '../access/battle-policy.ts';
import { battleRecordView } from '../views/battle.ts';
import { submissionOf } from '../db/tables/submissions.ts';
import { gmActionOf } from '../db/tables/gm-log.ts';
import { storedDataInvalid } from '../db/tables/stored.ts';
import { gameSummaryView, seatsView } from '../views/game.ts';
import { phaseRecordView } from '../views/phase.ts';
import { submissionRecord } from '../views/submission.ts';
import { loanRecord } from '../views/loan.ts';
import { voteRecord } from '../views/votes.ts';
import { pressInclude, pressMessageView, readablePress } from '../views/press.ts';
import { gmLogDetails } from '../views/gm-action.ts';
import { viewed } from '../views/viewed.ts';
import { streamOf } from './stream.ts';

function requireStarted(context: GameContext): void {
  if (context.game.status !== 'active' && context.game.status !== 'finished') {
    throw conflict('game_not_active', `the game is ${context.game.status}: only started games have a history to export`);
  }
}

/** The game as the viewer may export it: 404 when they may not see it, 409 before it has started. */
export async function exportContext(db: Db, viewer: Viewer, gameId: string): Promise<GameContext> {
  const context = await viewableGame(db, gameId, viewer);
  requireStarted(context);
  return context;
}

class ChangedWhileExported extends Error {
  constructor(what: string) {
    super(`the game changed while it was exported (${what}); export it again`);
  }
}

type Shape = Record<string, z.ZodType>;

/** JSON text of `value` as `schema` writes it (what Fastify's zod serializer did with the whole document). */
function encoded(schema: z.ZodType, value: unknown): string {
  return JSON.stringify(z.encode(schema, value as never));
}

/**
 * Pages of a list: each entry is its JSON text, or pieces of it (an entry with a
 * list of its own, written as it is read).
 */
type Pages = AsyncIterable<(string | AsyncIterable<string>)[]>;

/**
 * An object as JSON.stringify writes it, fields in the order of `shape`: the
 * fields in `lists` are written page by page, the others from `encodedFields`
 * (already encoded; undefined ones are left out, as JSON.stringify does).
 */
async function* jsonObject(shape: Shape, encodedFields: Record<string, unknown>, lists: Record<string, () => Pages>): AsyncGenerator<string> {
  let opened = false;
  const key = (name: string) => {
    const text = `${opened ? ',' : '{'}${JSON.stringify(name)}:`;
    opened = true;
    return text;
  };
  for (const name of Object.keys(shape)) {
    const list = lists[name];
    if (list) {
      let text = `${key(name)}[`;
      let first = true;
      for await (const page of list()) {
        for (const entry of page) {
          const comma = first ? '' : ',';
          first = false;
          if (typeof entry === 'string') {
            text += comma + entry;
          } else {
            yield text + comma;
            text = '';
            yield* entry;
          }
        }
        if (text) yield text;
        text = '';
      }
      yield `${text}]`;
    } else if (encodedFields[name] !== undefined) {
      yield `${key(name)}${JSON.stringify(encodedFields[name])}`;
    }
  }
  yield opened ? '}' : '{}';
}

/** Rows after `cursor` in (createdAt, id) order. */
function after(cursor: { createdAt: Date; id: string } | null) {
  return cursor ? { OR: [{ createdAt: { gt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { gt: cursor.id } }] } : {};
}

/** Pages of rows in (createdAt, id) order, `size` at a time. */
async function* pagesOf<Row extends { createdAt: Date; id: string }>(
  size: number,
  read: (cursor: ReturnType<typeof after>, take: number) => Promise<Row[]>,
): AsyncGenerator<Row[]> {
  let cursor: Row | null = null;
  for (;;) {
    const rows = await read(after(cursor), size);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    cursor = rows[rows.length - 1];
  }
}

/**
 * The game as JSON text, in pieces. `context` from exportContext. Reads a page
 * only when the last has been taken.
 */
export async function* exportGame(db: Db, context: GameContext): AsyncGenerator<string> {
  const { game } = context;
  const gameId = game.id;
  const exportedAt = new Date();
  const until = { lte: exportedAt };
  const schemas = ExportEncoding;

  // Fixed now: the phases to export and whether each is processed.
  const phases = await db.phase.findMany({ where: { gameId }, select: { id: true, index: true, status: true }, orderBy: { index: 'asc' } });
  const indexOfPhase = new Map(phases.map((phase) => [phase.id, phase.index]));
  // Log entries the discarded phases refer to: their place in the log is their `rollback`.
  const referenced = await db.discardedPhase.findMany({ where: { gameId, discardedAt: until }, select: { gmActionId: true }, distinct: ['gmActionId'] });
  const logIndex = new Map<string, number>(referenced.map((row) => [row.gmActionId, -1]));

  // The game and its players as the exporter sees them in the game (views/game.ts).
  const summary = gameSummaryView(game, context.viewer);
  const header = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    engineVersion: ENGINE_VERSION,
    // Nothing was left out only once the result is final: until then an ended game keeps its secrets.
    complete: isFinal(game),
    game: {
      name: summary.name,
      variant: summary.variant as ExportedGame['game']['variant'],
      status: summary.status as 'active' | 'finished',
      press: summary.press,
      anonymous: summary.anonymous,
      deadlines: summary.deadlines,
      maxMissedDeadlines: game.maxMissedDeadlines,
      powerAssignment: game.powerAssignment,
      rules: summary.rules,
      createdAt: summary.createdAt,
      startedAt: summary.startedAt,
      finishedAt: summary.finishedAt,
      pausedAt: summary.pausedAt,
      outcome: summary.outcome,
      // A campaign's settings (no names in them); absent for an ordinary game.
      campaign: game.campaign ?? undefined,
    },
    gameMaster: summary.gameMaster.username,
    // In the variant's order of powers, as the game lists its seats (seat ids are random).
    players: seatsView(game, context.viewer).flatMap((seat) =>
      seat.power ? [{ power: seat.power, username: seat.user?.username ?? null, status: seat.status, missedDeadlines: seat.missedDeadlines }] : [],
    ),
  };
  const listed = ['phases', 'press', 'loans', 'votes', 'gmLog', 'discardedPhases'] as const;
  const headerSchema = schemas.game.omit(Object.fromEntries(listed.map((key) => [key, true])) as { [K in (typeof listed)[number]]: true });
  const encodedHeader = z.encode(headerSchema, header as never) as Record<string, unknown>;

  async function* submissionsOf(phaseId: string): Pages {
    // In the order they were stored (seq), the one that counts last, as an import stores them again.
    let last: bigint | null = null;
    for (;;) {
      const rows: Prisma.OrderSubmissionGetPayload<object>[] = await db.orderSubmission.findMany({
        where: { phaseId, ...(last === null ? {} : { seq: { gt: last } }) },
        orderBy: { seq: 'asc' },
        take: EXPORT_LIMITS.submissionsPerPage,
      });
      if (rows.length === 0) return;
      last = rows[rows.length - 1].seq;
      yield rows.map((row) => encoded(schemas.submission, submissionRecord(submissionOf(row))));
      if (rows.length < EXPORT_LIMITS.submissionsPerPage) return;
    }
  }

  /**
   * The seas of these phases as they were when the export began (made by then; decided or waived by then), in the
   * order they were decided (as the phase was adjudicated with them).
   */
  async function seasOf(phaseIds: string[]): Promise<Map<string, SeaBattleRow[]>> {
    const bySea = new Map<string, SeaBattleRow[]>();
    if (!game.campaign || phaseIds.length === 0) return bySea;
    const rows = await db.seaBattle.findMany({
      where: { phaseId: { in: phaseIds }, createdAt: until },
      orderBy: [{ decidedAt: 'asc' }, { createdAt: 'asc' }],
    });
    for (const row of rows) bySea.set(row.phaseId, [...(bySea.get(row.phaseId) ?? []), seaBattleOf(row)]);
    return bySea;
  }
  const settled = (row: SeaBattleRow, status: 'decided' | 'waived') => row.status === status && row.decidedAt !== null && row.decidedAt <= exportedAt;

  /**
   * The record of the battle that decided the sea (its players' or the computer's), as the exporter may have it
   * (views/battle.ts): finished, so whole, its seed revealed, and no player named in it.
   */
  async function battleOf(row: SeaBattleRow): Promise<BattleRecord | undefined> {
    if (!row.battleId || (row.decidedBy !== 'battle' && row.decidedBy !== 'computer')) return undefined;
    const battle = await readBattle(db, row.battleId);
    if (battle?.status !== 'finished' || battle.salt === null || !mayViewBattle(battle, context.viewer)) return undefined;
    const salt = battle.salt;
    return battleRecordView({ ...battle, salt }, await readActions(db, battle.id), await seedOf(db, battle.id), context.viewer);
  }

  /** The decisions the engine adjudicated (or, held, will adjudicate) a phase with (process.ts), who took each, and its battle. */
  async function decidedOf(phase: PhaseRecord, seas: SeaBattleRow[]) {
    const rows = seas.filter((sea) => settled(sea, 'decided'));
    if (rows.length === 0) return [];
    const accepted = acceptedDecisions(context, positionOf(context.variant, phase), phase.orders ?? [], rows);
    return Promise.all(
      accepted.map(async ({ province, outcome }) => {
        const row = rows.find((sea) => sea.sea === province)!;
        const by = row.decidedBy;
        const battle = await battleOf(row);
        return {
          province,
          outcome,
          ...(by === 'battle' || by === 'game-master' || by === 'computer' ? { by } : {}),
          ...(row.sides ? { sides: row.sides } : {}),
          ...(battle ? { battle } : {}),
        };
      }),
    );
  }

  /** A held phase's seas waived and still awaited when the export began (a sea being fought is awaited: its battle is not over). */
  function heldSeas(phase: PhaseRow, seas: SeaBattleRow[]) {
    return {
      heldAt: (phase.heldAt ?? exportedAt).toISOString(),
      waived: seas.filter((sea) => settled(sea, 'waived')).map((sea) => ({ province: sea.sea })),
      awaiting: seas
        .filter((sea) => !settled(sea, 'decided') && !settled(sea, 'waived'))
        .map((sea) => ({ province: sea.sea, ...(sea.sides ? { sides: sea.sides } : {}) })),
    };
  }

  async function* phasePages(): Pages {
    for (let start = 0; start < phases.length; start += EXPORT_LIMITS.phasesPerPage) {
      const fixed = phases.slice(start, start + EXPORT_LIMITS.phasesPerPage);
      const rows = new Map((await db.phase.findMany({ where: { id: { in: fixed.map((phase) => phase.id) } } })).map((row) => [row.id, phaseOf(row)]));
      const seas = await seasOf(fixed.filter((phase) => phase.status !== 'open').map((phase) => phase.id));
      const page = fixed.map(async ({ id, index, status }) => {
        const row = rows.get(id);
        if (!row || (status === 'processed' && row.status !== 'processed')) throw new ChangedWhileExported(`phase ${index} was rolled back`);
        if (status === 'held' && row.status === 'open') throw new ChangedWhileExported(`phase ${index} was rolled back`);
        // Open or held when the export began: as it was then (a held phase's orders were final), whatever happened to it since.
        const asFixed: PhaseRow = status === 'processed' ? row : { ...row, status, processedAt: null };
        const ownSeas = seas.get(id) ?? [];
        const decided = status !== 'open' ? await decidedOf(asFixed, ownSeas) : [];
        const record = {
          ...phaseRecordView(asFixed, []),
          status,
          ...(decided.length > 0 ? { decided } : {}),
          ...(status === 'held' ? heldSeas(asFixed, ownSeas) : {}),
        };
        const fields = z.encode(schemas.phase, record as never) as Record<string, unknown>;
        // Its submissions, page by page.
        return status === 'processed' ? jsonObject(schemas.phase.shape, fields, { submissions: () => submissionsOf(id) }) : JSON.stringify(fields);
      });
      yield await Promise.all(page);
    }
  }

  async function* pressPages(): Pages {
    for await (const rows of pagesOf(EXPORT_LIMITS.rowsPerPage, (cursor, take) =>
      db.pressMessage.findMany({
        where: { AND: [{ gameId }, readablePress(context), { createdAt: until }, cursor] },
        include: pressInclude,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take,
      }),
    )) {
      yield rows.map((row) => {
        // As the reader sees it in the game: the sender named only where names are shown.
        const message = pressMessageView(context, row);
        return encoded(schemas.press, {
          phaseIndex: row.phaseId ? (indexOfPhase.get(row.phaseId) ?? null) : null,
          fromPower: message.from.power,
          gameMaster: message.from.gameMaster,
          sender: message.from.user?.username ?? null,
          to: message.to,
          body: message.body,
          sentAt: message.sentAt,
        });
      });
    }
  }

  async function* loanPages(): Pages {
    for await (const rows of pagesOf(EXPORT_LIMITS.rowsPerPage, (cursor, take) =>
      db.loan.findMany({ where: { gameId, createdAt: until, ...cursor }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take }),
    )) {
      yield rows.map((row) => encoded(schemas.loan, loanRecord(row)));
    }
  }

  async function* votePages(): Pages {
    // One row per power and kind at most: one page.
    const votes = await db.drawVote.findMany({ where: { gameId, createdAt: until }, orderBy: { createdAt: 'asc' } });
    yield votes.map((row) => encoded(schemas.vote, voteRecord(row)));
  }

  async function* logPages(): Pages {
    let i = 0;
    for await (const rows of pagesOf(EXPORT_LIMITS.logEntriesPerPage, (cursor, take) =>
      db.gameMasterAction.findMany({
        where: { gameId, createdAt: until, ...cursor },
        include: { actor: { select: { username: true } } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take,
      }),
    )) {
      yield rows.map((row) => {
        if (logIndex.has(row.id)) logIndex.set(row.id, i);
        i += 1;
        return encoded(schemas.gmAction, {
          action: row.action,
          actor: row.actor?.username ?? null,
          details: gmLogDetails(context.revealNames, gmActionOf(row).details),
          at: row.createdAt.toISOString(),
        });
      });
    }
  }

  async function* discardedPages(): Pages {
    type Cursor = { discardedAt: Date; index: number; id: string };
    let cursor: Cursor | null = null;
    for (;;) {
      const later: Prisma.DiscardedPhaseWhereInput = cursor
        ? {
            OR: [
              { discardedAt: { gt: cursor.discardedAt } },
              { discardedAt: cursor.discardedAt, index: { gt: cursor.index } },
              { discardedAt: cursor.discardedAt, index: cursor.index, id: { gt: cursor.id } },
            ],
          }
        : {};
      // One at a time: a discarded phase holds all its submissions.
      const rows = await db.discardedPhase.findMany({
        where: { gameId, discardedAt: until, ...later },
        orderBy: [{ discardedAt: 'asc' }, { index: 'asc' }, { id: 'asc' }],
        take: EXPORT_LIMITS.discardedPerPage,
      });
      const page = rows
        .filter((row) => (logIndex.get(row.gmActionId) ?? -1) >= 0)
        .map((row) => {
          // A discarded phase is a phase (db/tables/phases.ts), with the submissions it kept.
          const phase = discardedPhaseOf(row);
          return encoded(schemas.discardedPhase, {
            ...phaseRecordView(phase, phase.submissions),
            rollback: logIndex.get(row.gmActionId)!,
            discardedAt: row.discardedAt.toISOString(),
          });
        });
      yield page;
      if (rows.length < EXPORT_LIMITS.discardedPerPage) return;
      cursor = rows[rows.length - 1];
    }
  }

  yield* jsonObject(schemas.game.shape, encodedHeader, {
    phases: phasePages,
    press: pressPages,
    loans: loanPages,
    votes: votePages,
    gmLog: logPages,
    discardedPhases: discardedPages,
  });
}

/** The processed phases as DATC text cases, from each phase's adjudicated position to the recorded one after, in pieces. */
export async function* exportDatc(db: Db, context: GameContext): AsyncGenerator<string> {
  const gameId = context.game.id;
  const phases = await db.phase.findMany({ where: { gameId, status: 'processed' }, select: { id: true, index: true }, orderBy: { index: 'asc' } });
  yield `# ${context.game.name} (${context.variant.name}): ${phases.length} processed phases, exported ${new Date().toISOString()}\n`;
  for (let start = 0; start < phases.length; start += EXPORT_LIMITS.phasesPerPage) {
    const fixed = phases.slice(start, start + EXPORT_LIMITS.phasesPerPage);
    const rows = new Map((await db.phase.findMany({ where: { id: { in: fixed.map((phase) => phase.id) } } })).map((row) => [row.id, phaseOf(row)]));
    // A campaign phase's seas decided by battles: the case's DECIDED block, as the phase was adjudicated with them.
    const seas = await db.seaBattle.findMany({
      where: { phaseId: { in: fixed.map((phase) => phase.id) }, status: 'decided' },
      orderBy: [{ decidedAt: 'asc' }, { createdAt: 'asc' }],
    });
    const cases = fixed.map(({ id, index }) => {
      const phase = rows.get(id);
      if (phase?.status !== 'processed') throw new ChangedWhileExported(`phase ${index} was rolled back`);
      if (!phase.stateAfter) throw storedDataInvalid('phases', 'stateAfter', phase.id, new Error('a processed phase has no state after'));
      const orders: SubmittedOrder[] = (phase.orders ?? []).map((o) => ({ power: o.power, order: o.order }));
      // Loans made during the phase are part of the position it was adjudicated from.
      const before = positionOf(context.variant, phase);
      const ownSeas = seas.filter((row) => row.phaseId === id).map((row) => seaBattleOf(row));
      const decided = ownSeas.length > 0 ? acceptedDecisions(context, before, phase.orders ?? [], ownSeas) : [];
      return phaseToDatcCase(
        context.variant,
        `G${phase.index}`,
        `${context.game.name}: ${phase.name}`.replace(/\s+/g, ' '),
        before,
        orders,
        phase.stateAfter,
        decided,
      );
    });
    yield `${start === 0 ? '' : '\n'}${cases.join('\n')}`;
  }
}

/**
 * The exports as response bodies: written as they are read, at the pace of the reader (stream.ts). The export is
 * this file's view of the game, every piece from the entity views, so it carries their mark (views/viewed.ts).
 */
export function gameExportBody(db: Db, context: GameContext): Readable {
  return viewed(streamOf(exportGame(db, context), EXPORT_LIMITS.stallMs));
}

export function datcExportBody(db: Db, context: GameContext): Readable {
  return viewed(streamOf(exportDatc(db, context), EXPORT_LIMITS.stallMs));
}
