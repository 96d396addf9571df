/**
 * Auto-resolve by agreement: the player of each power fighting in an undecided contested sea may agree to let the
 * computer fight it out (and withdraw while the sea is undecided). The agreements are stored with the sea
 * (`sea_battles.auto_resolve_agreed`, powers only: who plays them is the game's to reveal) and published
 * (sea.changed); when the last power of the fight agrees, the sea is auto-resolved as the game master's auto-resolve
 * does it (from-sea.ts openComputerBattle, then fightOut), logged in the game master's log as the sides' doing.
 */
import type { FastifyInstance } from 'fastify';
import type { LiveChannel } from '../../shared/api/live.ts';
import type { Auth } from '../auth/caller.ts';
import { seaBattleOf } from '../db/tables/sea-battles.ts';
import { conflict, forbidden } from '../errors.ts';
import { requireActingPower, withLockedGame } from '../play/context.ts';
import { logGmAction } from '../play/gm-log.ts';
import { lockSeaBattle, seaForcesOf } from '../play/sea-battles.ts';
import { seaChangedEvent } from '../views/sea-battle.ts';
import { fightOut, openComputerBattle, type SeaParams, seaAnswer } from './from-sea.ts';
import type { BattleEnv } from './play.ts';

type User = Auth['user'];

/** The caller's power agrees (`agree`) or withdraws; the answer is the sea (auto-resolved when everyone agreed). */
export async function agreeToAutoResolve(env: BattleEnv, app: FastifyInstance, user: User, params: SeaParams, agree: boolean) {
  const done = await withLockedGame(app, params.gameId, user, async (tx, context) => {
    const campaign = context.game.campaign;
    if (!campaign) throw conflict('conflict', 'this game is not a campaign: its seas are not fought as battles');
    const row = await lockSeaBattle(tx, params.gameId, params.index, params.sea);
    const { power } = requireActingPower(context);
    const phase = await tx.phase.findUniqueOrThrow({ where: { id: row.phaseId }, select: { index: true, name: true, status: true } });
    if (phase.status !== 'held') throw conflict('phase_closed', `phase ${phase.index} (${phase.name}) is not waiting for its sea battles`);
    const forces = seaForcesOf(campaign, row);
    const fighting = forces.ok ? forces.value.sides.flatMap((side) => side.powers) : row.contested.powers;
    if (!fighting.includes(power)) throw forbidden('forbidden', `${power} does not fight in ${row.contested.name} (${fighting.join(', ')} do)`);
    if (row.status !== 'undecided') {
      const why = row.status === 'fighting' ? 'a battle is being fought for it' : `it has been ${row.status}`;
      throw conflict('conflict', `${row.contested.name} is no longer open to an agreement: ${why}`);
    }
    if (!forces.ok) throw conflict('conflict', `${forces.error.join('; ')}: the game master sets the two sides first`);
    const mark = new Set(row.autoResolveAgreed);
    if (agree) mark.add(power);
    else mark.delete(power);
    // In the order of the fight's powers, and only theirs (the sides may have been set again since).
    const agreed = fighting.filter((p) => mark.has(p));
    const updated = seaBattleOf(await tx.seaBattle.update({ where: { id: row.id }, data: { autoResolveAgreed: agreed } }));
    await env.bus.publish(tx, `game:${row.gameId}` as LiveChannel, seaChangedEvent(row.gameId, phase.index, updated, context.game));
    if (!agree || agreed.length < fighting.length) return { rowId: row.id, campaign, opened: null };
    const opened = await openComputerBattle(env, tx, updated, null, new Date());
    // The sides' doing, not the game master's: logged without an actor, with the powers that agreed.
    await logGmAction(tx, env.bus, params.gameId, null, 'auto-resolve-sea', {
      phase: params.index,
      sea: row.sea,
      seaName: row.contested.name,
      battleId: opened.battleId,
      agreedBy: agreed,
    });
    return { rowId: row.id, campaign, opened };
  });
  if (done.opened) {
    const ms = await fightOut(env, app.prisma, done.opened);
    env.log.info({ gameId: params.gameId, sea: params.sea, battleId: done.opened.battleId, ms: Math.round(ms) }, 'a sea was auto-resolved by agreement');
  }
  return seaAnswer(app.prisma, done.rowId, done.campaign);
}
