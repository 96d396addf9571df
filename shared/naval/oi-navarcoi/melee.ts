/**
 * Melee: what contact does at once (a flank or rear attack, or an unformed squadron, Katastrophe; a column hit
 * in front falls into disorder), diekplous and periplous with their four outcomes each, the pairing of squadrons
 * in contact (one against one where possible), and the battle tests with their losses in half stands.
 */
import { type Side, distanceBetween, headingOf, nearestEdge, normalizeHeading, placing, sub, terrainUnder } from '../table/index.ts';
import { conform } from './contact.ts';
import { type Frame, bodyOf } from './layout.ts';
import { type BattleLog, type Modifier, inches, standsText, testText } from './log.ts';
import { fallOutOfFormation, obstaclesFor, settle } from './movement.ts';
import { RULES, rowOf } from './rules.ts';
import { type Squadron, type State, body, qualityMod, shipsMod, squadronOf, standCount, standsToFight, tableOf } from './state.ts';
import { worsen } from './tests.ts';

const rank = (q: Squadron) => RULES.formations[q.formation].meleeRank;

/** Puts two squadrons into melee with each other. */
export function engage(a: Squadron, b: Squadron): void {
  if (!a.engaged.includes(b.id)) a.engaged.push(b.id);
  if (!b.engaged.includes(a.id)) b.engaged.push(a.id);
}

/** Takes a squadron out of every melee (routed, destroyed, gone). */
export function disengage(state: State, q: Squadron): void {
  for (const id of q.engaged) {
    const o = state.squadrons.find((x) => x.id === id);
    if (o) o.engaged = o.engaged.filter((x) => x !== q.id);
  }
  q.engaged = [];
}

/** A squadron caught at a flank or in the rear, or fighting unformed: Katastrophe, and its first battle test fails. */
function katastrophe(state: State, victim: Squadron, attacker: Squadron, log: BattleLog, why: string): void {
  fallOutOfFormation(state, victim);
  victim.katastrophe = true;
  victim.autoFail = true;
  // A squadron itself caught at a flank or unformed gains nothing over its enemy.
  victim.flankAttacker = false;
  if (!attacker.katastrophe) attacker.flankAttacker = true;
  log.line(`${victim.name} ${why}: it is unformed, fails its first battle test and will test morale with Katastrophe.`);
}

/** What contact does at once, once the attacker is in place against the side it met. */
export function contactMade(state: State, attacker: Squadron, target: Squadron, side: Side, log: BattleLog): void {
  engage(attacker, target);
  if (side !== 'front' && target.formation !== 'kyklos')
    katastrophe(state, target, attacker, log, side === 'rear' ? 'is taken in the rear' : `is taken in its ${side} flank`);
  else if (target.formation === 'unformed') katastrophe(state, target, attacker, log, 'is attacked unformed and fights as if flanked');
  if (attacker.formation === 'unformed' && !attacker.autoFail) katastrophe(state, attacker, target, log, 'attacks unformed and fights as if flanked');
  for (const [q, front] of [
    [target, side === 'front'],
    [attacker, true],
  ] as const)
    if (q.formation === 'epi-keras' && front) {
      if (!q.disordered) q.disordered = true;
      q.mustFormLine = true;
      log.line(`${q.name} is caught in column in a frontal melee: disordered, it forms line against the enemy next movement phase.`);
    }
}

/** A diekplous or periplous test: 2d6, 6 or more; crew quality, ships, disorder. */
function specialTest(q: Squadron, what: string, log: BattleLog): { pass: boolean; text: string } {
  const faces = log.d6s(RULES.specialAttack.dice, `${q.name} ${what}`);
  const mods: Modifier[] = [
    { name: q.quality.replace('-', ' '), value: qualityMod(q) },
    { name: `${q.ships} ships`, value: shipsMod(q) },
  ];
  if (q.disordered) mods.push({ name: 'disordered', value: RULES.battleTest.disorderedModifier });
  const { total, text } = testText(faces, mods);
  return { pass: total >= RULES.specialAttack.passOn, text: `${q.name} ${text}: ${total >= RULES.specialAttack.passOn ? 'success' : 'failure'}` };
}

const outcomeRow = (a: boolean, d: boolean) =>
  a && d ? 'both succeed' : !a && !d ? 'both fail' : a ? 'only the attacker succeeds' : 'only the defender succeeds';

function place(state: State, q: Squadron, frame: Frame): boolean {
  const ok = placing(tableOf(state), bodyOf(q.formation, standCount(q), frame), obstaclesFor(state, q.id)).ok;
  if (ok) Object.assign(q, { x: frame.x, y: frame.y, heading: frame.heading });
  return ok;
}

/** Conform `q` in `formation` to a side of `target`, sliding along it for room; false if it does not fit. */
function conformTo(state: State, q: Squadron, target: Squadron, side: Side): boolean {
  const t = body(target);
  for (const slide of [0, 1, -1, 2, -2, 3, -3, 5, -5, 8, -8]) if (place(state, q, conform(body(q), q.formation, standCount(q), t, side, slide))) return true;
  return false;
}

/**
 * The diekplous, declared by a squadron in epi pollon now in contact with the front of an enemy in epi mias not
 * already in melee.
 */
export function diekplous(state: State, attacker: Squadron, target: Squadron, log: BattleLog): void {
  const a = specialTest(attacker, 'diekplous', log);
  const d = specialTest(target, 'against the diekplous', log);
  const row = outcomeRow(a.pass, d.pass);
  const table = { name: 'Diekplous', row };
  if (a.pass && d.pass) {
    // Aborted: it backs 6" from the target, facing it, still in epi pollon.
    const away = headingOf(sub(attacker, target));
    const rad = (away * Math.PI) / 180;
    const back = RULES.specialAttack.diekplousAbortInches;
    let moved = 0;
    for (let k = back; k > 0; k -= 0.5)
      if (place(state, attacker, { x: attacker.x + Math.sin(rad) * k, y: attacker.y + Math.cos(rad) * k, heading: attacker.heading })) {
        moved = k;
        break;
      }
    if (moved > 0) {
      log.line(`Diekplous: ${a.text}; ${d.text}. The defence forces ${attacker.name} to abort: it pulls back ${inches(moved)}, facing the enemy.`, table);
      return;
    }
    log.line(`Diekplous: ${a.text}; ${d.text}. ${attacker.name} must abort but has no room to pull back: it stays in contact and fights.`, table);
    engage(attacker, target);
    return;
  }
  if (!a.pass && !d.pass) {
    const wa = worsen(state, attacker);
    const wd = worsen(state, target);
    attacker.formation = 'epi-mias';
    if (!conformTo(state, attacker, target, 'front')) attacker.formation = 'epi-pollon';
    log.line(
      `Diekplous: ${a.text}; ${d.text}. Both botch it: ${attacker.name} ${wa}, ${target.name} ${wd}; ${attacker.name} in ${RULES.formations[attacker.formation].name} against its front, melee.`,
      table,
    );
    contactMade(state, attacker, target, 'front', log);
    return;
  }
  if (a.pass) {
    const was = { x: attacker.x, y: attacker.y, heading: attacker.heading, formation: attacker.formation };
    attacker.formation = 'epi-mias';
    if (conformTo(state, attacker, target, 'rear')) {
      log.line(`Diekplous: ${a.text}; ${d.text}. ${attacker.name} breaks through and turns on ${target.name}'s rear in epi mias: melee.`, table);
      contactMade(state, attacker, target, 'rear', log);
      return;
    }
    Object.assign(attacker, was);
    log.line(`Diekplous: ${a.text}; ${d.text}. ${attacker.name} breaks through but finds no room behind ${target.name}: it fights at its front.`, table);
    contactMade(state, attacker, target, 'front', log);
    return;
  }
  attacker.disordered = true;
  log.line(`Diekplous: ${a.text}; ${d.text}. The attempt fails: ${attacker.name} is disordered and fights in epi pollon at ${target.name}'s front.`, table);
  contactMade(state, attacker, target, 'front', log);
}

/** The flank of `target` away from the nearest land (or from the nearest table edge): "offshore". */
export function offshoreFlank(state: State, target: Squadron): 'left' | 'right' {
  const t = body(target);
  const right = { x: Math.cos((t.heading * Math.PI) / 180), y: -Math.sin((t.heading * Math.PI) / 180) };
  // A point a long way out on each flank: the one farther from land (or from the nearest edge) is offshore.
  const probe = (sign: number) => ({ x: t.x + right.x * sign * 12, y: t.y + right.y * sign * 12 });
  const shoreDistance = (p: { x: number; y: number }) => {
    let best = Number.POSITIVE_INFINITY;
    for (const land of state.table.terrain) for (const c of land.outline) best = Math.min(best, Math.hypot(c.x - p.x, c.y - p.y));
    if (best === Number.POSITIVE_INFINITY) {
      const e = nearestEdge(state.table, p);
      best = e === 'north' ? state.table.depth - p.y : e === 'south' ? p.y : e === 'east' ? state.table.width - p.x : p.x;
    }
    return best;
  };
  return shoreDistance(probe(1)) >= shoreDistance(probe(-1)) ? 'right' : 'left';
}

/** Both turn into column towards offshore and race the same distance: off the table, they chase each other out of sight. */
function race(state: State, attacker: Squadron, target: Squadron, dice: number, log: BattleLog, table: { name: string; row: string }, prefix: string): void {
  const flank = offshoreFlank(state, target);
  const heading = normalizeHeading(target.heading + (flank === 'right' ? 90 : -90));
  const { total, text } = log.averageDice(dice, 'periplous race');
  const words: string[] = [];
  for (const q of [attacker, target]) {
    q.formation = 'epi-keras';
    q.heading = heading;
    const rad = (heading * Math.PI) / 180;
    q.x += Math.sin(rad) * total;
    q.y += Math.cos(rad) * total;
    q.engaged = [];
    // Rushing, it ignores other squadrons but stops short of land.
    for (let k = 0; k < 40 && terrainUnder(tableOf(state), body(q)).length; k++) {
      q.x -= Math.sin(rad) * 0.5;
      q.y -= Math.cos(rad) * 0.5;
    }
    // Off the table once its centre has crossed an edge.
    const edge = nearestEdge(state.table, q);
    const outside = q.x < 0 || q.y < 0 || q.x > state.table.width || q.y > state.table.depth;
    q.status = outside ? 'chasing' : 'racing';
    q.target = q === attacker ? target.id : attacker.id;
    q.raceTest = q === attacker && !outside;
    if (outside) q.exit = edge;
    words.push(`${q.name} ${outside ? `runs off the ${edge} edge` : `is ${inches(total)} on`}`);
  }
  // Turned about their centres, the two columns (and a third squadron in their way) may overlap where they end:
  // each is nudged clear, as players would set the bases down side by side.
  for (const q of [target, attacker]) if (q.status === 'racing') settle(state, q, [], { offTable: true });
  log.line(`${prefix} Both form epi keras towards offshore (${Math.round(heading)}°) and race ${text}: ${words.join('; ')}.`, table);
}

/** The periplous, declared by a squadron in epi mias against one in epi mias or epi pollon, or repeated in a race. */
export function periplous(state: State, attacker: Squadron, target: Squadron, log: BattleLog): void {
  const a = specialTest(attacker, 'periplous', log);
  const d = specialTest(target, 'against the periplous', log);
  const row = outcomeRow(a.pass, d.pass);
  const table = { name: 'Periplous', row };
  const prefix = `Periplous: ${a.text}; ${d.text}.`;
  if (a.pass && d.pass) {
    race(state, attacker, target, 2, log, table, `${prefix} Well executed, but ${target.name} reacts at once.`);
    return;
  }
  if (!a.pass && !d.pass) {
    const wa = worsen(state, attacker);
    const wd = worsen(state, target);
    race(state, attacker, target, 1, log, table, `${prefix} Both manoeuvre poorly (${attacker.name} ${wa}, ${target.name} ${wd}).`);
    return;
  }
  // Squadrons back from a race are afloat again.
  attacker.status = 'afloat';
  if (target.status === 'racing') target.status = 'afloat';
  attacker.target = null;
  target.target = null;
  attacker.raceTest = false;
  if (a.pass) {
    const flank = offshoreFlank(state, target);
    const was = { x: attacker.x, y: attacker.y, heading: attacker.heading, formation: attacker.formation };
    attacker.formation = 'epi-mias';
    if (conformTo(state, attacker, target, flank)) {
      log.line(`${prefix} Executed: ${attacker.name}, in epi mias, comes in square on ${target.name}'s offshore (${flank}) flank: melee.`, table);
      contactMade(state, attacker, target, flank, log);
      return;
    }
    Object.assign(attacker, was);
    log.line(`${prefix} Executed, but there is no room on ${target.name}'s offshore flank: ${attacker.name} fights at its front.`, table);
    if (distanceBetween(body(attacker), body(target)) > 1e-6) conformTo(state, attacker, target, 'front');
    contactMade(state, attacker, target, 'front', log);
    return;
  }
  attacker.disordered = true;
  log.line(`${prefix} Botched: ${attacker.name} is disordered; melee.`, table);
  if (distanceBetween(body(attacker), body(target)) > 1e-6) {
    if (target.formation === 'epi-keras') {
      target.formation = 'epi-mias';
      target.heading = normalizeHeading(headingOf(sub(attacker, target)));
    }
    conformTo(state, attacker, target, 'front');
  }
  contactMade(state, attacker, target, 'front', log);
}

/** Who fights whom this turn: one against one where possible, a spare squadron joining a fight it touches (2 against 1). */
export function pairings(state: State): Map<string, string[]> {
  const fighting = state.squadrons.filter((q) => standsToFight(q) && q.engaged.length > 0).sort((a, b) => a.id.localeCompare(b.id));
  const partner = new Map<string, string>();
  for (const q of fighting) {
    if (partner.has(q.id)) continue;
    const free = q.engaged.filter((e) => !partner.has(e)).sort();
    if (free.length) {
      partner.set(q.id, free[0]);
      partner.set(free[0], q.id);
    }
  }
  const opponents = new Map<string, string[]>();
  const add = (a: string, b: string) => {
    opponents.set(a, [...(opponents.get(a) ?? []), b]);
  };
  for (const [a, b] of partner) add(a, b);
  for (const q of fighting)
    if (!partner.has(q.id)) {
      const foe = q.engaged[0];
      add(q.id, foe);
      add(foe, q.id);
    }
  return opponents;
}

/** The battle tests of the melee phase, losses applied together after all have rolled. */
export function battleTests(state: State, log: BattleLog): void {
  const opponents = pairings(state);
  const losses = new Map<string, number>();
  const t = RULES.battleTest;
  const multiplier = state.fullSize ? RULES.fullSize.lossMultiplier : 1;
  for (const [id, foes] of opponents) {
    const q = squadronOf(state, id);
    const enemies = foes.map((f) => squadronOf(state, f));
    const foeNames = enemies.map((e) => e.name).join(' and ');
    let hits = 0;
    let fail: boolean;
    if (q.autoFail) {
      fail = true;
      log.line(`${q.name} against ${foeNames}: fails its battle test without rolling (flanked, in the rear or unformed).`, {
        name: 'Battle test',
        row: t.results[0].label,
      });
    } else {
      const faces = log.d6s(t.dice, `${q.name} battle test`);
      const mods: Modifier[] = [{ name: q.freighters ? 'freighters green' : q.quality.replace('-', ' '), value: qualityMod(q) }];
      if (q.disordered) mods.push({ name: 'disordered', value: t.disorderedModifier });
      const best = Math.min(...enemies.map(rank));
      if (!q.flankAttacker && rank(q) > best)
        mods.push({
          name: `formation differential (${RULES.formations[q.formation].name} against ${enemies.map((e) => RULES.formations[e.formation].name).join(', ')})`,
          value: best - rank(q),
        });
      const { total, text } = testText(faces, mods);
      const row = rowOf(t.results, total);
      fail = row.enemyLosesHalfStands === 0;
      hits = row.enemyLosesHalfStands * multiplier;
      log.line(
        `${q.name} battle test against ${foeNames}: ${text}: ${fail ? 'failed' : `${foeNames} ${enemies.length > 1 ? 'lose' : 'loses'} ${standsText(hits)}`}.`,
        {
          name: 'Battle test',
          row: row.label,
        },
      );
    }
    if (fail) {
      if (q.flankAttacker) log.line(`${q.name} attacked a flank or rear this turn: its failed test does it no harm.`);
      else {
        q.disordered = true;
        q.testMorale = true;
      }
    }
    // Losses shared equally between the enemies it fought, any odd half to the largest.
    const share = Math.floor(hits / enemies.length);
    let odd = hits - share * enemies.length;
    for (const e of [...enemies].sort((a, b) => b.halves - a.halves)) {
      losses.set(e.id, (losses.get(e.id) ?? 0) + share + (odd > 0 ? 1 : 0));
      if (odd > 0) odd--;
    }
  }
  for (const [id, lossHalves] of losses) {
    if (lossHalves === 0) continue;
    const q = squadronOf(state, id);
    q.halves = Math.max(0, q.halves - lossHalves);
    if (q.halves === 0) {
      log.line(`${q.name} loses ${standsText(lossHalves)}: every stand is gone, the squadron is destroyed.`);
      q.status = 'destroyed';
      disengage(state, q);
    } else log.line(`${q.name} loses ${standsText(lossHalves)}: ${standsText(q.halves)} left.`);
  }
  // A squadron down to one stand against three or more routs; the full-size squadrons test at four stands.
  for (const [id, foes] of opponents) {
    const q = squadronOf(state, id);
    if (!standsToFight(q)) continue;
    const against = foes
      .map((f) => squadronOf(state, f))
      .filter((e) => standsToFight(e))
      .reduce((n, e) => n + e.halves, 0);
    if (q.halves <= t.routAloneStands * 2 && against >= t.routAloneAgainstStands * 2) {
      q.status = 'routing';
      log.line(`${q.name}, down to ${standsText(q.halves)} against ${standsText(against)}, routs.`);
    } else if (state.fullSize && q.halves <= RULES.fullSize.moraleTestAtOrBelowStands * 2) q.testMorale = true;
  }
  for (const q of state.squadrons) {
    q.autoFail = false;
    q.flankAttacker = false;
  }
}
