/**
 * A battle's first state from its set-up: crews not given are rolled on the crew quality chart (1.4), then
 * commanders' ratings not given on the commander quality chart (1.5), side by side with each fleet's admiral
 * first, then the wind if asked (1.9); the cup is filled and the first chit drawn.
 */
import type { Dice } from '../dice.ts';
import type { Facing } from '../hex.ts';
import type { LogLine } from '../ruleset.ts';
import { drawNext, startTurn } from './cup.ts';
import { canAct } from './legal.ts';
import { BattleLog } from './log.ts';
import { RULES, commanderByRating, commanderFromDie, crewFromDie, shipType } from './rules.ts';
import type { Setup } from './setup.ts';
import type { ShipState, SquadronState, State } from './state.ts';
import { facingName } from './words.ts';

export function startBattle(setup: Setup, dice: Dice): { state: State; log: LogLine[] } {
  const log = new BattleLog(dice);
  const ships: ShipState[] = [];
  const squadrons: SquadronState[] = [];
  log.say(`${setup.title}`);
  for (const side of setup.sides) {
    for (const sq of side.squadrons)
      for (const ship of sq.ships) {
        const type = shipType(ship.type)!;
        let crew = ship.crew;
        if (crew === undefined) {
          const die = log.roll(12, `${ship.name} crew`);
          crew = crewFromDie(die);
          const row = RULES.crewChart.find((r) => r.crew === crew)!;
          log.say(`${side.name}: the crew of ${type.name} ${ship.name} rolls ${die}: ${crew}`, { name: 'Crew quality', row: `${row.from}-${row.to}: ${crew}` });
        }
        ships.push({
          id: ship.id,
          name: ship.name,
          type: type.id,
          side: side.id,
          originalSide: side.id,
          squadron: sq.id,
          originalSquadron: sq.id,
          hex: ship.hex,
          facing: ship.facing as Facing,
          crew,
          towers: type.fitted?.towers ?? ship.towers ?? 0,
          engines: type.fitted?.engines ?? ship.engines ?? 0,
          ironHands: ship.ironHands,
          crippled: false,
          permanentlyCrippled: false,
          captured: false,
          sunk: false,
        });
      }
  }
  for (const side of setup.sides)
    side.squadrons.forEach((sq, i) => {
      const role = i === 0 ? 'fleet admiral' : 'commodore';
      let rating = sq.commander.rating;
      if (rating === undefined) {
        const die = log.roll(12, `${sq.commander.name} quality`);
        const row = commanderFromDie(die);
        rating = row.rating;
        log.say(`${side.name}: ${role} ${sq.commander.name} (${sq.name}) rolls ${die}: ${row.quality.replace('-', ' ')}, command radius ${rating}`, {
          name: 'Commander quality',
          row: `${row.from}-${row.to}: ${row.quality.replace('-', ' ')} (${row.rating})`,
        });
      } else {
        log.say(`${side.name}: ${role} ${sq.commander.name} (${sq.name}), ${commanderByRating(rating)!.quality.replace('-', ' ')}, command radius ${rating}`);
      }
      squadrons.push({ id: sq.id, side: side.id, name: sq.name, commander: sq.commander.name, rating, flagship: sq.flagship });
    });
  let wind: Facing | null = null;
  if (setup.wind === 'roll') {
    const die = log.roll(6, 'wind');
    wind = (die - 1) as Facing;
    log.say(`The wind blows from the ${facingName(wind)} (die ${die}); it has no effect on play in Classis`, {
      name: 'Wind direction',
      row: `${die}: ${facingName(wind)}`,
    });
  } else if (setup.wind !== 'none') {
    wind = setup.wind as Facing;
    log.say(`The wind blows from the ${facingName(wind)}; it has no effect on play in Classis`);
  }
  const state: State = {
    ruleset: 'classis',
    title: setup.title,
    sea: setup.sea,
    wind,
    turn: 1,
    turnLimit: setup.turnLimit,
    sides: setup.sides.map((x) => ({ id: x.id, name: x.name, admiralSquadron: x.squadrons[0].id })),
    squadrons,
    ships,
    contacts: [],
    grapples: [],
    cup: [],
    moraleChits: [],
    activation: null,
    outcome: null,
  };
  startTurn(state, log);
  drawNext(state, log, canAct);
  return { state, log: log.lines };
}
