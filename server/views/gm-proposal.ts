/**
 * A request of a game master who plays, put to the other players (gm/consent.ts), as a viewer may read it: the
 * user it names (a newcomer, a successor) only where the game shows names (access/policy.ts revealsNames).
 */
import type { GmAction, GmProposal } from '../../shared/api/gm.ts';
import type { ConsentTool } from '../../shared/api/gm-actions.ts';
import type { GmProposalRow } from '../db/tables/gm-log.ts';
import type { GameContext } from '../play/context.ts';
import { viewed } from './viewed.ts';

/** The request as it stands (`status`: as counted now, a request the game has moved past having lapsed). */
export function gmProposalView(context: GameContext, row: GmProposalRow, status: GmProposal['status']): GmProposal {
  const request: Record<string, unknown> = { ...row.request };
  if (!context.revealNames && 'username' in request) request.username = null;
  return viewed({
    id: row.id,
    action: row.action as ConsentTool,
    request,
    phaseIndex: row.phaseIndex,
    needed: row.needed,
    agreed: row.agreed,
    status,
    refusedBy: row.refusedBy,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  });
}

/** What using a tool answers a game master who plays (202): the request put to the players. */
export function gmProposalResponse(proposal: GmProposal) {
  return viewed({ proposal });
}

/** What answering a request says: the request as it now stands, and the action when this answer completed it. */
export function proposalAnsweredView(proposal: GmProposal, action: GmAction | null) {
  return viewed({ proposal, action });
}

/** The game's requests, oldest first. */
export function gmProposalListView(proposals: GmProposal[]) {
  return viewed({ proposals });
}
