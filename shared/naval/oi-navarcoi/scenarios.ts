/** The seven shipped scenarios of the rules' first chapter, each checked by the set-up schema when it loads. */
import ambush from './scenarios/ambush.json';
import amphibious from './scenarios/amphibious.json';
import bottledUp from './scenarios/bottled-up.json';
import clash from './scenarios/clash.json';
import convoy from './scenarios/convoy.json';
import defendingLand from './scenarios/defending-land.json';
import meeting from './scenarios/meeting.json';
import { shippedDataFile } from '../data-file.ts';
import { type Setup, SetupSchema } from './setup.ts';

/** A shipped scenario, checked by the set-up schema as it loads (a broken one fails at once, naming file and place). */
function load(id: string, data: unknown): { id: string; setup: Setup } {
  return { id, setup: shippedDataFile(SetupSchema, data, `oi-navarcoi scenario ${id}`) };
}

export const scenarios: readonly { id: string; setup: Setup }[] = [
  load('clash', clash),
  load('defending-land', defendingLand),
  load('meeting', meeting),
  load('ambush', ambush),
  load('bottled-up', bottledUp),
  load('convoy', convoy),
  load('amphibious', amphibious),
];
