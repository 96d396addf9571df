/** The seven shipped scenarios of the rules' first chapter, each checked by the set-up schema when it loads. */
import ambush from './scenarios/ambush.json';
import amphibious from './scenarios/amphibious.json';
import bottledUp from './scenarios/bottled-up.json';
import clash from './scenarios/clash.json';
import convoy from './scenarios/convoy.json';
import defendingLand from './scenarios/defending-land.json';
import meeting from './scenarios/meeting.json';
import { type Setup, SetupSchema } from './setup.ts';

function load(id: string, data: unknown): { id: string; setup: Setup } {
  const parsed = SetupSchema.safeParse(data);
  // Shipped files are the project's own: a broken one is a bug to fail on at once, naming the file and place.
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`oi-navarcoi scenario ${id}, ${issue.path.join('.') || 'set-up'}: ${issue.message}`);
  }
  return { id, setup: parsed.data };
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
