/**
 * Adjudication speed per phase type: over every DATC case of the project's
 * suite, and over seeded random games of random legal orders. "full" is the
 * whole engine call (validate the state, read the orders, adjudicate, explain
 * every result, compute the next phase); "core" is the movement resolver
 * alone on orders already checked, the figure comparable with other engines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getVariant } from '../shared/variants.ts';
import { parseDatcFile } from '../shared/datc/format.ts';
import { caseToState } from '../shared/datc/run.ts';
import { variantByName } from '../shared/datc/suite.ts';
import { adjudicate, type SubmittedOrder } from '../shared/game/process.ts';
import { compileBoard } from '../shared/state/board.ts';
import { compileEconomy } from '../shared/game/economy.ts';
import { checkMovementOrder, type MovementIntent } from '../shared/phases/movement/check.ts';
import { parseOrder } from '../shared/orders/parse.ts';
import { adjudicateMovement } from '../shared/phases/movement/resolve.ts';
import { findPower, type Variant } from '../shared/variant/load.ts';
import type { GameState } from '../shared/state/schema.ts';
import { randomGame } from '../tests/support/random-game.ts';
import { sample, summarise, type Figure } from './stats.ts';

interface Phase {
  v: Variant;
  state: GameState;
  orders: SubmittedOrder[];
}

function coreInput(p: Phase): { board: ReturnType<typeof compileBoard> & { ok: true }; intents: MovementIntent[] } | undefined {
  const board = compileBoard(p.v, p.state.units);
  const eco = compileEconomy(p.v, p.state);
  if (!board.ok || !eco.ok) return undefined;
  const intents: MovementIntent[] = [];
  for (const o of p.orders) {
    const order = typeof o.order === 'string' ? parseOrder(p.v, o.order, 'movement') : { ok: true as const, value: o.order };
    if (!order.ok) continue;
    const c = checkMovementOrder(board.value, eco.value, findPower(p.v, o.power), order.value);
    if (c.ok && !intents.some((i) => i.unit === c.value.unit)) intents.push(c.value);
  }
  return { board, intents };
}

function measure(label: string, phases: Phase[], repeat: number): Figure[] {
  const figures: Figure[] = [];
  for (const type of ['movement', 'retreat', 'adjustment'] as const) {
    const of = phases.filter((p) => p.state.phase.type === type);
    if (of.length === 0) continue;
    const full = of.map((p) => sample(() => adjudicate(p.v, p.state, p.orders), repeat));
    figures.push(summarise('engine', `${label}.${type}.full`, full));
    if (type === 'movement') {
      const core = of.map((p) => {
        const c = coreInput(p)!;
        return sample(() => adjudicateMovement(c.board.value, c.intents, p.v.options), repeat * 4);
      });
      figures.push(summarise('engine', `${label}.${type}.core`, core));
    }
  }
  return figures;
}

export function datcPhases(dir: string): Phase[] {
  const out: Phase[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.txt'))
    .sort()) {
    const parsed = parseDatcFile(readFileSync(join(dir, f), 'utf8'));
    if (!parsed.ok) continue;
    for (const c of parsed.value) {
      const v = variantByName(c.variant);
      if (!v) continue;
      const s = caseToState(v, c);
      if (s.ok) out.push({ v, ...s.value });
    }
  }
  return out;
}

export function randomPhases(v: Variant, games: number, phases: number): Phase[] {
  const out: Phase[] = [];
  for (let seed = 1; seed <= games; seed++) for (const p of randomGame(v, seed, phases)) out.push({ v, ...p });
  return out;
}

export function engineBenchmarks(root: string): Figure[] {
  const standard = getVariant('standard')!;
  const figures: Figure[] = [];
  // Warm up the JIT on a handful of games first, so the figures are steady-state.
  for (const p of randomPhases(standard, 3, 40)) adjudicate(p.v, p.state, p.orders);
  figures.push(...measure('standard.datc', datcPhases(join(root, 'tests/datc/v3.0')), 50));
  figures.push(...measure('standard.random-20x100', randomPhases(standard, 20, 100), 20));

  // Diadochi V: 100 provinces, five powers, loans, destroy and rebuild orders.
  const diadochi = getVariant('diadochi-v')!;
  const games = [1, 2, 3, 4, 5].map((seed) => randomGame(diadochi, seed, Infinity, 100).map((p) => ({ v: diadochi, ...p })));
  figures.push(...measure('diadochi.random-5x100y', games.flat(), 10));
  // A whole game of a hundred years (about 300 phases), adjudicated from start to end.
  const whole = games.map((g) => sample(() => g.forEach((p) => adjudicate(p.v, p.state, p.orders)), 3));
  figures.push(summarise('engine', 'diadochi.random-100-years.whole-game', whole));
  return figures;
}
