/**
 * The morale phase: the morale tests of squadrons that failed a battle test (one squadron must survive any
 * melee), the rout of those that fail (2 average dice straight away from the enemy each turn until off the
 * table or aground, disordering whoever is within 6" behind, leaving flotsam where they fought), and pursuit.
 */
import { type Base, cornersOf, edgesReached, fromLocal, headingOf, normalizeHeading, overlapping, placing, sub, terrainUnder } from '../table/index.ts';
import { type Frame, STAND_DEPTH, STAND_FRONTAGE, bodyOf } from './layout.ts';
import type { BattleLog } from './log.ts';
import { disengage } from './melee.ts';
import { fallOutOfFormation, obstaclesFor } from './movement.ts';
import { RULES } from './rules.ts';
import { type Squadron, type State, body, squadronOf, standCount, standsToFight, tableOf } from './state.ts';
import { moraleTest, worsen } from './tests.ts';

/** Whether `q` is within `reach` directly behind `router` (in the strip its flight sweeps first). */
function directlyBehind(router: Base, fleeHeading: number, q: Base, reach: number): boolean {
  const strip: Base = { ...router, heading: fleeHeading, length: reach, width: router.width };
  const rad = (fleeHeading * Math.PI) / 180;
  const lead = router.length / 2 + reach / 2;
  const zone = { ...strip, x: router.x + Math.sin(rad) * lead, y: router.y + Math.cos(rad) * lead };
  return overlapping(zone, q);
}

/** Moves a routing squadron 2 average dice on; off the table or aground, it is gone. */
export function routMove(state: State, q: Squadron, log: BattleLog): void {
  const { total, text } = log.averageDice(RULES.rout.averageDice, `${q.name} rout`);
  const rad = (q.heading * Math.PI) / 180;
  q.x += Math.sin(rad) * total;
  q.y += Math.cos(rad) * total;
  const b = body(q);
  const land = terrainUnder(tableOf(state), b);
  if (land.length) {
    q.status = 'gone';
    q.exit = `terrain:${land[0].id}`;
    log.line(`${q.name} routs ${text}" and runs aground on ${land[0].name || land[0].id}.`);
    return;
  }
  const edges = edgesReached(state.table, b);
  const off = cornersOf(b).some((p) => p.x < 0 || p.y < 0 || p.x > state.table.width || p.y > state.table.depth);
  if (edges.length && off) {
    q.status = 'gone';
    q.exit = edges[0];
    log.line(`${q.name} routs ${text}" and leaves the table by the ${edges[0]} edge.`);
    return;
  }
  log.line(`${q.name} routs ${text}".`);
}

/** How finely a pursuer's run is sampled for what is in its way (inches; well under a stand's depth). */
const FOLLOW_STEP = 0.25;

/**
 * Puts a pursuer in contact behind the squadron it chases, unformed: it rows straight after it and stops short
 * of any squadron, land or table edge in its way (bases never overlap; a router is rowed through, as every move
 * does). Two pursuers of one router thus end one behind the other, not on one spot.
 */
function follow(state: State, pursuer: Squadron, router: Squadron): void {
  const r = body(router);
  const behind = fromLocal(r, -r.length / 2 - STAND_DEPTH, 0);
  const from = { x: pursuer.x, y: pursuer.y };
  pursuer.formation = 'unformed';
  const table = tableOf(state);
  const others = obstaclesFor(state, pursuer.id);
  const n = standCount(pursuer);
  const steps = Math.max(1, Math.ceil(Math.hypot(behind.x - from.x, behind.y - from.y) / FOLLOW_STEP));
  let stop: Frame | null = null;
  for (let k = 0; k <= steps; k++) {
    const t = k / steps;
    const frame = { x: from.x + (behind.x - from.x) * t, y: from.y + (behind.y - from.y) * t, heading: r.heading };
    if (!placing(table, bodyOf('unformed', n, frame), others).ok) break;
    stop = frame;
  }
  // Not even turned where it lies is there room: it stays where it is, its stands settling unformed where they fit.
  if (!stop) {
    fallOutOfFormation(state, pursuer);
    return;
  }
  pursuer.x = stop.x;
  pursuer.y = stop.y;
  pursuer.heading = normalizeHeading(stop.heading);
}

/** The morale phase. */
export function moralePhase(state: State, log: BattleLog): void {
  const foesOf = new Map(state.squadrons.map((q) => [q.id, [...q.engaged]]));
  const rolled = new Map<string, number>();
  // Where each tester stood before it routed, so that the survivor of a melee goes back to it (afloat or at anchor).
  const stood = new Map(state.squadrons.map((q) => [q.id, q.status]));
  // a) Morale tests, all at once.
  for (const q of state.squadrons) {
    if (!standsToFight(q) || !q.testMorale) continue;
    const result = moraleTest(q, 'failed battle test', log, { katastrophe: q.katastrophe || q.formation === 'unformed' });
    rolled.set(q.id, result.total);
    if (!result.pass) q.status = 'routing';
  }
  // One squadron must survive any melee: where every squadron of a fight routs, the best morale roll stays.
  const newlyRouted = state.squadrons.filter((q) => q.status === 'routing' && foesOf.get(q.id)!.length > 0 && q.engaged.length > 0);
  for (const q of newlyRouted) {
    const foes = foesOf.get(q.id)!.map((id) => squadronOf(state, id));
    if (foes.length === 0 || !foes.every((f) => f.status === 'routing')) continue;
    const everyone = [q, ...foes];
    const best = everyone.reduce((a, b) => ((rolled.get(b.id) ?? -99) > (rolled.get(a.id) ?? -99) ? b : a));
    const tied = everyone.filter((x) => (rolled.get(x.id) ?? -99) === (rolled.get(best.id) ?? -99));
    let stays = best;
    if (tied.length > 1) {
      // A tie: each rolls a die until one is highest.
      let pool = tied;
      while (pool.length > 1) {
        const rolls = pool.map((x) => ({ x, v: log.roll(`${x.name} tie on morale`) }));
        const top = Math.max(...rolls.map((r) => r.v));
        pool = rolls.filter((r) => r.v === top).map((r) => r.x);
        log.line(`Tie on morale: ${rolls.map((r) => `${r.x.name} ${r.v}`).join(', ')}.`);
      }
      stays = pool[0];
    }
    stays.status = stood.get(stays.id) === 'anchored' ? 'anchored' : 'afloat';
    log.line(`Both sides of the melee would rout: ${stays.name}, with the higher morale roll, stands.`);
  }
  // Newly routed: turn away from the enemy fought, disorder whoever is just behind, leave flotsam.
  const pursuers: Squadron[] = [];
  for (const q of state.squadrons) {
    if (q.status !== 'routing' || foesOf.get(q.id)!.length === 0) continue;
    const foes = foesOf.get(q.id)!.map((id) => squadronOf(state, id));
    if (foes.length) {
      const c = { x: foes.reduce((s, f) => s + f.x, 0) / foes.length, y: foes.reduce((s, f) => s + f.y, 0) / foes.length };
      const away = headingOf(sub(q, c));
      const before = body(q);
      for (const o of state.squadrons)
        if (o !== q && standsToFight(o) && directlyBehind(before, away, body(o), RULES.rout.disorderBehindInches)) {
          const became = worsen(state, o);
          log.line(`${o.name} is within ${RULES.rout.disorderBehindInches}" behind the routing ${q.name}: ${became}.`);
        }
      const mid = { x: (q.x + c.x) / 2, y: (q.y + c.y) / 2 };
      state.flotsam.push({ x: mid.x, y: mid.y, heading: normalizeHeading(q.heading), width: 4 * STAND_FRONTAGE, length: STAND_DEPTH });
      log.line(`${q.name} routs away from ${foes.map((f) => f.name).join(' and ')}; flotsam marks where they fought.`);
      q.heading = normalizeHeading(away);
      for (const f of foes) if (f.status === 'afloat') pursuers.push(f);
    }
    disengage(state, q);
    q.testMorale = false;
  }
  // b) Every routing squadron moves on.
  for (const q of state.squadrons) if (q.status === 'routing') routMove(state, q, log);
  // Those left without an enemy in melee after beating theirs test whether they pursue.
  for (const p of pursuers) {
    if (p.status !== 'afloat' || p.engaged.length > 0) continue;
    const router = state.squadrons.find((r) => r.status === 'routing' && foesOf.get(r.id)!.includes(p.id));
    const result = moraleTest(p, 'to hold back from pursuit', log, { katastrophe: p.katastrophe || p.formation === 'unformed' });
    if (result.pass || !router) continue;
    p.status = 'pursuing';
    p.target = router.id;
    follow(state, p, router);
    log.line(`${p.name} pursues ${router.name} excitedly, unformed.`);
  }
  // Squadrons pursuing from earlier turns test to stop; those that fail follow their quarry.
  for (const p of state.squadrons) {
    if (p.status !== 'pursuing' || pursuers.includes(p)) continue;
    const router = state.squadrons.find((r) => r.id === p.target);
    if (router?.status !== 'routing') {
      p.status = 'afloat';
      p.formation = 'unformed';
      p.target = null;
      log.line(`${p.name} has lost sight of its quarry and stops pursuing, unformed.`);
      continue;
    }
    const result = moraleTest(p, 'to stop pursuing', log, { pursuing: true });
    if (result.pass) {
      p.status = 'afloat';
      p.formation = 'unformed';
      p.target = null;
      log.line(`${p.name} stops pursuing, unformed.`);
    } else {
      follow(state, p, router);
      log.line(`${p.name} keeps pursuing ${router.name}, close behind.`);
    }
  }
  for (const q of state.squadrons) {
    q.testMorale = false;
    q.katastrophe = false;
  }
}
