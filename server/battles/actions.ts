/**
 * A player's action, as POST …/actions takes it: under the battle's row lock (two requests cannot both act on the
 * same position), against the count of actions the player saw (409 when the battle has moved on since), read by the
 * ruleset's action schema (400 naming the field), checked and applied by the ruleset (422 with its refusal's code
 * and reason); then the computer's moves that follow, and one live event.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { BattleActionRequestSchema } from '../../shared/api/battles.ts';
import { isUmpire, mayViewBattle, sidePlayedBy } from '../access/battle-policy.ts';
import type { Auth } from '../auth/caller.ts';
import { HttpError, conflict, forbidden, invalid, notFound } from '../errors.ts';
import { viewBattle } from './lobby.ts';
import { BATTLE_TX_OPTIONS, type BattleEnv, publishChange, settle, takeAction } from './play.ts';
import { lockBattle, rulesetOf, seedOf } from './stored.ts';

type User = Auth['user'];

export async function act(env: BattleEnv, app: FastifyInstance, user: User, battleId: string, request: z.output<typeof BattleActionRequestSchema>) {
  await app.prisma.$transaction(async (tx) => {
    const battle = await lockBattle(tx, battleId);
    if (!mayViewBattle(battle, user)) throw notFound('no battle with that id');
    const side = sidePlayedBy(battle, user);
    if (side === null) throw forbidden('forbidden', isUmpire(battle, user) ? 'the umpire acts for no side' : 'you play no side in this battle');
    if (battle.status !== 'active')
      throw conflict('conflict', battle.status === 'forming' ? 'the battle has not started yet' : `the battle is ${battle.status}`);
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
    const now = new Date();
    const seed = await seedOf(tx, battle.id);
    const taken = await takeAction(tx, battle, seed, side, parsed.data, { actor: 'player', userId: user.id }, now);
    // The ruleset's refusal codes are its own vocabulary (not_your_turn, out_of_range, …): passed on beside the API's code.
    if (!taken.ok) throw new HttpError(422, 'action_refused', taken.refusal.message, { refusal: taken.refusal });
    const settled = await settle(env, tx, taken.battle, seed, now);
    await publishChange(env, tx, settled, 'acted');
  }, BATTLE_TX_OPTIONS);
  return viewBattle(app, user, battleId);
}
