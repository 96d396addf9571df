import { describe, it } from 'vitest';
import { fuzzDatcParser, fuzzOrderParser } from './parser-fuzz.ts';

// Quick versions; `npm run soak` runs hundreds of thousands of inputs.
describe('parsers under fuzzing', () => {
  it('the order parser never throws and always gives a reason', () => fuzzOrderParser(20_000), 120_000);
  it('the DATC case-file runner never throws and explains every failure', () => fuzzDatcParser(300), 120_000);
});
