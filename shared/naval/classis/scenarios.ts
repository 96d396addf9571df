/**
 * The shipped Classis scenarios, as data: each file is a set-up (setup.ts) naming its source in its own
 * fields. They are checked against the set-up schema by the tests and when a battle is created from one.
 */
import cyprus from './scenarios/cyprus-306bc.json';
import duel from './scenarios/training-duel.json';

export const classisScenarios: Readonly<Record<string, unknown>> = {
  'training-duel': duel,
  'cyprus-306bc': cyprus,
};
