/**
 * Fuzzing of the two text parsers players and GMs feed: orders, and DATC
 * case files. Shared by the quick test (thousands of inputs, in `npm test`)
 * and the soak run (hundreds of thousands, `npm run soak`).
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getVariant } from '../../shared/variants.ts';
import { parseOrder } from '../../shared/orders/parse.ts';
import { runDatcText } from '../../shared/datc/suite.ts';

const standard = getVariant('standard')!;
const diadochi = getVariant('diadochi-v')!;
const phases = ['movement', 'retreat', 'adjustment'] as const;

const orderWords = [
  'A',
  'F',
  'army',
  'fleet',
  'par',
  'Paris',
  'bur',
  'spa',
  'spa/nc',
  'stp',
  '(sc)',
  'north',
  'coast',
  'nc',
  '/',
  '(',
  ')',
  '-',
  '->',
  'to',
  'S',
  'supports',
  'C',
  'convoys',
  'H',
  'hold',
  'via',
  'convoy',
  'Z',
  'R',
  'destroy',
  'rebuild',
  'build',
  'remove',
  'disband',
  'waive',
  'Sag',
  'Rom',
  'Aqu/wc',
  'Lar (ec)',
  'EGY',
  'Alx',
  'RED',
  'Mid-Atlantic',
  'Ocean',
  'St.',
  'Petersburg',
  ':',
  'England:',
  '',
  ' ',
  '\t',
  '🙂',
  '\u0000',
];

/** Real orders with characters flipped, dropped, duplicated, or words shuffled in. */
const mutatedOrder = fc
  .tuple(
    fc.array(fc.constantFrom(...orderWords), { maxLength: 10 }),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom('drop', 'dup', 'flip', 'insert')), { maxLength: 4 }),
    fc.string({ maxLength: 3 }),
  )
  .map(([words, edits, junk]) => {
    let s = words.join(' ');
    for (const [at, kind] of edits) {
      const i = s.length === 0 ? 0 : at % s.length;
      if (kind === 'drop') s = s.slice(0, i) + s.slice(i + 1);
      else if (kind === 'dup') s = s.slice(0, i) + s.charAt(i) + s.slice(i);
      else if (kind === 'flip') s = s.slice(0, i) + String.fromCharCode(s.charCodeAt(i) ^ 1) + s.slice(i + 1);
      else s = s.slice(0, i) + junk + s.slice(i);
    }
    return s;
  });

export function fuzzOrderParser(runs: number): void {
  fc.assert(
    fc.property(
      fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), mutatedOrder),
      fc.constantFrom(...phases),
      fc.boolean(),
      (text, phase, useDiadochi) => {
        const r = parseOrder(useDiadochi ? diadochi : standard, text, phase);
        if (!r.ok && (typeof r.error !== 'string' || r.error.length < 5)) throw new Error(`no reason for ${JSON.stringify(text)}`);
      },
    ),
    { numRuns: runs },
  );
}

const caseFile = readFileSync(join(import.meta.dirname, '../datc/v3.0/6G.txt'), 'utf8');
const lines = caseFile.split('\n');
const keywords = [
  'CASE X',
  'END',
  'PRESTATE',
  'ORDERS',
  'POSTSTATE',
  'POSTSTATE_SAME',
  'PRESTATE_SETPHASE Fall 1901, Retreat',
  'PRESTATE_DISLODGED',
  'PRESTATE_RESULTS',
  'SUCCESS: England: F nth - hol',
  'LOAN_ACTIONS',
  'Carthage: Gad -> Egypt',
  'VARIANT_ALL Diadochi V',
  'VARIANT_ALL Nowhere',
  'England: A xyz',
  'France: F spa/zz - mid',
  'PRESTATE_SUPPLYCENTER_OWNERS',
  'Russia: A war',
];

/** A real case file with lines dropped, duplicated, swapped and replaced by other keywords or junk. */
const mutatedCaseFile = fc
  .array(fc.tuple(fc.nat(), fc.constantFrom('drop', 'dup', 'swap', 'keyword', 'junk'), fc.constantFrom(...keywords), fc.string({ maxLength: 20 })), {
    minLength: 1,
    maxLength: 12,
  })
  .map((edits) => {
    const out = [...lines];
    for (const [at, kind, keyword, junk] of edits) {
      const i = at % out.length;
      if (kind === 'drop') out.splice(i, 1);
      else if (kind === 'dup') out.splice(i, 0, out[i]);
      else if (kind === 'swap') [out[i], out[(i + 7) % out.length]] = [out[(i + 7) % out.length], out[i]];
      else if (kind === 'keyword') out.splice(i, 0, keyword);
      else out[i] = junk;
    }
    return out.join('\n');
  });

export function fuzzDatcParser(runs: number): void {
  fc.assert(
    fc.property(fc.oneof(mutatedCaseFile, fc.string({ maxLength: 200 })), (text) => {
      const suite = runDatcText(text);
      for (const r of suite.reports)
        if (!r.passed && r.problems.length === 0 && r.differences.length === 0) throw new Error(`case ${r.id} failed without saying why`);
    }),
    { numRuns: runs },
  );
}
