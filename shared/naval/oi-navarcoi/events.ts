/**
 * The event phase: each player rolls a d6, the sum read on the event table (storms, omens, navarchs killed, a
 * beaten fleet leaving the field); and the leaving of the field itself, with its roll-off when both fleets
 * have lost half their squadrons.
 */
import { type BattleLog, signed } from './log.ts';
import { EVENTS, MORALES, RULES, rowOf } from './rules.ts';
import { type Squadron, type State, lost, onTable, sideOf } from './state.ts';
import { manoeuvreTest } from './tests.ts';

/** Picks one of `list` with a die of its size (no die when there is only one). */
export function pickOne<T extends { name: string }>(list: readonly T[], why: string, log: BattleLog): T {
  if (list.length === 1) return list[0];
  return list[log.roll(`${why}: which of ${list.length}`, list.length) - 1];
}

function shiftMorale(q: Squadron, by: 1 | -1): string {
  const i = MORALES.indexOf(q.morale);
  const j = Math.max(0, Math.min(MORALES.length - 1, i + by));
  if (i === j) return `${q.name} is already ${q.morale.replace('-', ' ')}: no change`;
  q.morale = MORALES[j];
  return `${q.name} is now ${q.morale.replace('-', ' ')}`;
}

/** Whether a fleet has lost half its squadrons or more (rounded up). */
export function beaten(state: State, side: string): boolean {
  const s = sideOf(state, side);
  const lostCount = state.squadrons.filter((q) => q.side === side && !q.freighters && lost(q)).length;
  return s.startSquadrons > 0 && lostCount >= Math.ceil(s.startSquadrons / 2);
}

/** The fleet that leaves the field on a 6-8, if any (a roll-off when both are beaten). */
export function leavingFleet(state: State, log: BattleLog): string | null {
  const b = state.sides.filter((s) => beaten(state, s.id));
  if (b.length === 0) return null;
  if (b.length === 1) return b[0].id;
  const m = RULES.leaveField;
  const count = (side: string, morale: string) => state.squadrons.filter((q) => q.side === side && !q.freighters && onTable(q) && q.morale === morale).length;
  const [x, y] = state.sides;
  const modsOf = (side: typeof x, other: typeof x): { name: string; value: number }[] => {
    const out: { name: string; value: number }[] = [];
    if (side.role === 'defender' && other.role !== 'defender') out.push({ name: 'defending fleet', value: m.defender });
    if (count(side.id, 'determined') > count(other.id, 'determined')) out.push({ name: 'more determined squadrons', value: m.moreDetermined });
    if (count(side.id, 'poorly-motivated') > count(other.id, 'poorly-motivated'))
      out.push({ name: 'more poorly motivated squadrons', value: m.morePoorlyMotivated });
    if (side.admiralKilled) out.push({ name: 'admiral killed', value: m.admiralKilled });
    return out;
  };
  for (;;) {
    const rolls = [x, y].map((side, i) => {
      const die = log.roll(`${side.name} roll-off to stay on the field`);
      const mods = modsOf(side, i === 0 ? y : x);
      const total = die + mods.reduce((a, b) => a + b.value, 0);
      return { side, total, text: `${side.name} d6 ${die}${mods.map((md) => `, ${md.name} ${signed(md.value)}`).join('')}: ${total}` };
    });
    const lower = rolls[0].total < rolls[1].total ? rolls[0] : rolls[1].total < rolls[0].total ? rolls[1] : null;
    log.line(
      `Both fleets have lost half their squadrons: ${rolls.map((r) => r.text).join('; ')}${lower ? `. ${lower.side.name} rolls lower.` : '. A tie: roll again.'}`,
    );
    if (lower) return lower.side.id;
  }
}

/** The event phase; returns the side that leaves the field, if one does. */
export function eventPhase(state: State, log: BattleLog): string | null {
  const [a, b] = [...state.sides].sort((p, q) => (p.fleet === 'alpha' ? -1 : q.fleet === 'alpha' ? 1 : 0));
  const da = log.roll(`${a.name} event die`);
  const db = log.roll(`${b.name} event die`);
  const sum = da + db;
  const row = rowOf(RULES.events, sum);
  const table = { name: 'Event table', row: row.label };
  const fleet = (f: 'alpha' | 'beta') => state.sides.find((s) => s.fleet === f)!;
  const afloat = (side: string) => state.squadrons.filter((q) => q.side === side && q.status === 'afloat');
  const head = `Event phase, turn ${state.turn}: ${a.name} ${da} + ${b.name} ${db} = ${sum}`;
  switch (row.event) {
    case 'storm-all':
    case 'storm-invaders': {
      const invaders = state.sides.filter((s) => s.role === 'invader');
      const hit = row.event === 'storm-all' || invaders.length !== 1 ? state.sides : invaders;
      const squadrons = state.squadrons.filter((q) => q.status === 'afloat' && hit.some((s) => s.id === q.side));
      log.line(
        `${head}: watch for the wind! ${squadrons.length ? `${hit.map((s) => s.name).join(' and ')} test manoeuvre.` : 'Nobody is afloat to test.'}`,
        table,
      );
      for (const q of squadrons) manoeuvreTest(state, q, 'the weather worsens', log);
      return null;
    }
    case 'omen-alpha':
    case 'omen-beta': {
      const side = fleet(row.event === 'omen-alpha' ? 'alpha' : 'beta');
      const list = afloat(side.id).filter((q) => !q.freighters);
      if (!list.length) {
        log.line(`${head}: a good omen for ${side.name}, but no squadron of it is afloat.`, table);
        return null;
      }
      log.line(`${head}: a good omen for ${side.name}.`, table);
      const q = pickOne(list, `${side.name} omen`, log);
      log.line(`The omen lifts ${q.name}'s morale: ${shiftMorale(q, 1)}.`);
      return null;
    }
    case 'navarch-alpha':
    case 'navarch-beta': {
      const side = fleet(row.event === 'navarch-alpha' ? 'alpha' : 'beta');
      const list = afloat(side.id).filter((q) => q.engaged.length > 0);
      if (!list.length) {
        log.line(`${head}: a navarch of ${side.name} is lost, but none of its squadrons is in melee: no effect.`, table);
        return null;
      }
      log.line(`${head}: a navarch of ${side.name} is lost.`, table);
      const q = pickOne(list, `${side.name} navarch`, log);
      const words = shiftMorale(q, -1);
      if (q.strategos) sideOf(state, side.id).admiralKilled = true;
      log.line(`${q.name} loses its navarch${q.strategos ? ', the strategos himself' : ''}: ${words}.`);
      return null;
    }
    case 'leave-field': {
      const anyBeaten = state.sides.some((s) => beaten(state, s.id));
      if (!anyBeaten) {
        log.line(`${head}: no fleet has lost half its squadrons, nothing happens.`, table);
        return null;
      }
      log.line(`${head}: a beaten fleet leaves the field.`, table);
      return leavingFleet(state, log);
    }
  }
  return null;
}

export { EVENTS };
