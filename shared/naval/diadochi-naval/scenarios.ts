/** The shipped scenarios (the period fleets of section X, and one squadron a side to learn on), each checked by the set-up schema when it loads. */
import andros from './scenarios/andros-246.json';
import salamis from './scenarios/salamis-306.json';
import clash from './scenarios/squadron-clash.json';
import tyre from './scenarios/tyre-314.json';
import { shippedDataFile } from '../data-file.ts';
import { type Setup, SetupSchema } from './setup.ts';

/** A shipped scenario, checked by the set-up schema as it loads (a broken one fails at once, naming file and place). */
function load(id: string, data: unknown): { id: string; setup: Setup } {
  return { id, setup: shippedDataFile(SetupSchema, data, `diadochi-naval scenario ${id}`) };
}

export const scenarios: readonly { id: string; setup: Setup }[] = [
  load('squadron-clash', clash),
  load('salamis-306', salamis),
  load('tyre-314', tyre),
  load('andros-246', andros),
];
