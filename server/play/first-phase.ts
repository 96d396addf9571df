/**
 * A started game's first phase: the seam between the lobby and game play.
 * Runs inside the start transaction, so the phase and its live event exist
 * only if the start commits.
 */
import type { PhaseRef } from '../../shared/api/games.ts';
import { initialState, phaseName } from '../../shared/index.ts';
import type { Transaction } from '../db/database.ts';
import { phaseValues } from '../db/tables/phases.ts';
import type { LiveBus } from '../bus/live-bus.ts';
import { playableVariant } from './variants.ts';
import { phaseRef } from '../views/phase.ts';
import { newPhaseDeadline } from './deadlines.ts';

export type StartedGame = {
  id: string;
  variantId: string;
  movementDeadlineSeconds: number;
  retreatDeadlineSeconds: number;
  adjustmentDeadlineSeconds: number;
};

export function deadlineSeconds(game: StartedGame, kind: 'movement' | 'retreat' | 'adjustment'): number {
  return { movement: game.movementDeadlineSeconds, retreat: game.retreatDeadlineSeconds, adjustment: game.adjustmentDeadlineSeconds }[kind];
}

/** Creates phase 0 from the engine's initial state, open until its deadline, and announces it. */
export async function createFirstPhase(tx: Transaction, bus: LiveBus, game: StartedGame, now = new Date()): Promise<PhaseRef> {
  const variant = playableVariant(game.variantId);
  // Games are only created for variants the engine can play (lobby.ts).
  if (!variant) throw new Error(`the rules engine cannot play variant ${game.variantId}`);
  const state = initialState(variant);
  const kind = state.phase.type;
  const phase = await tx.phase.create({
    data: {
      gameId: game.id,
      index: 0,
      name: phaseName(variant, state.phase),
      kind,
      status: 'open',
      ...phaseValues({ stateBefore: state }),
      deadlineAt: await newPhaseDeadline(tx, game.id, deadlineSeconds(game, kind), now),
    },
  });
  const ref = phaseRef(phase);
  await bus.publish(tx, `game:${game.id}`, { type: 'phase.started', gameId: game.id, phase: ref });
  return ref;
}
