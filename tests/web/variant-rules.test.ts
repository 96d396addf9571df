/** The rules in brief on the Game tab come from the variant's data: Diadochi V's own rules, little for the standard map. */
import { describe, expect, it } from 'vitest';
import { getVariant } from '../../shared/index.ts';
import { rulesInBrief, supplyTableWords } from '../../web/src/game/variant-rules.ts';

describe('the rules in brief', () => {
  it("names Diadochi V's special centres, coasts, canals and passages from its data, and its own rules", () => {
    const text = rulesInBrief(getVariant('diadochi-v')!).join('\n');
    expect(text).toContain('239 BC follows 240 BC');
    expect(text).toContain('Rome supplies 3 units when Rome holds it, and 1 for anyone else.');
    expect(text).toContain('Athens, Jerusalem and Sidon are special build centres');
    expect(text).toContain('Armenia, Belgica, Illyria and Scythia rebel');
    expect(text).toMatch(/Alexandria, Antioch and Rome cannot be destroyed\./);
    expect(text).toContain('in two seasons in a row rebuilds it');
    expect(text).toContain('At most 2 fleets may be built');
    expect(text).toContain('Aquitania, Larissa and Scythia have two coasts');
    expect(text).toContain('Britain and Dacia are impassable (hatched): no unit may enter.');
    expect(text).toContain('Canals (Alexandria joins Egyptian Sea and Red Sea; Athens joins Aegean Sea and Ionian Sea): a fleet there may come in');
    expect(text).toContain('Gades–Mauretania');
    expect(text).toContain('Sinai–Ptolemais');
    expect(text).toContain('Victory: the first power with 25 units supported by centres it owns (not by loans)');
    // What the Supply tab then refuses is said with the rule: no loan is made or ended during an adjustment.
    expect(text).toContain('Either side may end a loan at any time but during an adjustment');
  });

  it('for Ancient Mediterranean, says what each canal joins: seas, the Nile between its towns, the Baleares and the shores', () => {
    const text = rulesInBrief(getVariant('ancient-mediterranean')!).join('\n');
    expect(text).toContain('Byzantium joins Black Sea and Aegean Sea');
    expect(text).toContain('Memphis joins Alexandria and Thebes');
    expect(text).toContain('Baleares joins Tarraconensis and Saguntum');
    expect(text).toContain('Victory: the first power to hold 18 supply centres.');
  });

  it('for the standard map, names its double coasts and how it is won, and nothing of Diadochi V', () => {
    expect(rulesInBrief(getVariant('standard')!)).toEqual([
      'Bulgaria, Spain and St Petersburg have two coasts: a fleet there says which (for example bul/ec).',
      'Victory: the first power to hold 18 supply centres.',
    ]);
  });
});

describe("the supply table's columns and note", () => {
  const row = { centres: ['a', 'b', 'c', 'd'], selfSupporting: 2 };

  it('for Diadochi V: supply apart from centres (doubles, Rome, loans), and victory by units its own centres support', () => {
    const words = supplyTableWords(getVariant('diadochi-v')!);
    expect(words.supplyColumn).toBe(true);
    expect(words.supplyTitle).toBe('Units its held centres supply: doubles give 2, Rome gives Rome 3; loans included');
    expect(words.victory.header).toBe('Own / 25');
    expect(words.victory.value(row)).toBe(2);
    expect(words.note).toBe("Doubles give 2, Rome gives Rome 3. 25 units supplied by a power's own, unlent centres win.");
  });

  it('for Standard: no Supply column (one unit per centre, no loans), and victory by 18 centres held', () => {
    const words = supplyTableWords(getVariant('standard')!);
    expect(words.supplyColumn).toBe(false);
    expect(words.victory.header).toBe('Towards 18');
    expect(words.victory.value(row)).toBe(4);
    expect(words.note).toBe('18 supply centres win.');
  });
});
