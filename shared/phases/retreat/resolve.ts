import type { Board } from '../../state/board.ts';
import type { RetreatIntent } from './check.ts';

/** Which legal retreats succeed: those whose destination no other retreat also chose. */
export function resolveRetreats(v: Board['variant'], intents: readonly RetreatIntent[]): boolean[] {
  const count = new Map<number, number>();
  for (const it of intents)
    if (it.to >= 0) {
      const p = v.locationProvince[it.to];
      count.set(p, (count.get(p) ?? 0) + 1);
    }
  return intents.map((it) => it.to >= 0 && count.get(v.locationProvince[it.to]) === 1);
}
