/**
 * Which enemy each of the computer opponent's squadrons rows for. Left to itself every squadron made for the enemy
 * nearest it (or most worth it), so that two or three piled up on one enemy, often one already held in melee by a
 * squadron of ours, and jammed on each other's way while other enemies lay free to the end of the battle. Here the
 * squadrons free to move are given enemies one by one, the pair with the shortest rowing (round the land, less
 * what reaching the enemy is worth) first, each enemy costing more for every squadron of ours already on it, in
 * melee with it or sent to it; each squadron then closes by its own enemy's field.
 */
import { type Field, approachField } from './opponent-field.ts';
import { type Squadron, type State, body, onTable } from './state.ts';

/** Inches of rowing an enemy costs more for each squadron of ours already fighting it or sent to it. */
const CROWDED = 12;

/** A squadron's own enemy, and the field it closes on it by. */
export interface Assignment {
  readonly enemy: string;
  readonly field: Field;
}

/** The enemy each of `movers` is sent to, keyed by squadron id (none when no enemy can be reached). */
export function assignEnemies(state: State, side: string, movers: readonly Squadron[], worth: (e: Squadron) => number): Map<string, Assignment> {
  const enemies = state.squadrons.filter((e) => e.side !== side && onTable(e));
  const out = new Map<string, Assignment>();
  if (enemies.length === 0 || movers.length === 0) return out;
  const fields = new Map(enemies.map((e) => [e.id, approachField(state, side, worth, e.id)]));
  const load = new Map(enemies.map((e) => [e.id, 0]));
  for (const q of state.squadrons) if (q.side === side && onTable(q)) for (const id of q.engaged) if (load.has(id)) load.set(id, load.get(id)! + 1);
  const rowing = movers.map((q) => enemies.map((e) => fields.get(e.id)!.at(body(q))));
  const left = new Set(movers.map((_, i) => i));
  while (left.size) {
    let best: { i: number; e: number; cost: number } | null = null;
    for (const i of left)
      enemies.forEach((e, k) => {
        const cost = rowing[i][k] + CROWDED * load.get(e.id)!;
        if (Number.isFinite(cost) && (!best || cost < best.cost)) best = { i, e: k, cost };
      });
    if (!best) break;
    const { i, e } = best as { i: number; e: number };
    left.delete(i);
    const id = enemies[e].id;
    load.set(id, load.get(id)! + 1);
    out.set(movers[i].id, { enemy: id, field: fields.get(id)! });
  }
  return out;
}
