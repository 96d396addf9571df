/**
 * A naval battle as a viewer may see it: the lists' summary, the battle's page (the state as their seat sees it, the
 * board, whose turn, their legal actions), its log, its record (the export) and the check of its dice. The access
 * rules are server/access/battle-policy.ts: the seed only once the battle is over, the other side's plots only once
 * resolved, the invite code only to members.
 */
import type {
  BattleBoard,
  BattleDetail,
  BattleList,
  BattleLog,
  BattleLogEntry,
  BattleNote,
  BattleNotes,
  BattleRulesetId,
  BattleSeat,
  BattleSide,
  BattleSummary,
  BattleTurn,
  BattleVerification,
  ExportedBattle,
} from '../../shared/api/battles.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { CampaignSchema } from '../../shared/api/campaign.ts';
import { getVariant } from '../../shared/variants.ts';
import { ContestedSeaSchema, SeaSidesSchema } from '../db/tables/sea-battles.ts';
import { seaForcesOf } from '../play/sea-forces.ts';
import type { z } from 'zod';
import type { LogLineSchema, Verification } from '../../shared/naval/record.ts';
import type { BoardView, Outcome, Turn } from '../../shared/naval/ruleset.ts';
import { shownUser } from '../access/policy.ts';
import {
  type BattlePerspective,
  namesBattleSeat,
  mayShareBattleInvite,
  perspectiveOf,
  revealsSeed,
  seesAction,
  sidePlayedBy,
  sideToActFor,
  isUmpire,
  readsUmpireNotes,
} from '../access/battle-policy.ts';
import type { Auth } from '../auth/caller.ts';
import type { Prisma } from '../db/database.ts';
import type { BattleActor } from '../db/generated/enums.ts';
import { viewed } from './viewed.ts';

type Viewer = Auth['user'] | null;

export const battleInclude = {
  createdBy: { select: { id: true, username: true } },
  // By id: random for seats, so the order tells nobody who joined first.
  seats: { include: { user: { select: { id: true, username: true } } }, orderBy: { id: 'asc' } },
  // A campaign game's battle: who may watch it and see its players' names is the game's too (battle-policy.ts).
  seaBattle: {
    select: {
      game: {
        select: {
          private: true,
          anonymous: true,
          status: true,
          gameMasterId: true,
          finalAt: true,
          players: { select: { userId: true, power: true } },
          // Each side is drawn in its power's map colour (sidesView).
          variantId: true,
          campaign: true,
        },
      },
      contested: true,
      sides: true,
    },
  },
} satisfies Prisma.BattleInclude;
type BattleRow = Prisma.BattleGetPayload<{ include: typeof battleInclude }>;

/** Log lines as stored and sent (shared/naval/record.ts). */
export type StoredLog = z.infer<typeof LogLineSchema>[];

/** A battle row with its JSON columns read by its ruleset's schemas (server/battles/stored.ts). */
export type LoadedBattle = Omit<BattleRow, 'ruleset' | 'setup' | 'state' | 'startLog' | 'outcome'> & {
  /** One the API offers (a ruleset the engine has but the battle page cannot yet play is never stored). */
  ruleset: BattleRulesetId;
  setup: unknown;
  state: unknown | null;
  startLog: StoredLog | null;
  outcome: Outcome | null;
};

/** An action row with its JSON columns read (server/battles/stored.ts). */
export type LoadedAction = {
  index: number;
  side: string;
  action: unknown;
  text: string;
  log: StoredLog;
  by: BattleActor;
  secret: boolean;
  revealed: boolean;
  createdAt: Date;
};

const clockOf = (battle: LoadedBattle): BattleSummary['clock'] =>
  battle.pace === 'live'
    ? { pace: 'live', minutesPerTurn: Math.round(battle.turnSeconds / 60) }
    : { pace: 'correspondence', hoursPerTurn: Math.round(battle.turnSeconds / 3600) };

/**
 * A campaign battle's sides with the power each stands for (a side of allies: its first power) and that power's colour
 * on the game's map; an ordinary battle's sides as the set-up names them. Powers are public in a campaign game (only
 * who plays them may be hidden), and a side's name already says them.
 */
function sidesView(battle: LoadedBattle): BattleSide[] {
  const sides = RULESETS[battle.ruleset].sides(battle.setup);
  const sea = battle.seaBattle;
  if (!sea) return sides;
  const campaign = CampaignSchema.safeParse(sea.game.campaign);
  const contested = ContestedSeaSchema.safeParse(sea.contested);
  const grouping = SeaSidesSchema.nullable().safeParse(sea.sides);
  if (!campaign.success || !contested.success || !grouping.success) return sides;
  const forces = seaForcesOf(campaign.data, { contested: contested.data, sides: grouping.data });
  if (!forces.ok) return sides;
  const colours = new Map((getVariant(sea.game.variantId)?.data.powers ?? []).map((power) => [power.id, power.colour]));
  // The set-up names its sides after the sea's, in the same order (server/battles/from-sea.ts).
  const ids = sides.map((side) => side.id);
  const powerOf = new Map(forces.value.sides.map((side, i) => [ids.includes(side.id) ? side.id : ids[i], side.powers[0]]));
  return sides.map((side) => {
    const power = powerOf.get(side.id);
    const colour = power === undefined ? undefined : colours.get(power);
    return power === undefined || colour === undefined ? side : { ...side, power, colour };
  });
}

/** The seats in the set-up's order of sides, the umpire last. */
function seatsView(battle: LoadedBattle, viewer: Viewer): BattleSeat[] {
  const now = new Date();
  const sides = RULESETS[battle.ruleset].sides(battle.setup).map((side) => side.id);
  const place = (side: string | null) => (side === null ? sides.length : sides.indexOf(side));
  return [...battle.seats]
    .sort((a, b) => place(a.side) - place(b.side))
    .map((seat) => {
      const user = shownUser(namesBattleSeat(battle, seat, viewer, now), viewer, seat.user);
      return {
        id: seat.id,
        side: seat.side,
        role: seat.role,
        player: seat.player,
        user,
        // Taken by a player the viewer may not name: said, so the seat does not read as open (and no name with it).
        ...(user === null && seat.userId !== null ? { hidden: true } : {}),
        isYou: !!viewer && seat.userId === viewer.id,
      };
    });
}

export function battleSummaryView(battle: LoadedBattle, viewer: Viewer): BattleSummary {
  return {
    id: battle.id,
    title: battle.title,
    ruleset: battle.ruleset,
    scenario: battle.scenarioId,
    status: battle.status,
    private: battle.private,
    clock: clockOf(battle),
    sides: sidesView(battle),
    seats: seatsView(battle, viewer),
    createdBy: battle.createdBy,
    joined: !!viewer && battle.seats.some((seat) => seat.userId === viewer.id),
    actionCount: battle.actionCount,
    outcome: battle.outcome,
    imported: battle.importedAt !== null,
    createdAt: battle.createdAt.toISOString(),
    startedAt: battle.startedAt?.toISOString() ?? null,
    finishedAt: battle.finishedAt?.toISOString() ?? null,
  };
}

export function battleListView(battles: LoadedBattle[], nextCursor: string | null, viewer: Viewer): BattleList {
  return viewed({ battles: battles.map((battle) => battleSummaryView(battle, viewer)), nextCursor });
}

/** The state as this perspective may see it: whole, or the ruleset's redaction for the side (or for nobody). */
function visibleState(battle: LoadedBattle, perspective: BattlePerspective): unknown {
  if (battle.state === null || perspective.kind === 'whole') return battle.state;
  return RULESETS[battle.ruleset].redact(battle.state, perspective.kind === 'side' ? perspective.side : null);
}

/** Whose turn, as the wire has it. */
function turnView(turn: Turn): BattleTurn {
  if (turn.kind === 'simultaneous') return { kind: turn.kind, sides: [...turn.sides], waiting: [...turn.waiting], prompt: turn.prompt };
  return turn.kind === 'side' ? { kind: turn.kind, side: turn.side, prompt: turn.prompt } : { kind: 'over' };
}

/** The board as the wire has it. */
function boardView(board: BoardView): BattleBoard {
  return {
    sea: board.sea,
    counters: board.counters.map((counter) => ({ ...counter, hex: { ...counter.hex }, marks: [...counter.marks] })),
    wrecks: board.wrecks.map((hex) => ({ ...hex })),
    ...(board.wind === undefined ? {} : { wind: board.wind }),
  };
}

/**
 * The battle's page for this viewer. `seed` is the battle's secret: shown only once the battle is over, whoever
 * passes it here. The legal actions only when asked for: a client with the engine computes them from the state.
 */
export function battleDetailView(battle: LoadedBattle, seed: string | null, viewer: Viewer, withLegalActions = false): BattleDetail {
  const ruleset = RULESETS[battle.ruleset];
  const perspective = perspectiveOf(battle, viewer);
  const state = visibleState(battle, perspective);
  const actingSide = sideToActFor(battle, viewer);
  const turn = battle.state === null ? null : ruleset.turn(battle.state);
  const mayAct =
    actingSide !== null &&
    turn !== null &&
    ((turn.kind === 'side' && turn.side === actingSide) || (turn.kind === 'simultaneous' && turn.waiting.includes(actingSide)));
  return viewed({
    ...battleSummaryView(battle, viewer),
    inviteCode: mayShareBattleInvite(battle, viewer) ? battle.inviteCode : null,
    you: { side: sidePlayedBy(battle, viewer), umpire: isUmpire(battle, viewer) },
    setup: battle.setup,
    commitment: battle.commitment,
    salt: battle.salt,
    seed: revealsSeed(battle) ? seed : null,
    nextRoll: battle.nextRoll,
    deadlineAt: battle.deadlineAt?.toISOString() ?? null,
    turn: turn === null ? null : turnView(turn),
    state,
    board: state === null ? null : boardView(ruleset.board(state)),
    yourTurn: mayAct,
    ...(withLegalActions
      ? {
          legalActions:
            mayAct && actingSide !== null
              ? ruleset.legalActions(battle.state, actingSide).map((action) => ({ side: actingSide, action, text: ruleset.describe(battle.state, action) }))
              : [],
        }
      : {}),
  });
}

const NOTES: Record<BattleActor, (sideName: string) => string | null> = {
  player: () => null,
  computer: () => null,
  deadline: (sideName) => `${sideName}'s time ran out: the computer acted for it.`,
};

/** A page of the log (`after`: the entries after that action number; the start is entry 0). */
export function battleLogView(battle: LoadedBattle, actions: LoadedAction[], viewer: Viewer, after: number, next: number | null): BattleLog {
  const perspective = perspectiveOf(battle, viewer);
  const names = new Map(RULESETS[battle.ruleset].sides(battle.setup).map((side) => [side.id, side.name]));
  const entries: BattleLogEntry[] = [];
  if (after === 0 && battle.startLog && battle.startedAt)
    entries.push({
      index: 0,
      side: null,
      by: 'start',
      action: null,
      text: null,
      hidden: false,
      note: null,
      lines: battle.startLog,
      at: battle.startedAt.toISOString(),
    });
  for (const row of actions) {
    const shown = seesAction(perspective, row);
    entries.push({
      index: row.index,
      side: row.side,
      by: row.by,
      action: shown ? row.action : null,
      text: shown ? row.text : null,
      hidden: !shown,
      note: NOTES[row.by](names.get(row.side) ?? row.side),
      // A secret plot's own lines may say how it was made: its side's until the turn is resolved.
      lines: shown ? row.log : [],
      at: row.createdAt.toISOString(),
    });
  }
  return viewed({ entries, actionCount: battle.actionCount, next });
}

/**
 * The battle's record as this viewer may have it (shared/naval/record.ts): up to the first action they may not read
 * yet (a plot of the turn being plotted), and the seed only once the battle is over.
 */
export function battleRecordView(battle: LoadedBattle & { salt: string }, actions: LoadedAction[], seed: string | null, viewer: Viewer): ExportedBattle {
  const perspective = perspectiveOf(battle, viewer);
  const hiddenAt = actions.findIndex((row) => !seesAction(perspective, row));
  const shown = hiddenAt < 0 ? actions : actions.slice(0, hiddenAt);
  return viewed({
    format: 'naval-battle/1' as const,
    ruleset: battle.ruleset,
    setup: battle.setup,
    salt: battle.salt,
    commitment: battle.commitment,
    ...(revealsSeed(battle) && seed !== null ? { seed } : {}),
    start: battle.startLog ?? [],
    actions: shown.map((row) => ({ side: row.side, action: row.action, log: row.log })),
  });
}

/** The check of a finished battle's dice and replay (its seed is public by then). */
export function battleVerificationView(battle: LoadedBattle & { salt: string }, seed: string, verification: Verification): BattleVerification {
  return viewed({
    battleId: battle.id,
    ok: verification.ok,
    problems: [...verification.problems],
    rolls: verification.rolls,
    actions: verification.actions,
    commitment: battle.commitment,
    seed,
    salt: battle.salt,
  });
}

type NoteRow = { id: string; text: string; actionCount: number; createdAt: Date; author: { id: string; username: string } | null };

function noteView(note: NoteRow): BattleNote {
  return { id: note.id, author: note.author, text: note.text, actionCount: note.actionCount, at: note.createdAt.toISOString() };
}

/** A note just written, for the umpire who wrote it. */
export function battleNoteView(note: NoteRow): BattleNote {
  return viewed(noteView(note));
}

/** The umpire's notes, for those who may read them (the caller has asked `readsUmpireNotes`; nobody else gets any). */
export function battleNotesView(battle: LoadedBattle, notes: NoteRow[], viewer: Viewer): BattleNotes {
  return viewed({ notes: readsUmpireNotes(battle, viewer) ? notes.map(noteView) : [] });
}
