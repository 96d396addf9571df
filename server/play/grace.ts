/**
 * Grace for missed orders (games.grace_seconds, grace_per_player). When a
 * phase falls due and a power that must order, whose seat has an active
 * player, has sent nothing at all in it (a submission not marked ready counts
 * as sent), the deadline moves once, `grace_seconds` later, for all; each such
 * power spends one of its seat's `grace_per_player` extensions. Called by the
 * scheduler (play/scheduler.ts) holding the game's lock, before it processes:
 * a phase given grace is not processed then. A phase is given grace once
 * (`phases.grace_granted_to`), so at the extended deadline it is processed as
 * usual: no-orders hold, missed deadlines and civil disorder as ever.
 *
 * The new deadline is the old one plus `grace_seconds`, not put on the game's
 * clock nor moved by absences: a plain "24 hours more" that everyone can
 * predict (with a 20:00 clock and a day's grace it is 20:00 the next day
 * anyway, a daylight-saving change or a day off aside). Should that moment be
 * past already (no instance ran for longer than the grace), it counts from
 * now, so the late player still gets the whole grace.
 */
import { powersToOrder } from '../../shared/index.ts';
import type { PhaseRef } from '../../shared/api/games.ts';
import type { Transaction } from '../db/database.ts';
import { phaseOf } from '../db/tables/phases.ts';
import { positionOf } from './phases.ts';
import { playableVariant } from './variants.ts';
import { phaseRef } from '../views/phase.ts';
import type { PlayEnv } from './process.ts';
import { notifyDeadlineMoved } from '../notify/game-events.ts';

export type GraceGranted = { phase: PhaseRef; deadlineAt: Date; powers: string[] };

/**
 * Gives the due phase its grace when it is owed; returns what was granted, or
 * null when the phase should be processed now. The game row must be locked.
 */
export async function grantGrace(tx: Transaction, env: PlayEnv, gameId: string, phaseId: string, now: Date): Promise<GraceGranted | null> {
  const game = await tx.game.findUniqueOrThrow({
    where: { id: gameId },
    select: {
      variantId: true,
      rules: true,
      graceSeconds: true,
      gracePerPlayer: true,
      players: { select: { id: true, power: true, userId: true, status: true, graceUsed: true } },
    },
  });
  if (game.graceSeconds <= 0 || game.gracePerPlayer <= 0) return null;
  const phase = phaseOf(
    await tx.phase.findUnique({
      where: { id: phaseId },
      select: {
        id: true,
        gameId: true,
        index: true,
        name: true,
        kind: true,
        status: true,
        deadlineAt: true,
        graceGrantedTo: true,
        stateBefore: true,
        loanActions: true,
      },
    }),
  );
  if (phase?.status !== 'open' || phase.deadlineAt === null || phase.graceGrantedTo.length > 0) return null;
  const variant = playableVariant(game.variantId, game.rules);
  if (!variant) return null;
  const mustOrder = new Set(powersToOrder(variant, positionOf(variant, phase)));
  const candidates = game.players.filter(
    (seat) => seat.power !== null && mustOrder.has(seat.power) && seat.status === 'active' && seat.userId !== null && seat.graceUsed < game.gracePerPlayer,
  );
  if (candidates.length === 0) return null;
  // Any submission, ready or not, by the player or the game master for them: the power was not left unordered.
  const sent = await tx.orderSubmission.findMany({
    where: { phaseId, power: { in: candidates.map((seat) => seat.power!) } },
    select: { power: true },
    distinct: ['power'],
  });
  const sentBy = new Set(sent.map(({ power }) => power));
  const graced = candidates.filter((seat) => !sentBy.has(seat.power!));
  if (graced.length === 0) return null;

  const powers = graced.map((seat) => seat.power!).sort();
  const extended = phase.deadlineAt.getTime() + game.graceSeconds * 1000;
  const deadlineAt = new Date(extended > now.getTime() ? extended : now.getTime() + game.graceSeconds * 1000);
  await tx.phase.update({ where: { id: phase.id }, data: { deadlineAt, graceGrantedTo: powers } });
  await tx.player.updateMany({ where: { id: { in: graced.map((seat) => seat.id) } }, data: { graceUsed: { increment: 1 } } });
  // Everyone is told the new deadline and why; the powers named are public anyway (who submitted is).
  await env.bus.publish(tx, `game:${gameId}`, {
    type: 'deadline.changed',
    gameId,
    phaseIndex: phase.index,
    deadlineAt: deadlineAt.toISOString(),
    paused: false,
    reason: 'grace',
    powers,
  });
  if (env.notify) await notifyDeadlineMoved(tx, env.notify, gameId, { phaseId: phase.id, deadlineAt, reason: 'grace', powers });
  return { phase: phaseRef({ ...phase, deadlineAt }), deadlineAt, powers };
}
