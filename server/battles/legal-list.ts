/**
 * GET /battles/:id?legalActions=true: the page with the viewer's legal actions and the rules' words for each. The
 * list is worked out in the computer's worker pool (computer-pool.ts, its queue and time limits), never on the event
 * loop: on a fleet of the measured-table rulesets it takes seconds. A battle's state at a count of actions never
 * changes (actions are only added), so each list is kept for the few battles last asked about.
 */
import type { FastifyInstance } from 'fastify';
import { mayViewBattle, sideToActFor } from '../access/battle-policy.ts';
import type { Auth } from '../auth/caller.ts';
import { notFound } from '../errors.ts';
import { battleDetailView } from '../views/battle.ts';
import type { BattleEnv } from './play.ts';
import { readBattle, seedOf } from '../db/tables/battles.ts';

type Listed = { side: string; action: unknown; text: string }[];

/** Actions listed at most (a position's list is far shorter: the ruleset's own bounds keep it to hundreds). */
export const MAX_LISTED_ACTIONS = 20_000;
/** Lists kept: one per battle, side and count of actions, the oldest dropped first. */
const CACHED_LISTS = 32;
const cache = new Map<string, Listed>();

export async function viewWithLegalActions(env: BattleEnv, app: FastifyInstance, viewer: Auth['user'] | null, battleId: string, inviteCode?: string) {
  const battle = await readBattle(app.prisma, battleId);
  if (!battle || !mayViewBattle(battle, viewer, inviteCode)) throw notFound('no battle with that id');
  const seed = battle.status === 'finished' ? await seedOf(app.prisma, battle.id) : null;
  const view = battleDetailView(battle, seed, viewer, false);
  const side = sideToActFor(battle, viewer);
  if (!view.yourTurn || side === null) {
    view.legalActions = [];
    return view;
  }
  // The pool's state is this very read's (the view above shows the same count).
  const key = `${battle.id}:${battle.actionCount}:${side}`;
  let listed = cache.get(key);
  if (!listed) {
    listed = (await env.computer.describedLegalActions(battle.ruleset, battle.state, side, MAX_LISTED_ACTIONS)).value;
    cache.set(key, listed);
    if (cache.size > CACHED_LISTS) cache.delete(cache.keys().next().value as string);
  }
  view.legalActions = listed;
  return view;
}
