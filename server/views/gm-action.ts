/**
 * A game master's log entry as a viewer may read it: the names in its details
 * (`details.users`, and an imported game's names from its export) are left out
 * where the game hides names from the viewer (access/policy.ts revealsNames).
 */
import type { GmAction } from '../../shared/api/gm.ts';
import { EXPORTED_NAMES_KEY } from '../../shared/api/imported-log.ts';
import type { GameContext } from '../play/context.ts';
import type { GmActionRow } from '../play/gm-log.ts';

/** Keys of a log entry's details that hold user names. `importedActor`: where earlier imports kept the exported game's actor. */
const NAME_KEYS = ['users', EXPORTED_NAMES_KEY, 'importedActor'];

/** A log entry's details without the names, where names are hidden. */
export function gmLogDetails(revealNames: boolean, details: unknown): Record<string, unknown> {
  const shown = { ...(details as Record<string, unknown>) };
  if (!revealNames) for (const key of NAME_KEYS) delete shown[key];
  return shown;
}

export function gmActionView(context: GameContext, row: GmActionRow): GmAction {
  return { id: row.id, action: row.action, actor: row.actor, details: gmLogDetails(context.revealNames, row.details), at: row.createdAt.toISOString() };
}
