import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDatcText } from '../../../shared/datc/suite.ts';

// Case files written in the other conventions' spellings (Avalon Hill, DPjudge, the python engine, DAIDE,
// webDiplomacy's full names; Diadochi V's Latin and Greek names): every case must pass as its original does.
const files = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.txt'))
  .sort();

describe('DATC cases in other notations', () => {
  it('has the Standard and the Diadochi V files', () => expect(files).toEqual(['diadochi-aliases.txt', 'standard-aliases.txt']));

  const suites = new Map(files.map((f) => [f, runDatcText(readFileSync(join(import.meta.dirname, f), 'utf8'))]));

  for (const [f, suite] of suites) {
    describe(f, () => {
      it('parses', () => expect(suite.fileProblems).toEqual([]));
      it('has cases', () => expect(suite.reports.length).toBeGreaterThanOrEqual(7));
      for (const r of suite.reports) {
        it(`${r.id} ${r.title}`, () => {
          expect(r.problems).toEqual([]);
          expect(r.differences).toEqual([]);
        });
      }
    });
  }

  it('reads every order of a case as the intended order, as the engine writes it back', () => {
    const orders = (f: string, id: string) => suites.get(f)!.reports.find((r) => r.id === id)!.outcome!.results.map((x) => x.order);
    expect(orders('standard-aliases.txt', 'N.12')).toEqual(
      expect.arrayContaining(['A lvp - edi via convoy', 'F nat C A lvp - edi', 'F nrg C A lvp - edi', 'F eng C A edi - lvp']),
    );
    expect(orders('standard-aliases.txt', 'N.4')).toEqual(expect.arrayContaining(['F bul/sc - con', 'F con - bul/ec']));
    expect(orders('standard-aliases.txt', 'N.9')).toEqual(expect.arrayContaining(['F wes S F por - spa/nc', 'F gol S F por - spa/nc']));
  });

  it('DN.7: "A New - Carthage" is an illegal move to Carthage, not a hold in New Carthage', () => {
    const r = suites.get('diadochi-aliases.txt')!.reports.find((x) => x.id === 'DN.7')!;
    expect(r.outcome!.results.filter((x) => x.order === 'A New - Car').map((x) => x.code)).toEqual(['illegal']);
  });
});
