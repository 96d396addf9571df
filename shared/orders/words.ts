/**
 * The words of the order notation, in lower case: those of the usual English notation and of the other
 * conventions players bring (DAIDE's three-letter tokens: AMY, FLT, MTO, CTO, RTO, HLD, SUP, CVY, DSB, BLD,
 * REM, WVE). The parser reads them; the variant loader refuses a province alias that is one of them, since
 * the parser could not tell the two apart.
 */

export const ARMY_WORDS = new Set(['a', 'army', 'amy']);
export const FLEET_WORDS = new Set(['f', 'fleet', 'flt']);
export const MOVE_WORDS = new Set(['-', '->', '=>', '–', '—', 'to', 'm', 'move', 'moves', 'attack', 'attacks', 'retreat', 'retreats', 'mto', 'rto', 'cto']);
/** DAIDE's "convoy to": a move that goes by convoy. */
export const CONVOY_TO_WORD = 'cto';
export const HOLD_WORDS = new Set(['h', 'hold', 'holds', 'stand', 'stands', 'hld']);
export const SUPPORT_WORDS = new Set(['s', 'sup', 'supp', 'support', 'supports']);
export const CONVOY_WORDS = new Set(['c', 'con', 'conv', 'convoy', 'convoys', 'cvy']);
export const DESTROY_WORDS = new Set(['z', 'destroy', 'destroys']);
export const REBUILD_WORDS = new Set(['rebuild', 'rebuilds']);
export const DISBAND_WORDS = new Set(['d', 'disband', 'disbands', 'dsb']);
export const REMOVE_WORDS = new Set(['remove', 'removes', 'rem']);
export const BUILD_WORDS = new Set(['b', 'build', 'builds', 'bld']);
export const WAIVE_WORDS = new Set(['waive', 'waives', 'waived', 'pass', 'wve']);
/** Words that join an order's parts: "move to", "via convoy", "by convoy", "north coast". */
export const LINK_WORDS = new Set(['to', 'via', 'by', 'coast']);
/** "R": retreat in a retreat phase, rebuild in a movement phase of a variant with rebuilds. */
export const R_WORD = 'r';

/** Coasts as written after a province: "north", "n", DAIDE's "ncs" all mean `nc`. */
export const COAST_WORDS: Readonly<Record<string, string>> = {
  north: 'nc',
  south: 'sc',
  east: 'ec',
  west: 'wc',
  n: 'nc',
  s: 'sc',
  e: 'ec',
  w: 'wc',
  ncs: 'nc',
  scs: 'sc',
  ecs: 'ec',
  wcs: 'wc',
};

/** A word that, standing alone, reads as a coast ("nc", "ncs"). */
export const isCoastAbbreviation = (word: string): boolean => /^[nsew]cs?$/.test(word);

/** Every word the notation reserves (lower case), for the check of a variant's aliases. */
export function isNotationWord(word: string): boolean {
  return (
    [
      ARMY_WORDS,
      FLEET_WORDS,
      MOVE_WORDS,
      HOLD_WORDS,
      SUPPORT_WORDS,
      CONVOY_WORDS,
      DESTROY_WORDS,
      REBUILD_WORDS,
      DISBAND_WORDS,
      REMOVE_WORDS,
      BUILD_WORDS,
      WAIVE_WORDS,
      LINK_WORDS,
    ].some((set) => set.has(word)) ||
    word === R_WORD ||
    word in COAST_WORDS ||
    isCoastAbbreviation(word)
  );
}

/** Characters that end a word of an order: a name containing one could never be read back. */
export const DELIMITER_CHARACTERS = /[()/,:;]|->|=>/;
