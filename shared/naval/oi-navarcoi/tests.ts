/**
 * The dice tests every phase uses: the manoeuvre test (2d6, 6 or more; crew quality, −2 within 8" of an enemy;
 * a failure disorders, or unforms a squadron already disordered), the morale test (2d6, 6 or more; crew morale,
 * Katastrophe −1, pursuing −2), and a squadron falling into disorder or out of formation.
 */
import { distanceBetween } from '../table/index.ts';
import { BattleLog, type Modifier, testText } from './log.ts';
import { fallOutOfFormation } from './movement.ts';
import { RULES } from './rules.ts';
import { type Squadron, type State, body, moraleMod, onTable, qualityMod } from './state.ts';

/** Disordered, or unformed if it already was. */
export function worsen(state: State, q: Squadron): string {
  if (q.disordered && q.formation !== 'unformed') {
    fallOutOfFormation(state, q);
    return 'unformed';
  }
  q.disordered = true;
  return 'disordered';
}

/** The nearest enemy squadron on the table, in inches (Infinity if none). */
export function nearestEnemy(state: State, q: Squadron): number {
  const mine = body(q);
  let best = Number.POSITIVE_INFINITY;
  for (const o of state.squadrons) if (o.side !== q.side && onTable(o)) best = Math.min(best, distanceBetween(mine, body(o)));
  return best;
}

const qualityName = (q: Squadron, forMovement: boolean) =>
  q.freighters ? (forMovement ? 'freighters well trained' : 'freighters green') : q.quality.replace('-', ' ');

/** A manoeuvre test for `why`: logged with its dice, modifiers and result; a failure applied. Returns whether it passed. */
export function manoeuvreTest(state: State, q: Squadron, why: string, log: BattleLog): boolean {
  const t = RULES.manoeuvreTest;
  const faces = log.d6s(t.dice, `${q.name} manoeuvre test`);
  const mods: Modifier[] = [{ name: qualityName(q, true), value: qualityMod(q, true) }];
  if (nearestEnemy(state, q) <= t.nearEnemyInches + 1e-9) mods.push({ name: `within ${t.nearEnemyInches}" of the enemy`, value: t.nearEnemyModifier });
  const { total, text } = testText(faces, mods);
  const pass = total >= t.passOn;
  if (pass) log.line(`${q.name} manoeuvre test (${why}): ${text}, passed.`, { name: 'Manoeuvre test', row: `${t.passOn} or more: manoeuvre successful` });
  else {
    const became = worsen(state, q);
    log.line(`${q.name} manoeuvre test (${why}): ${text}, failed: ${became} (the manoeuvre is still made).`, {
      name: 'Manoeuvre test',
      row: `${t.passOn - 1} or less: squadron disordered/unformed`,
    });
  }
  return pass;
}

/** A morale test: its total (for "one squadron must survive") and whether it passed. */
export function moraleTest(
  q: Squadron,
  why: string,
  log: BattleLog,
  options: { pursuing?: boolean; katastrophe?: boolean } = {},
): { total: number; pass: boolean } {
  const t = RULES.moraleTest;
  const faces = log.d6s(t.dice, `${q.name} morale test`);
  const mods: Modifier[] = [{ name: q.freighters ? 'freighters poorly motivated' : q.morale.replace('-', ' '), value: moraleMod(q) }];
  if (options.katastrophe) mods.push({ name: 'Katastrophe', value: t.katastropheModifier });
  if (options.pursuing) mods.push({ name: 'pursuing', value: t.pursuingModifier });
  const { total, text } = testText(faces, mods);
  const pass = total >= t.passOn;
  log.line(`${q.name} morale test (${why}): ${text}, ${pass ? 'passed' : 'failed'}.`, {
    name: 'Morale test',
    row: pass ? `${t.passOn} or more: still fighting` : `${t.passOn - 1} or less: squadron routs`,
  });
  return { total, pass };
}

export { BattleLog };
