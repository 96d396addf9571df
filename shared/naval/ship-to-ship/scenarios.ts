/** The shipped scenarios, each checked by the set-up schema when it loads. */
import corvus from './scenarios/corvus.json';
import duel from './scenarios/duel.json';
import ptolemy from './scenarios/ptolemy-246.json';
import tyre from './scenarios/tyre-314.json';
import { type Setup, SetupSchema } from './setup.ts';

function load(id: string, data: unknown): { id: string; setup: Setup } {
  const parsed = SetupSchema.safeParse(data);
  // Shipped files are the project's own: a broken one is a bug to fail on at once, naming the file and place.
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`ship-to-ship scenario ${id}, ${issue.path.join('.') || 'set-up'}: ${issue.message}`);
  }
  return { id, setup: parsed.data };
}

export const scenarios: readonly { id: string; setup: Setup }[] = [
  load('duel', duel),
  load('corvus', corvus),
  load('ptolemy-246', ptolemy),
  load('tyre-314', tyre),
];
