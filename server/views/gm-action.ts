/**
 * A game master's log entry as a viewer may read it: the names in its details
 * (`details.users`, and an imported game's names from its export) are left out
 * where the game hides names from the viewer (access/policy.ts revealsNames).
 * The game's log, an action's answer, and the site-wide audit log, which only
 * administrators read (they act as the game master of every game they do not play in).
 */
import type { GmAction } from '../../shared/api/gm.ts';
import { EXPORTED_NAMES_KEY } from '../../shared/api/imported-log.ts';
import type { Prisma } from '../db/database.ts';
import type { JsonObject } from '../db/tables/gm-log.ts';
import type { GameContext, Viewer } from '../play/context.ts';
import { revealsNames, type GameFacts } from '../access/policy.ts';
import type { GmActionRow } from '../play/gm-log.ts';
import { viewed } from './viewed.ts';

/** Keys of a log entry's details that hold user names. `importedActor`: where earlier imports kept the exported game's actor. */
const NAME_KEYS = ['users', EXPORTED_NAMES_KEY, 'importedActor'];

/** A log entry's details without the names, where names are hidden. */
export function gmLogDetails(revealNames: boolean, details: JsonObject): JsonObject {
  const shown = { ...details };
  if (!revealNames) for (const key of NAME_KEYS) delete shown[key];
  return shown;
}

function entryView(revealNames: boolean, row: GmActionRow): GmAction {
  return { id: row.id, action: row.action, actor: row.actor, details: gmLogDetails(revealNames, row.details), at: row.createdAt.toISOString() };
}

export function gmActionView(context: GameContext, row: GmActionRow): GmAction {
  return viewed(entryView(context.revealNames, row));
}

/** What a game-master action answers: the entry it logged. */
export function gmActionResponse(context: GameContext, row: GmActionRow) {
  return viewed({ action: gmActionView(context, row) });
}

/** The game's log, oldest first. */
export function gmLogView(context: GameContext, rows: GmActionRow[]) {
  return viewed({ actions: rows.map((row) => gmActionView(context, row)) });
}

/** What the audit log reads of each entry's game: its name, and the facts that say whether it shows names (access/policy.ts). */
export const auditGameSelect = {
  name: true,
  private: true,
  anonymous: true,
  status: true,
  gameMasterId: true,
  finalAt: true,
  players: { select: { userId: true, power: true } },
} satisfies Prisma.GameSelect;
type AuditRow = GmActionRow & { game: GameFacts & { name: string } };

/**
 * The site-wide audit log, newest first, for an administrator (the route checks): every game, and every name but
 * those of an anonymous game the administrator plays in, which they read as a player does until its result is final.
 */
export function auditLogView(viewer: NonNullable<Viewer>, rows: AuditRow[], nextCursor: string | null) {
  return viewed({
    actions: rows.map((row) => ({ ...entryView(revealsNames(row.game, viewer), row), gameId: row.gameId, gameName: row.game.name })),
    nextCursor,
  });
}
