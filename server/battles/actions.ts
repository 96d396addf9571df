/**
 * A player's action, as POST …/actions takes it: under the battle's row lock (two requests cannot both act on the
 * same position), against the count of actions the player saw (409 when the battle has moved on since), read by the
 * ruleset's action schema (400 naming the field), checked and applied by the ruleset (422 with its refusal's code
 * and reason); then the computer's moves that follow, thought out before the lock was taken, and one live event.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { BattleActionRequestSchema } from '../../shared/api/battles.ts';
import { isUmpire, mayViewBattle, sidePlayedBy } from '../access/battle-policy.ts';
import type { Auth } from '../auth/caller.ts';
import { HttpError, conflict, forbidden, invalid, notFound } from '../errors.ts';
import { viewBattle } from './lobby.ts';
import { type BattleEnv, planThenSettle, takeAction } from './play.ts';
import type { readBattle } from '../db/tables/battles.ts';
import { rulesetOf } from './stored.ts';

type User = Auth['user'];
type Battle = Awaited<ReturnType<typeof readBattle>> & {};

/** Who may act, and the action as the ruleset reads it: the same checks before thinking and again under the lock. */
function checked(battle: Battle | null, user: User, request: z.output<typeof BattleActionRequestSchema>): { battle: Battle; side: string; action: unknown } {
  if (!battle || !mayViewBattle(battle, user)) throw notFound('no battle with that id');
  const side = sidePlayedBy(battle, user);
  if (side === null) throw forbidden('forbidden', isUmpire(battle, user) ? 'the umpire acts for no side' : 'you play no side in this battle');
  if (battle.status !== 'active') throw conflict('conflict', battle.status === 'forming' ? 'the battle has not started yet' : `the battle is ${battle.status}`);
  if (request.expected !== battle.actionCount) {
    throw new HttpError(
      409,
      'conflict',
      `the battle has moved on: ${battle.actionCount} actions have been taken, you saw ${request.expected}; look again before acting`,
      { actionCount: battle.actionCount },
    );
  }
  const parsed = rulesetOf(battle).actionSchema.safeParse(request.action);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`body.action${issue.path.map((part) => `.${String(part)}`).join('')}`, issue.message);
  }
  return { battle, side, action: parsed.data };
}

export async function act(env: BattleEnv, app: FastifyInstance, user: User, battleId: string, request: z.output<typeof BattleActionRequestSchema>) {
  // The computer's answer is thought out first, from the battle as read and this action, with no lock held: other
  // requests on this battle (a view, the other side's plot) are served meanwhile. The same checks run again under the
  // lock: a count other than `expected` (someone acted since) is the 409 it always was. Without a plan (the pool too
  // busy) the computer's moves are due at once and the deadline loop makes them.
  await planThenSettle(env, app.prisma, battleId, {
    see: (battle) => checked(battle, user, request),
    planFrom: ({ side, action }) => ({ first: { side, action } }),
    unplanned: 'owe',
    first: async (tx, { battle, side, action }, seed, now) => {
      const taken = await takeAction(tx, battle, seed, side, action, { actor: 'player', userId: user.id }, now);
      // The ruleset's refusal codes are its own vocabulary (not_your_turn, out_of_range, …): passed on beside the API's code.
      if (!taken.ok) throw new HttpError(422, 'action_refused', taken.refusal.message, { refusal: taken.refusal });
      return taken.battle;
    },
  });
  return viewBattle(app, user, battleId);
}
