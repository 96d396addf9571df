import { describe, expect, it } from 'vitest';
import standardData from '../../maps/standard/variant.json';
import { getVariant } from '../../shared/variants.ts';
import { loadVariant } from '../../shared/variant/checked.ts';
import { parseOrder } from '../../shared/orders/parse.ts';
import { formatOrder } from '../../shared/orders/format.ts';
import type { PhaseType } from '../../shared/state/schema.ts';
import { findProvince, type Variant } from '../../shared/variant/load.ts';

// The notations players bring from other sites and programs: each variant's alias table, the other conventions'
// coast and order words, and the checks that keep an alias from meaning two things.
const standard = getVariant('standard')!;
const diadochi = getVariant('diadochi-v')!;

const read = (v: Variant, text: string, phase: PhaseType = 'movement'): string => {
  const r = parseOrder(v, text, phase);
  if (!r.ok) throw new Error(`"${text}" was rejected: ${r.error}`);
  return formatOrder(r.value);
};
const refusal = (v: Variant, text: string): string => {
  const r = parseOrder(v, text);
  if (r.ok) throw new Error(`"${text}" was accepted as ${formatOrder(r.value)}`);
  return r.error;
};

describe('Standard orders in the other conventions', () => {
  it.each([
    // Avalon Hill rulebook
    ['F MAO - Spa(nc)', 'F mid - spa/nc'],
    ['F NAO - NWG', 'F nat - nrg'],
    ['F LYO - TYS', 'F gol - tys'],
    ['A Par S A Mar - Bur', 'A par S A mar - bur'],
    // DPjudge and the python engine: upper case, coasts after a slash
    ['A PAR - BUR', 'A par - bur'],
    ['F MAO-SPA/NC', 'F mid - spa/nc'],
    ['F NTH C A LON - NWY', 'F nth C A lon - nwy'],
    ['F STP/SC - BOT', 'F stp/sc - bot'],
    ['F ENG - NTH', 'F eng - nth'],
    // DAIDE's province tokens and order words
    ['F ECH - NTH', 'F eng - nth'],
    ['F GOB - BAL', 'F bot - bal'],
    ['F GOL - TYS', 'F gol - tys'],
    ['F MAO - SPA NCS', 'F mid - spa/nc'],
    ['AMY PAR MTO BUR', 'A par - bur'],
    ['( ENG FLT LON ) MTO NTH', 'F lon - nth'],
    ['( FRA AMY MAR ) SUP ( FRA AMY PAR ) MTO BUR', 'A mar S A par - bur'],
    ['( FRA AMY MAR ) SUP ( FRA AMY PAR )', 'A mar S A par'],
    ['( ENG FLT NTH ) CVY ( ENG AMY LON ) CTO NWY', 'F nth C A lon - nwy'],
    ['( ENG AMY LON ) CTO NWY VIA ( NTH )', 'A lon - nwy via convoy'],
    ['( ENG AMY LON ) CTO NWY', 'A lon - nwy via convoy'],
    ['( RUS FLT ( STP SCS ) ) MTO GOB', 'F stp/sc - bot'],
    ['( TUR FLT ANK ) HLD', 'F ank H'],
    // Full names, with and without "Sea", "Gulf of", "Ocean"
    ['F Mid-Atlantic Ocean - Spain (North Coast)', 'F mid - spa/nc'],
    ['F Mid-Atlantic - Brest', 'F mid - bre'],
    ['F North Atlantic - Norwegian', 'F nat - nrg'],
    ['F Gulf of Lyons - Tyrrhenian', 'F gol - tys'],
    ['F Heligoland Bight - Skagerrack', 'F hel - ska'],
    ['F The Channel - Irish', 'F eng - iri'],
    ['F WMed - Gulf of Lion', 'F wes - gol'],
    ['F Eastern Med - Aegean', 'F eas - aeg'],
    ['F Bothnia - Saint Petersburg (south coast)', 'F bot - stp/sc'],
    ['A Istanbul - Izmir', 'A con - smy'],
    ['A Romania - Sevastapol', 'A rum - sev'],
    ['F Marseille - Gulf of Lyon', 'F mar - gol'],
    // Coast spellings
    ['F spa(n.c.) - MAO', 'F spa/nc - mid'],
    ['F Bul e.c. - Bla', 'F bul/ec - bla'],
    ['F stp/north - bar', 'F stp/nc - bar'],
    ['F MAO - spa (south coast)', 'F mid - spa/sc'],
  ])('%s', (text, canonical) => {
    expect(read(standard, text)).toBe(canonical);
  });

  // Each convention's 75 province tokens, as their documentation lists them (differences from our ids in capitals
  // in the comments): every token reads, and each names a different province, so together they cover the map.
  const shared =
    'ADR AEG ALB ANK APU ARM BAL BAR BEL BER BLA BOH BRE BUD BUL BUR CLY CON DEN EAS EDI FIN GAL GAS GRE HEL HOL ION IRI KIE LON LVN LVP MAR MOS MUN NAF NAP NTH NWY PAR PIC PIE POR PRU ROM RUH RUM SER SEV SIL SKA SMY SPA STP SWE SYR TRI TUN TUS TYR TYS UKR VEN VIE WAL WAR WES YOR';
  it.each([
    // DAIDE: ECH, GOB, GOL, MAO, NAO, NWG
    ['DAIDE', `${shared} ECH GOB GOL MAO NAO NWG`],
    // the python engine, DPjudge and the Avalon Hill rulebook: ENG, BOT, LYO, MAO, NAO, NWG
    ['python engine / DPjudge / Avalon Hill', `${shared} ENG BOT LYO MAO NAO NWG`],
  ])('reads every province token of %s as a different province', (_, tokens) => {
    const read = tokens.split(' ').map((t) => findProvince(standard, t));
    expect(read.filter((p) => p < 0)).toEqual([]);
    expect(new Set(read).size).toBe(standard.provinceCount);
  });

  it('reads DAIDE retreats, disbands, builds, removals and waives in their phases', () => {
    expect(read(standard, '( GER FLT KIE ) RTO BER', 'retreat')).toBe('F kie - ber');
    expect(read(standard, '( GER FLT KIE ) DSB', 'retreat')).toBe('F kie disband');
    expect(read(standard, '( RUS FLT ( STP NCS ) ) BLD', 'adjustment')).toBe('Build F stp/nc');
    expect(read(standard, '( ENG AMY LON ) REM', 'adjustment')).toBe('Remove A lon');
    expect(read(standard, 'ENG WVE', 'adjustment')).toBe('Waive');
  });

  it('keeps ENG the English Channel where a province is meant and England where a power is', () => {
    // In DAIDE's unit group the first word is the power; elsewhere ENG is the sea.
    expect(read(standard, '( ENG FLT ENG ) MTO NTH')).toBe('F eng - nth');
    expect(read(standard, 'F NTH S F ENG - LON')).toBe('F nth S F eng - lon');
    // NAO is the North Atlantic, NAF North Africa.
    expect(read(standard, 'F NAO - MAO')).toBe('F nat - mid');
    expect(read(standard, 'A NAF - TUN')).toBe('A naf - tun');
  });

  it('refuses an order copied with its power in front, showing the order without it', () => {
    expect(refusal(standard, 'England: F London - North Sea')).toBe(
      'An order does not name its power: write "F London - North Sea", not "England: F London - North Sea".',
    );
    expect(refusal(standard, 'ENG F LON - NTH')).toBe('An order does not name its power: write "F LON - NTH", not "ENG F LON - NTH".');
    expect(refusal(standard, 'France:')).toBe('"France:" is a power\'s name, not an order: the orders go without it.');
    // ENG before anything but a unit is the sea, and Rome the city.
    expect(read(standard, 'ENG - NTH')).toBe('eng - nth');
    expect(read(diadochi, 'Rome H')).toBe('Rom H');
  });

  it('tells what is wrong in a bracketed unit', () => {
    expect(refusal(standard, '( ENG FLT LON')).toBe('A unit in brackets needs its closing ")".');
    expect(refusal(standard, '( ENG LON ) MTO NTH')).toMatch(/^A unit in brackets is "\( power type province \)"/);
  });
});

describe('Diadochi V orders in full names and other spellings', () => {
  it.each([
    ['A Carthago - Numidia', 'A Car - Num'],
    ['F Alexandreia - Red Sea', 'F Alx - RED'],
    ['A Syracusae - Neapolis', 'A Syr - Nea'],
    ['A Pergamon - Thracia', 'A Per - Thr'],
    ['A Antiochia S A Seleucia - Palmyra', 'A Ant S A Sel - Pmy'],
    ['A Carthago Nova - Saguntum', 'A New - Sag'],
    ['F Larisa (east coast) - Aegean', 'F Lar/ec - AEG'],
    ['F Athenae - Corinth', 'F Ath - Kor'],
    ['F Gulf of Issos - Levantine', 'F ISS - LEV'],
    ['A Jar - Hierosolyma', 'A Jer - Jer'],
  ])('%s', (text, canonical) => {
    expect(read(diadochi, text)).toBe(canonical);
  });

  it('reads "New - Carthage" with spaces as a move, and "New-Carthage" as the one province', () => {
    expect(read(diadochi, 'A New - Carthage')).toBe('A New - Car');
    expect(read(diadochi, 'A New-Carthage H')).toBe('A New H');
  });
});

describe('"did you mean" knows the aliases', () => {
  it('offers the province whose alias is nearest, and says which alias', () => {
    expect(refusal(standard, 'F MOA - Spa')).toMatch(/^"MOA" is not a province on this map; did you mean Mid-Atlantic Ocean \(mid, also MAO\)/);
    expect(refusal(standard, 'F lon - ECN')).toBe('"ECN" is not a province on this map; did you mean English Channel (eng, also ECH)?');
    expect(refusal(standard, 'A Istanbull - Smy')).toBe('"Istanbull" is not a province on this map; did you mean Constantinople (con, also Istanbul)?');
    expect(refusal(diadochi, 'A Carthgo - Num')).toBe('"Carthgo" is not a province on this map; did you mean Carthage (Car, also Carthago)?');
  });

  it('among equally near spellings, offers first those nearest in length', () => {
    // "NOR" (Norway in some old conventions, the Norwegian Sea in others) begins many names; it is neither alias.
    expect(refusal(standard, 'F NOR - NTH')).toBe('"NOR" is not a province on this map; did you mean Norway (nwy) or Norwegian Sea (nrg, also Norwegian)?');
  });

  it('quotes the whole of a misspelt name of several words', () => {
    expect(refusal(standard, 'F Gulf of Lyxn - tys')).toBe('"Gulf of Lyxn" is not a province on this map; did you mean Gulf of Lyon (gol)?');
    expect(refusal(standard, 'F North Atlantik - nrg')).toMatch(/^"North Atlantik" is not a province on this map; did you mean North Atlantic Ocean \(nat/);
  });
});

describe('the variant loader refuses an alias that could mean two things', () => {
  type Data = typeof standardData;
  const withAliases = (aliases: Record<string, string[]>): Data => {
    const d = structuredClone(standardData);
    for (const p of d.provinces) if (aliases[p.id]) (p as { aliases?: string[] }).aliases = aliases[p.id];
    return d;
  };
  const errors = (d: unknown): string[] => {
    const r = loadVariant(d);
    return r.ok ? [] : r.error;
  };

  it('loads the shipped aliases', () => {
    expect(errors(standardData)).toEqual([]);
  });

  it("names both provinces when an alias is another province's id", () => {
    expect(errors(withAliases({ mid: ['MAO', 'NAT'] }))).toEqual([
      'alias "NAT" of mid (Mid-Atlantic Ocean) is already the id "nat" of nat (North Atlantic Ocean): a player typing it could mean either',
    ]);
  });

  it("names both provinces when an alias is another province's alias", () => {
    expect(errors(withAliases({ naf: ['NA', 'North Afr'], nat: ['NAO', 'NA'] }))).toEqual([
      'alias "NA" of nat (North Atlantic Ocean) is already the alias "NA" of naf (North Africa): a player typing it could mean either',
    ]);
  });

  it("names both provinces when an alias is another province's full name, whatever its case and punctuation", () => {
    expect(errors(withAliases({ nth: ['norwegian-SEA'] }))).toEqual([
      'alias "norwegian-SEA" of nth (North Sea) is already the name "Norwegian Sea" of nrg (Norwegian Sea): a player typing it could mean either',
    ]);
  });

  it('refuses an alias the order notation could not read back', () => {
    expect(errors(withAliases({ spa: ['Spa/nc'], por: ['A'], bre: ['Hold'], lon: ['...'] }))).toEqual([
      'bre: alias "Hold" is a word of the order notation (a unit type, an order, a coast), so it cannot also name a province',
      'lon: alias "..." has no letters or digits',
      'por: alias "A" is a word of the order notation (a unit type, an order, a coast), so it cannot also name a province',
      'spa: alias "Spa/nc" contains a character that separates the words of an order ( ( ) / , : ; -> => )',
    ]);
  });
});
