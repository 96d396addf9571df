/**
 * Exports (ExportedGameSchema) of the engine's seeded random games, built with
 * the engine alone: the way to import a real position into a test game.
 */
import {
  adjudicate,
  ENGINE_VERSION,
  formatOrder,
  getVariant,
  OrderSchema,
  phaseName,
  rulebookOptions,
  type Order,
  type Rulebook,
} from '../../../shared/index.ts';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportedGame } from '../../../shared/api/archive.ts';
import { randomGame, type PlayedPhase } from '../../support/random-game.ts';

/** The generator's removals name whole units; the wire's Order wants { type, at }. */
export function normalise(order: unknown): Order {
  const o = order as Order;
  return OrderSchema.parse(o.kind === 'remove' ? { kind: 'remove', unit: { type: o.unit.type, at: o.unit.at } } : o);
}

export function randomPlayed(variantId: string, seed: number, phases: number, rules: Rulebook = 'datc'): PlayedPhase[] {
  return randomGame(getVariant(variantId, rulebookOptions(rules))!, seed, phases);
}

/** All phases of `played` processed (under `rules`) but the last, which is open. */
export function exportOf(variantId: string, played: PlayedPhase[], name = 'Random game', rules: Rulebook = 'datc'): ExportedGame {
  const variant = getVariant(variantId, rulebookOptions(rules))!;
  const at = new Date('2026-01-01T00:00:00Z').toISOString();
  const phases: ExportedGame['phases'] = played.map((phase, index) => {
    const last = index === played.length - 1;
    const orders = phase.orders.map((o) => ({ power: o.power, order: normalise(o.order) }));
    const outcome = last ? null : adjudicate(variant, phase.state, orders);
    if (outcome && !outcome.ok) throw new Error(outcome.error.join('; '));
    const value = outcome && JSON.parse(JSON.stringify(outcome.value));
    return {
      index,
      name: phaseName(variant, phase.state.phase),
      kind: phase.state.phase.type,
      status: last ? 'open' : 'processed',
      deadlineAt: null,
      processedAt: last ? null : at,
      stateBefore: phase.state,
      loanActions: [],
      orders: last ? null : orders.map((o) => ({ ...o, text: formatOrder(o.order) })),
      results: value?.results ?? null,
      events: value?.events ?? null,
      disbanded: value?.disbanded ?? null,
      stateAfter: value?.next ?? null,
      submissions: [],
      engineVersion: last ? null : ENGINE_VERSION,
    };
  });
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: at,
    engineVersion: ENGINE_VERSION,
    complete: true,
    game: {
      name,
      variant: variantId as ExportedGame['game']['variant'],
      status: 'active',
      press: 'full',
      anonymous: false,
      deadlines: { movement: 86400, retreat: 43200, adjustment: 43200 },
      maxMissedDeadlines: 2,
      rules,
      powerAssignment: 'random',
      createdAt: at,
      startedAt: at,
      finishedAt: null,
      pausedAt: null,
      outcome: null,
    },
    gameMaster: 'someone-elsewhere',
    players: variant.powers.map((power) => ({ power, username: null, status: 'active', missedDeadlines: 0 })),
    phases,
    press: [{ phaseIndex: 0, fromPower: variant.powers[0], gameMaster: false, sender: null, to: 'all', body: 'Hello from the past.', sentAt: at }],
    loans: [],
    votes: [],
    gmLog: [],
    discardedPhases: [],
  };
}
