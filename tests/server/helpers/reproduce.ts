/**
 * Re-adjudicates every processed phase of a game from what the database
 * stores — the position it opened with, its loan actions and its orders —
 * with the engine alone (no server code), and compares with the stored
 * results, events and state after. Also checks each phase starts where the
 * previous one ended.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { adjudicate, endLoanOf, getVariant, GameStateSchema, lendCentre, type GameState, type SubmittedOrder } from '../../../shared/index.ts';

type LoanAction = { action: 'lend' | 'end'; centre: string; from: string; to: string };

export async function expectReproducible(app: FastifyInstance, gameId: string): Promise<number> {
  const game = await app.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  const variant = getVariant(game.variantId)!;
  const phases = await app.prisma.phase.findMany({ where: { gameId }, orderBy: { index: 'asc' } });
  let previousAfter: GameState | null = null;
  let checked = 0;
  for (const phase of phases) {
    let state = GameStateSchema.parse(phase.stateBefore);
    if (previousAfter) expect(state, `phase ${phase.index} starts where ${phase.index - 1} ended`).toEqual(previousAfter);
    for (const action of phase.loanActions as unknown as LoanAction[]) {
      const loan = { centre: action.centre, from: action.from, to: action.to };
      const result = action.action === 'lend' ? lendCentre(variant, state, loan) : endLoanOf(variant, state, loan);
      expect(result.ok, `loan action ${JSON.stringify(action)}`).toBe(true);
      if (result.ok) state = result.value;
    }
    if (phase.status !== 'processed') continue;
    const outcome = adjudicate(variant, state, phase.orders as unknown as SubmittedOrder[]);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) continue;
    // Through JSON, as the database stores it (no undefined fields).
    const plain = JSON.parse(JSON.stringify(outcome.value));
    expect(phase.results, `results of phase ${phase.index} (${phase.name})`).toEqual(plain.results);
    expect(phase.events).toEqual(plain.events);
    expect(phase.disbanded).toEqual(plain.disbanded);
    expect(phase.stateAfter, `state after phase ${phase.index} (${phase.name})`).toEqual(plain.next);
    previousAfter = GameStateSchema.parse(phase.stateAfter);
    checked += 1;
  }
  return checked;
}
