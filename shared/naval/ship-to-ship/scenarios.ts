/** The shipped scenarios, each checked by the set-up schema when it loads. */
import corvus from './scenarios/corvus.json';
import duel from './scenarios/duel.json';
import ptolemy from './scenarios/ptolemy-246.json';
import tyre from './scenarios/tyre-314.json';
import { shippedDataFile } from '../data-file.ts';
import { type Setup, SetupSchema } from './setup.ts';

/** A shipped scenario, checked by the set-up schema as it loads (a broken one fails at once, naming file and place). */
function load(id: string, data: unknown): { id: string; setup: Setup } {
  return { id, setup: shippedDataFile(SetupSchema, data, `ship-to-ship scenario ${id}`) };
}

export const scenarios: readonly { id: string; setup: Setup }[] = [
  load('duel', duel),
  load('corvus', corvus),
  load('ptolemy-246', ptolemy),
  load('tyre-314', tyre),
];
