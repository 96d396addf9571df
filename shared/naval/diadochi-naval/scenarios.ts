/** The shipped scenarios (the period fleets of section X, and one squadron a side to learn on), each checked by the set-up schema when it loads. */
import andros from './scenarios/andros-246.json';
import salamis from './scenarios/salamis-306.json';
import clash from './scenarios/squadron-clash.json';
import tyre from './scenarios/tyre-314.json';
import { type Setup, SetupSchema } from './setup.ts';

function load(id: string, data: unknown): { id: string; setup: Setup } {
  const parsed = SetupSchema.safeParse(data);
  // Shipped files are the project's own: a broken one is a bug to fail on at once, naming the file and place.
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`diadochi-naval scenario ${id}, ${issue.path.join('.') || 'set-up'}: ${issue.message}`);
  }
  return { id, setup: parsed.data };
}

export const scenarios: readonly { id: string; setup: Setup }[] = [
  load('squadron-clash', clash),
  load('salamis-306', salamis),
  load('tyre-314', tyre),
  load('andros-246', andros),
];
