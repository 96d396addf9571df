/**
 * The turn sequence: the event phase, initiative (the higher d6 chooses to move first or second), each side's
 * movement (allowances rolled, columns caught in melee forming line, Bottled up's launching, the periplous
 * chasers coming back), the melee phase, the morale phase, rallying; the scenario's goals after each turn, and
 * the post-battle count by table edge when the battle ends.
 */
import { type Edge, edgeStanding, placing, terrainStanding } from '../table/index.ts';
import { landBattleOver, landMelee, landMoves } from './land.ts';
import { bodyOf, changedFrame } from './layout.ts';
import { type BattleLog, standsText } from './log.ts';
import { battleTests, disengage, periplous } from './melee.ts';
import { moralePhase, routMove } from './morale.ts';
import { canMove, obstaclesFor } from './movement.ts';
import { eventPhase, leavingFleet } from './events.ts';
import { RULES } from './rules.ts';
import { type Squadron, type State, body, enemyOf, inBattle, onTable, sideOf, squadronOf, launchable, standCount, standsToFight, tableOf } from './state.ts';
import { conform } from './contact.ts';
import { plural } from '../../text/plural.ts';

const sideName = (state: State, side: string) => sideOf(state, side).name;

/** The scenario's goals, judged between phases: the outcome if the battle is decided. */
export function judge(state: State, byLimit: boolean): { winner: string | null; reason: string } | null {
  const [x, y] = state.sides;
  if (state.leftField) {
    const stays = enemyOf(state, state.leftField);
    return { winner: stays, reason: `${sideName(state, state.leftField)} left the field to ${sideName(state, stays)}` };
  }
  const fighting = (side: string) => state.squadrons.some((q) => q.side === side && !q.freighters && inBattle(q));
  if (!fighting(x.id) && !fighting(y.id)) return { winner: null, reason: 'neither fleet has a squadron left fighting' };
  for (const s of [x, y]) if (!fighting(s.id)) return { winner: enemyOf(state, s.id), reason: `${s.name} has no squadron left fighting` };
  const freighters = state.squadrons.filter((q) => q.freighters);
  if (state.scenario === 'convoy' && freighters.length) {
    const defender = freighters[0].side;
    const attacker = enemyOf(state, defender);
    const out = freighters.filter((q) => q.status === 'gone' && q.exit === state.convoyExit).length;
    const sailing = freighters.filter((q) => onTable(q)).length;
    if (sailing === 0)
      return out > 0
        ? { winner: defender, reason: `${plural(out, 'squadron')} of freighters got away by the ${state.convoyExit} edge` }
        : { winner: attacker, reason: 'every squadron of freighters was taken, sunk or scattered' };
    if (byLimit) return { winner: defender, reason: `night falls with ${plural(sailing + out, 'squadron')} of freighters still safe` };
  }
  if (state.scenario === 'amphibious') {
    const over = landBattleOver(state);
    const invader = state.sides.find((s) => s.role === 'invader')!.id;
    if (over) return { winner: invader, reason: `the land battle is over (${over}) and ${sideName(state, invader)}'s fleet still stands by` };
    if (byLimit) return { winner: invader, reason: `${sideName(state, invader)}'s fleet stood by to the end` };
  }
  if (!byLimit) return null;
  const defender = state.sides.find((s) => s.role === 'defender');
  if (state.scenario === 'defending-land' && defender) return { winner: defender.id, reason: `${defender.name} stood its ground` };
  if (state.scenario === 'bottled-up') {
    const invader = state.sides.find((s) => s.role === 'invader')!;
    return { winner: invader.id, reason: `${invader.name} survived the surprise attack` };
  }
  // Otherwise the fleet that lost the smaller share of its squadrons.
  const share = (side: string) => {
    const s = sideOf(state, side);
    const lostOnes = state.squadrons.filter((q) => q.side === side && !q.freighters && !inBattle(q)).length;
    return s.startSquadrons ? lostOnes / s.startSquadrons : 0;
  };
  const a = share(x.id);
  const b = share(y.id);
  if (a === b) return { winner: null, reason: `the turns ran out with both fleets equally hurt` };
  const winner = a < b ? x : y;
  return { winner: winner.id, reason: `the turns ran out and ${winner.name} lost the smaller share of its squadrons` };
}

/** What the shore a squadron fled onto is to its side (an unknown shore: enemy). */
function standingOfShore(state: State, exit: string, side: string) {
  const t = state.table.terrain.find((x) => `terrain:${x.id}` === exit);
  return t ? terrainStanding(t, side) : 'enemy';
}

/** The post-battle count: routers run on until off the table; each squadron gone is saved or lost by its edge. */
function postBattle(state: State, log: BattleLog): void {
  for (let step = 0; step < 40 && state.squadrons.some((q) => q.status === 'routing'); step++)
    for (const q of state.squadrons) if (q.status === 'routing') routMove(state, q, log);
  for (const q of state.squadrons) if (q.status === 'routing') q.status = 'gone';
  for (const side of state.sides) {
    const mine = state.squadrons.filter((q) => q.side === side.id);
    let savedHalves = 0;
    let lostHalves = 0;
    const words: string[] = [];
    for (const q of mine) {
      const startLoss = q.startHalves - q.halves;
      lostHalves += startLoss;
      if (q.status === 'destroyed') {
        words.push(`${q.name} destroyed`);
        continue;
      }
      if (q.status !== 'gone' || q.exit === null) {
        savedHalves += q.halves;
        words.push(`${q.name} ${state.leftField === side.id && inBattle(q) ? 'withdraws' : 'holds the field'} with ${standsText(q.halves)}`);
        continue;
      }
      if (q.freighters && q.exit === state.convoyExit) {
        savedHalves += q.halves;
        words.push(`${q.name} got away`);
        continue;
      }
      const standing = q.exit.startsWith('terrain:')
        ? standingOfShore(state, q.exit, side.id)
        : q.exit === 'chase'
          ? 'enemy'
          : edgeStanding(tableOf(state), side.id, q.exit as Edge);
      if (standing === 'friendly') {
        savedHalves += q.halves;
        words.push(`${q.name} routed to a friendly ${q.exit.startsWith('terrain:') ? 'shore' : 'edge'}: saved`);
      } else if (standing === 'enemy') {
        lostHalves += q.halves;
        words.push(
          `${q.name} ${q.exit === 'chase' ? 'was lost in the chase' : `routed to an enemy ${q.exit.startsWith('terrain:') ? 'shore' : 'edge'}`}: lost`,
        );
      } else {
        // A neutral edge: each stand left must roll 7+ on 2d6 to survive the voyage home.
        const rolls: string[] = [];
        let kept = 0;
        for (let s = 0; s < standCount(q); s++) {
          const faces = log.d6s(RULES.postBattle.dice, `${q.name} stand ${s + 1} voyage home`);
          const total = faces.reduce((a, b) => a + b, 0);
          const ok = total >= RULES.postBattle.neutralSurvivalOn;
          rolls.push(`${faces.join('+')}=${total}${ok ? ' home' : ' lost'}`);
          if (ok) kept += Math.min(2, q.halves - 2 * s);
        }
        savedHalves += kept;
        lostHalves += q.halves - kept;
        log.line(`${q.name} routed off a neutral edge: each stand needs ${RULES.postBattle.neutralSurvivalOn}+ on 2d6 to get home: ${rolls.join(', ')}.`, {
          name: 'Post-battle count',
          row: `neutral edge: ${RULES.postBattle.neutralSurvivalOn}+ per stand`,
        });
        words.push(`${q.name} brings ${standsText(kept)} home`);
      }
    }
    log.line(`Post-battle count for ${side.name}: ${words.join('; ')}. Saved ${standsText(savedHalves)}, lost ${standsText(lostHalves)}.`);
  }
}

export function finish(state: State, outcome: { winner: string | null; reason: string }, log: BattleLog): void {
  state.phase = 'over';
  state.acting = null;
  state.second = null;
  postBattle(state, log);
  state.outcome = outcome;
  log.line(`The battle is over: ${outcome.winner ? `${sideName(state, outcome.winner)} wins` : 'nobody wins'} (${outcome.reason}).`);
}

/** The start of a turn: the event phase, then the initiative roll. */
export function beginTurn(state: State, log: BattleLog): void {
  state.turn++;
  if (state.turn > state.turnLimit) {
    state.turn = state.turnLimit;
    // The rules set no limit: a battle ends when a beaten fleet leaves the field on a 6-8. Night at the project's
    // limit ends it as that event would, so a fleet that lost half its squadrons or more is not judged the winner.
    const beaten = leavingFleet(state, log);
    if (beaten) {
      state.leftField = beaten;
      log.line(`Night falls after turn ${state.turn}: ${sideName(state, beaten)} has lost half its squadrons or more and leaves the field.`);
      finish(state, judge(state, false)!, log);
      return;
    }
    finish(state, judge(state, true) ?? { winner: null, reason: 'the turns ran out' }, log);
    return;
  }
  const leaving = eventPhase(state, log);
  if (leaving) {
    state.leftField = leaving;
    log.line(`${sideName(state, leaving)} has lost half its squadrons or more and leaves the field.`);
    finish(state, judge(state, false)!, log);
    return;
  }
  for (;;) {
    const [x, y] = state.sides;
    const dx = log.roll(`${x.name} initiative`);
    const dy = log.roll(`${y.name} initiative`);
    if (dx === dy) {
      log.line(`Initiative: ${x.name} ${dx}, ${y.name} ${dy}: a tie, roll again.`);
      continue;
    }
    const winner = dx > dy ? x : y;
    log.line(`Initiative: ${x.name} ${dx}, ${y.name} ${dy}: ${winner.name} chooses whether to move first or second.`);
    state.phase = 'initiative';
    state.acting = winner.id;
    state.second = null;
    return;
  }
}

/** The periplous chasers off the table: each rolls 2d6; one alone on 10+ comes back less 1d3 stands, the other is lost. */
function chasersReturn(state: State, log: BattleLog): void {
  const done = new Set<string>();
  for (const q of state.squadrons) {
    if (q.status !== 'chasing' || done.has(q.id)) continue;
    const other = state.squadrons.find((o) => o.id === q.target && o.status === 'chasing');
    const pair = other ? [q, other] : [q];
    for (const p of pair) done.add(p.id);
    const results = pair.map((p) => {
      const faces = log.d6s(RULES.periplousChase.dice, `${p.name} return from the chase`);
      return { p, total: faces[0] + faces[1], faces };
    });
    const back = results.filter((r) => r.total >= RULES.periplousChase.returnOn);
    const words = results.map((r) => `${r.p.name} ${r.faces.join('+')}=${r.total}`).join(', ');
    if (back.length !== 1) {
      log.line(`The chase off the table goes on: ${words} (${RULES.periplousChase.returnOn}+ for one alone to return).`);
      continue;
    }
    const winner = back[0].p;
    const d = log.roll(`${winner.name} ships lost in the chase`, RULES.periplousChase.standsLostDie);
    winner.halves = Math.max(0, winner.halves - 2 * d);
    for (const p of pair)
      if (p !== winner) {
        p.status = 'gone';
        p.exit = 'chase';
        p.halves = 0;
      }
    if (winner.halves === 0) {
      winner.status = 'destroyed';
      log.line(`${words}: ${winner.name} returns but loses ${plural(d, 'stand')} and has nothing left; the other is lost entirely.`);
      continue;
    }
    winner.status = 'afloat';
    winner.target = null;
    winner.heading = (winner.heading + 180) % 360;
    winner.x = Math.max(0, Math.min(state.table.width, winner.x));
    winner.y = Math.max(0, Math.min(state.table.depth, winner.y));
    // Step it in until it fits on the table.
    const rad = (winner.heading * Math.PI) / 180;
    for (let k = 0; k < 60 && !placing(tableOf(state), body(winner), obstaclesFor(state, winner.id)).ok; k++) {
      winner.x += Math.sin(rad) * 0.5;
      winner.y += Math.cos(rad) * 0.5;
    }
    log.line(
      `${words}: ${winner.name} returns to the table, losing 1d3 = ${plural(d, 'stand')} in the chase (${standsText(winner.halves)} left); ${pair
        .filter((p) => p !== winner)
        .map((p) => p.name)
        .join(', ')} is lost entirely.`,
      { name: 'Periplous chase', row: `${RULES.periplousChase.returnOn}+ returns, less 1d3 stands` },
    );
  }
}

/** A column caught in a frontal melee forms line against the enemy. */
function formLine(state: State, q: Squadron, log: BattleLog): void {
  q.mustFormLine = false;
  if (q.formation !== 'epi-keras' || q.engaged.length === 0) return;
  const enemy = squadronOf(state, q.engaged[0]);
  const was = { x: q.x, y: q.y, heading: q.heading, formation: q.formation };
  const f = changedFrame('epi-keras', 'epi-mias', standCount(q), q, 'right', 'turn');
  q.formation = 'epi-mias';
  Object.assign(q, f);
  // Face the enemy: conform to its side nearest.
  const e = body(enemy);
  const target = conform(body(q), 'epi-mias', standCount(q), e, 'front');
  const others = obstaclesFor(state, q.id, [enemy.id]);
  if (placing(tableOf(state), bodyOf('epi-mias', standCount(q), target), others).ok) Object.assign(q, target);
  else Object.assign(q, was);
  log.line(`${q.name} forms line against ${enemy.name}${q.formation === 'epi-mias' ? '' : ' (no room: it stays in column)'}.`);
}

/** A side's movement begins: allowances rolled for each squadron that may move, columns in melee form line. */
export function beginMovement(state: State, side: string, log: BattleLog): void {
  state.acting = side;
  if (!state.squadrons.some((q) => q.moved)) chasersReturn(state, log);
  for (const q of state.squadrons) if (q.side === side && q.mustFormLine && q.status === 'afloat') formLine(state, q, log);
  const rolled: string[] = [];
  for (const q of state.squadrons) {
    if (q.side !== side || !canMove(q)) continue;
    if (q.freighters) {
      // Downwind the dice together; square across the wind the first alone.
      const faces = log.d6s(RULES.movement.freighterDownwindAverageDice, `${q.name} sailing, average die`);
      const values = faces.map((f) => RULES.averageDie[f - 1]);
      state.allowances[q.id] = values.reduce((a, b) => a + b, 0);
      state.allowances[`${q.id}:across`] = values.slice(0, RULES.movement.freighterCrossAverageDice).reduce((a, b) => a + b, 0);
      rolled.push(
        `${q.name} sails on ${faces.map((f, i) => `d6 ${f}→${values[i]}`).join(' + ')}: ${state.allowances[q.id]}" downwind, ${state.allowances[`${q.id}:across`]}" across`,
      );
    } else {
      const { total, text } = log.averageDice(1, `${q.name} movement`);
      state.allowances[q.id] = total;
      rolled.push(`${q.name} ${text}`);
    }
  }
  if (rolled.length) log.line(`${sideName(state, side)} rolls its average dice for movement (epi mias, unformed, freighters): ${rolled.join('; ')}.`);
  const anchored = state.squadrons.some((q) => q.side === side && launchable(q));
  state.phase = anchored ? 'launch' : 'move';
  if (!anchored && !state.squadrons.some((q) => q.side === side && canMove(q)) && !state.phalanxes.some((p) => p.side === side && !p.destroyed))
    endMovement(state, log);
}

/** The launching roll (Bottled up): after the squadron launched by choice, 2d6 for each still at anchor, 10+ to launch. */
export function launch(state: State, side: string, chosen: string | null, log: BattleLog): void {
  const go = (q: Squadron) => {
    q.status = 'afloat';
    q.heading = (q.heading + 180) % 360;
    q.disordered = true;
    q.launched = true;
    q.formation = 'epi-pollon';
  };
  if (chosen) {
    const q = squadronOf(state, chosen);
    go(q);
    log.line(`${q.name} is launched: epi pollon, disordered, bows offshore.`);
  }
  for (const q of state.squadrons) {
    if (q.side !== side || !launchable(q)) continue;
    const faces = log.d6s(RULES.launching.dice, `${q.name} launching`);
    const total = faces[0] + faces[1];
    const ok = total >= RULES.launching.launchOn;
    if (ok) go(q);
    log.line(`${q.name} launching roll 2d6 ${faces.join('+')} = ${total}: ${ok ? 'launched, epi pollon, disordered, bows offshore' : 'still at anchor'}.`, {
      name: 'Launching',
      row: ok ? `${RULES.launching.launchOn}+: launched` : `below ${RULES.launching.launchOn}: at anchor`,
    });
  }
  state.phase = 'move';
  if (!state.squadrons.some((q) => q.side === side && canMove(q))) endMovement(state, log);
}

/** The end of a side's movement: the other side moves, or the melee and morale phases follow and the next turn begins. */
export function endMovement(state: State, log: BattleLog): void {
  const side = state.acting!;
  landMoves(state, side, log);
  for (const q of state.squadrons)
    if (q.side === side) {
      if (q.status === 'afloat' && !q.moved && q.engaged.length === 0) q.stationary = true;
      q.signalled = null;
    }
  if (state.second) {
    const next = state.second;
    state.second = null;
    beginMovement(state, next, log);
    return;
  }
  // Melee phase: the periplous races test again, then every melee's battle tests.
  for (const q of state.squadrons)
    if (q.status === 'racing' && q.raceTest) {
      const other = state.squadrons.find((o) => o.id === q.target);
      if (other && other.status === 'racing') periplous(state, q, other, log);
      else {
        q.status = 'afloat';
        q.raceTest = false;
        q.target = null;
      }
    }
  if (state.phalanxes.some((p) => p.engaged && !p.destroyed)) landMelee(state, log);
  if (state.squadrons.some((q) => standsToFight(q) && q.engaged.length > 0)) {
    log.line(`Melee phase, turn ${state.turn}.`);
    battleTests(state, log);
    log.line(`Morale phase, turn ${state.turn}.`);
  }
  moralePhase(state, log);
  // Rally: a squadron that stayed still and out of melee all the movement phase recovers from disorder.
  for (const q of state.squadrons) {
    if (q.status === 'afloat' && q.disordered && q.stationary && q.engaged.length === 0) {
      q.disordered = false;
      log.line(`${q.name} stayed still out of melee: it rallies from disorder.`);
    }
    q.moved = false;
    q.stationary = false;
    q.launched = false;
    // Contact stays until a side routs or is destroyed: a squadron at anchor stays in its melee; routers, the
    // destroyed, the gone and the periplous racers and chasers (rushing away, tested again) are out of it.
    if (!standsToFight(q) && q.status !== 'pursuing') disengage(state, q);
  }
  state.allowances = {};
  for (const p of state.phalanxes) p.marched = false;
  const outcome = judge(state, false);
  if (outcome) {
    finish(state, outcome, log);
    return;
  }
  beginTurn(state, log);
}
