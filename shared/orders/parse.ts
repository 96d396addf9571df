import type { Variant } from '../variant/load.ts';
import { IMPASSABLE, LAND, SEA, findPower, normaliseName } from '../variant/load.ts';
import type { PhaseType } from '../state/schema.ts';
import type { UnitType } from '../variant/schema.ts';
import { err, ok, type Result } from '../result.ts';
import { editDistance } from '../text/edit-distance.ts';
import type { Order, UnitRef } from './types.ts';
import {
  ARMY_WORDS,
  BUILD_WORDS,
  COAST_WORDS,
  CONVOY_TO_WORD,
  CONVOY_WORDS,
  DESTROY_WORDS,
  DISBAND_WORDS,
  FLEET_WORDS,
  HOLD_WORDS,
  MOVE_WORDS,
  REBUILD_WORDS,
  REMOVE_WORDS,
  SUPPORT_WORDS,
  WAIVE_WORDS,
  isCoastAbbreviation,
  isNotationWord,
} from './words.ts';

/**
 * Reads orders in the notation players actually type: case-insensitive, ids,
 * full names or the variant's aliases (the other conventions' abbreviations,
 * `MAO`, `NWG`, `ECH`), `-`/`->`/`to`, `H`/`S`/`C`/`Z`/`R`, `via convoy`, coasts
 * as `spa/nc`, `spa(nc)`, `spa nc`, `spa n.c.`, `spa NCS` or `spa north coast`,
 * `Build A par`, `Remove F lon`, `Waive`, and DAIDE's bracketed form
 * (`( ENG FLT lon ) MTO nth`). The phase type decides what ambiguous words mean
 * (`A mun - boh` is a retreat in a retreat phase, `disband` is a removal in an
 * adjustment phase). Every rejection says what was wrong.
 */
export function parseOrder(variant: Variant, text: string, phase: PhaseType = 'movement'): Result<Order> {
  const tokens = tokenize(text);
  if (tokens.typed.length === 0) return err('The order is empty.');
  const p = new Parser(variant, tokens, phase);
  try {
    const order = p.order();
    if (!p.done()) return err(`Unexpected "${p.typedAt()}" after the order "${p.consumedText()}".`);
    return ok(order);
  } catch (e) {
    if (e instanceof ParseError) return err(e.message);
    throw e;
  }
}

/**
 * The unit an order begins with ("F Rom" of "F Rom - Etr"), when the rest cannot be read: so that an unreadable
 * order is still known as that unit's. Null when the text does not begin with a unit.
 */
export function leadingUnit(variant: Variant, text: string, phase: PhaseType = 'movement'): UnitRef | null {
  const tokens = tokenize(text);
  if (tokens.typed.length < 2) return null;
  try {
    return new Parser(variant, tokens, phase).unit();
  } catch (e) {
    if (e instanceof ParseError) return null;
    throw e;
  }
}

class ParseError extends Error {}

/**
 * A token: one of the delimiters, or a run of anything else up to the next space or delimiter ("=" alone is no
 * delimiter, "=>" is). One pass over the text: splitting on spaces and then on delimiters cost more than the rest of
 * reading an order.
 */
const TOKEN = /->|=>|[–—\-()/,:;]|(?:=(?!>)|[^\s–—\-()/,:;=])+/g;

interface Tokens {
  /** The words as typed (kept for messages, which quote them); the parser compares them in lower case. */
  typed: string[];
  /** Whether each touches the one before, no space between: the hyphen of "Mid-Atlantic" does, the move of "A New - Carthage" does not. */
  joined: boolean[];
}

function tokenize(text: string): Tokens {
  // A full stop ending the order, as in a sentence ("A par H."), is no part of it.
  const typed: string[] = [];
  const joined: boolean[] = [];
  let end = -1;
  for (const m of text.replace(/\.+\s*$/, '').matchAll(TOKEN)) {
    const touches = m.index === end;
    end = m.index + m[0].length;
    if (m[0] === ',' || m[0] === ';') continue;
    typed.push(m[0]);
    joined.push(touches);
  }
  return { typed, joined };
}

/** Whether the variant's rules add this kind of movement order (destroy and rebuild, in Diadochi V). */
const addsOrder = (v: Variant, kind: Order['kind']) => v.rules.movementOrders.some((rule) => rule.kinds.includes(kind));

function unitTypeWord(t: string | undefined): UnitType | undefined {
  if (t === undefined) return undefined;
  if (ARMY_WORDS.has(t)) return 'army';
  if (FLEET_WORDS.has(t)) return 'fleet';
  return undefined;
}

class Parser {
  private i = 0;
  /** The type of the unit last named: what a misspelt province after it is likely meant for. */
  private lastType: UnitType | undefined;
  /** The tokens in lower case, as compared. */
  private readonly t: string[];
  private readonly typed: string[];
  private readonly joined: boolean[];
  constructor(
    private readonly v: Variant,
    tokens: Tokens,
    private readonly phase: PhaseType,
  ) {
    this.typed = tokens.typed;
    this.joined = tokens.joined;
    this.t = tokens.typed.map((token) => token.toLowerCase());
  }

  /** A province of this map for the examples in reasons: its first home centre. */
  private example(): string {
    const home = this.v.homeOf.findIndex((power) => power >= 0);
    return this.v.provinceIds[Math.max(home, 0)];
  }

  done(): boolean {
    return this.i >= this.t.length;
  }
  peek(k = 0): string | undefined {
    return this.t[this.i + k];
  }
  next(): string | undefined {
    return this.t[this.i++];
  }
  /** The token `k` ahead (or, negative, behind) as the player typed it. */
  typedAt(k = 0): string | undefined {
    return this.typed[this.i + k];
  }
  /** Tokens `from` to `to` as typed, a hyphen kept to the words it joins ("Mid-Atlantic"). */
  typedText(from: number, to: number): string {
    let out = '';
    for (let k = from; k < to; k++) out += (k > from && !this.joined[k] ? ' ' : '') + this.typed[k];
    return out;
  }
  consumedText(): string {
    return this.typed.slice(0, this.i).join(' ');
  }

  order(): Order {
    const first = this.peek()!;
    if (WAIVE_WORDS.has(first)) {
      this.next();
      return { kind: 'waive' };
    }
    // DAIDE names the power waiving: "ENG WVE".
    if (this.t.length === 2 && WAIVE_WORDS.has(this.t[1]) && findPower(this.v, this.typed[0]) >= 0) {
      this.i = 2;
      return { kind: 'waive' };
    }
    // Orders copied from a listing by power ("England: F lon - nth"): the power is whoever gives them, so a name there
    // could only disagree with it.
    const powerNamed = findPower(this.v, this.typed[0]) >= 0 && (this.peek(1) === ':' || (unitTypeWord(this.peek(1)) && this.peek(2) !== undefined));
    if (powerNamed) {
      const rest = this.typedText(this.peek(1) === ':' ? 2 : 1, this.t.length);
      if (rest === '') throw new ParseError(`"${this.typedText(0, this.t.length)}" is a power's name, not an order: the orders go without it.`);
      throw new ParseError(`An order does not name its power: write "${rest}", not "${this.typedText(0, this.t.length)}".`);
    }
    if (BUILD_WORDS.has(first) && (this.phase === 'adjustment' || first !== 'b')) {
      this.next();
      const unitType = unitTypeWord(this.peek());
      if (unitType) this.next();
      this.lastType = unitType;
      if (this.done()) throw new ParseError(`A build needs a province: "Build A ${this.example()}".`);
      return { kind: 'build', ...(unitType ? { unitType } : {}), at: this.location() };
    }
    if (REMOVE_WORDS.has(first) || (this.phase !== 'movement' && DISBAND_WORDS.has(first) && first !== 'd')) {
      this.next();
      if (this.done()) throw new ParseError(`"${this.typedAt(-1)}" needs a unit: "${this.typedAt(-1)} A ${this.example()}".`);
      const unit = this.unit();
      return this.phase === 'retreat' ? { kind: 'disband', unit } : { kind: 'remove', unit };
    }

    const unit = this.unit();
    if (this.done()) {
      if (this.phase === 'movement') return { kind: 'hold', unit };
      // The examples are the player's own unit, as typed.
      const typed = this.consumedText();
      if (this.phase === 'retreat') throw new ParseError(`A retreat order needs a destination ("${typed} - …") or "${typed} disband".`);
      throw new ParseError(`An adjustment order is "Build ${typed}", "Remove ${typed}" or "Waive".`);
    }
    const word = this.next()!;
    const typedWord = this.typedAt(-1);

    // R is "retreat to" in a retreat phase; in a movement phase of a variant whose rules add rebuilds it is the rebuild.
    const rebuildsHere = this.phase === 'movement' && addsOrder(this.v, 'rebuild');
    if (MOVE_WORDS.has(word) || (word === 'r' && !this.done() && !rebuildsHere)) {
      if (this.peek() === 'to') this.next();
      if (this.done()) throw new ParseError(`A move needs a destination after "${typedWord}".`);
      let to = this.location();
      // A convoy path ("A lon - nth - bel") is accepted and ignored (DATC 4.A.6): the last province counts.
      while (this.peek() !== undefined && MOVE_WORDS.has(this.peek()!) && this.peek() !== 'to') {
        this.next();
        to = this.location();
      }
      // DAIDE's CTO is a move by convoy, whether or not the route follows ("VIA ( nth )").
      const viaConvoy = this.viaConvoy() || word === CONVOY_TO_WORD;
      if (this.phase === 'retreat') return { kind: 'retreat', unit, to };
      if (this.phase === 'adjustment') throw new ParseError('Units cannot move in an adjustment phase.');
      return { kind: 'move', unit, to, viaConvoy };
    }
    if (HOLD_WORDS.has(word)) return this.movementOnly({ kind: 'hold', unit }, 'hold');
    if (SUPPORT_WORDS.has(word)) {
      if (this.done()) throw new ParseError('A support needs the unit it supports: "S A mar - bur" or "S A mar".');
      const supported = this.unit();
      if (this.done()) return this.movementOnly({ kind: 'support', unit, supported }, 'support');
      const w = this.next()!;
      if (HOLD_WORDS.has(w)) return this.movementOnly({ kind: 'support', unit, supported }, 'support');
      if (!MOVE_WORDS.has(w)) throw new ParseError(`Expected "-" or "H" after the supported unit, not "${this.typedAt(-1)}".`);
      if (this.peek() === 'to') this.next();
      if (this.done()) throw new ParseError('A support to move needs the destination after "-".');
      const to = this.location();
      this.viaConvoy(); // "S A lon - bel via convoy": the supported move's route does not change the support
      return this.movementOnly({ kind: 'support', unit, supported, to }, 'support');
    }
    if (CONVOY_WORDS.has(word)) {
      if (this.done()) throw new ParseError('A convoy needs the army and its destination: "C A lon - bel".');
      const army = this.unit();
      const w = this.next();
      if (w === undefined || !MOVE_WORDS.has(w)) throw new ParseError('A convoy needs the army\'s destination: "C A lon - bel".');
      if (this.peek() === 'to') this.next();
      if (this.done()) throw new ParseError('A convoy needs the destination after "-".');
      const to = this.location();
      return this.movementOnly({ kind: 'convoy', unit, army, to }, 'convoy');
    }
    if (DESTROY_WORDS.has(word)) return this.movementOnly(this.namesNoPlace({ kind: 'destroy', unit }, 'destroy (Z)', 'destroys'), 'destroy');
    if (REBUILD_WORDS.has(word) || word === 'r') return this.movementOnly(this.namesNoPlace({ kind: 'rebuild', unit }, 'rebuild (R)', 'rebuilds'), 'rebuild');
    if (DISBAND_WORDS.has(word) || REMOVE_WORDS.has(word)) {
      if (this.phase === 'retreat') return { kind: 'disband', unit };
      if (this.phase === 'adjustment') return { kind: 'remove', unit };
      throw new ParseError('Units can only be disbanded in retreat and adjustment phases.');
    }
    if (BUILD_WORDS.has(word) && this.phase === 'adjustment') {
      return { kind: 'build', ...(unit.type ? { unitType: unit.type } : {}), at: unit.at };
    }
    throw new ParseError(
      `"${typedWord}" is not an order word: use H (hold), - (move), S (support), C (convoy)${addsOrder(this.v, 'destroy') ? ', Z (destroy), R (rebuild)' : ''}.`,
    );
  }

  /** A destroy or rebuild acts on the centre the unit stands in: a place after it is refused, the move it may have meant said. */
  private namesNoPlace(order: Order & { unit: UnitRef }, what: string, does: string): Order {
    if (this.done()) return order;
    const unit = this.typed.slice(0, this.i - 1).join(' ');
    const place = this.typedAt();
    const said = `A ${what} names no place: "${unit} ${this.typedAt(-1)}" ${does} the centre the unit stands in.`;
    let own = false;
    try {
      own = this.location().split('/')[0].toLowerCase() === order.unit.at.split('/')[0].toLowerCase();
    } catch {
      // Not a place at all: the move is offered as typed.
    }
    throw new ParseError(own ? said : `${said} A move is "${unit} - ${place}".`);
  }

  private movementOnly(order: Order, what: string): Order {
    if (this.phase !== 'movement') throw new ParseError(`A ${what} order can only be given in a movement phase.`);
    return order;
  }

  private viaConvoy(): boolean {
    if ((this.peek() === 'via' || this.peek() === 'by') && this.peek(1)?.startsWith('conv')) {
      this.i += 2;
      return true;
    }
    // DAIDE: "VIA ( nth nrg )", the fleets of the route; like a route given with dashes, it is not checked.
    if (this.peek() === 'via' && this.peek(1) === '(') {
      const close = this.t.indexOf(')', this.i + 2);
      if (close < 0) throw new ParseError('A convoy route in brackets needs its closing ")".');
      this.i = close + 1;
      return true;
    }
    return false;
  }

  unit(): UnitRef {
    if (this.peek() === '(') return this.unitGroup();
    const type = unitTypeWord(this.peek());
    // "A" alone could be a province named "a" on some map; only treat it as a type if a location follows.
    if (type && this.peek(1) !== undefined) this.next();
    this.lastType = type;
    const at = this.location();
    return type ? { type, at } : { at };
  }

  /**
   * DAIDE's unit in brackets, "( ENG FLT lon )": the power it names is not kept (the unit's place says whose it
   * is, and the order is checked against the board later).
   */
  private unitGroup(): UnitRef {
    this.next();
    if (unitTypeWord(this.peek(1)) && findPower(this.v, this.typedAt() ?? '') >= 0) this.next();
    const type = unitTypeWord(this.peek());
    if (!type) throw new ParseError(`A unit in brackets is "( power type province )", as "( ${this.v.powerAbbreviations[0]} AMY ${this.example()} )".`);
    this.next();
    this.lastType = type;
    const at = this.location();
    if (this.next() !== ')') throw new ParseError('A unit in brackets needs its closing ")".');
    return { type, at };
  }

  /** A province (longest matching id, name or alias, up to five words) with an optional coast; DAIDE's "( spa ncs )" too. */
  location(): string {
    if (this.peek() === '(') {
      this.next();
      const inner = this.location();
      if (this.next() !== ')') throw new ParseError('A place in brackets needs its closing ")".');
      return inner;
    }
    const start = this.i;
    let best = -1;
    let bestEnd = start;
    const prefixes = namePrefixes(this.v);
    // The words read so far, normalised as the variant's names are: each word once, joined by one space.
    let key = '';
    // Where the words that could still be (the start of) a name end: what a message quotes when none is one.
    let readEnd = start;
    for (let j = start, words = 0; j < this.t.length && words < 6; j++) {
      const tok = this.t[j];
      if (tok === '-' || tok === '–') {
        // Names like "Mid-Atlantic Ocean" contain a hyphen, written without spaces; "A New - Carthage" is a move.
        if (words > 0 && this.joined[j] && this.joined[j + 1]) continue;
        break;
      }
      if (tok === '(' || tok === ')' || tok === '/' || tok === ':' || tok === '->' || tok === '=>') break;
      words++;
      const word = normaliseName(tok);
      if (word !== '') key = key === '' ? word : `${key} ${word}`;
      const p = this.v.provinceByName.get(key);
      if (p !== undefined) {
        best = p;
        bestEnd = j + 1;
      }
      // No name goes on from here: more words cannot match. The word that ended it is quoted unless it is a word of the notation.
      if (key !== '' && !prefixes.has(key)) {
        if (readEnd === start || !isNotationWord(tok)) readEnd = j + 1;
        break;
      }
      readEnd = j + 1;
    }
    if (best < 0) {
      throw new ParseError(unknownProvinceMessage(this.v, this.typedText(start, readEnd), this.lastType));
    }
    this.i = bestEnd;
    const id = this.v.provinceIds[best];
    const coast = this.coast(best);
    return coast ? `${id}/${coast}` : id;
  }

  /** An optional coast after a province; unknown or irrelevant coasts are ignored (DATC 4.B.6). */
  private coast(p: number): string | undefined {
    const coasts = this.v.coasts[p].map((l) => this.v.locationIds[l].split('/')[1]);
    const read = (words: string[]): string | undefined => {
      // "n.c." is "nc".
      const w = words
        .filter((x) => x !== 'coast')
        .join(' ')
        .replace(/\./g, '');
      const c = COAST_WORDS[w] ?? w;
      return coasts.includes(c) ? c : undefined;
    };
    const t0 = this.peek();
    if (t0 === '/') {
      this.next();
      const words = [this.next() ?? ''];
      if (this.peek() === 'coast') words.push(this.next()!);
      return read(words);
    }
    if (t0 === '(') {
      this.next();
      const words: string[] = [];
      while (!this.done() && this.peek() !== ')' && words.length < 3) words.push(this.next()!);
      if (this.peek() !== ')') throw new ParseError('A coast in brackets needs its closing ")".');
      this.next();
      return read(words);
    }
    // A bare word is a coast only when it cannot be an order word: "spa nc", "spa n.c.", "stp north coast".
    if (t0 !== undefined && (coasts.includes(t0) || isCoastAbbreviation(t0.replace(/\./g, '')))) {
      this.next();
      return read([t0]);
    }
    if (t0 !== undefined && COAST_WORDS[t0] && t0.length > 1 && this.peek(1) === 'coast') {
      this.i += 2;
      return read([t0]);
    }
    return undefined;
  }
}

const prefixesOf = new WeakMap<Variant, Set<string>>();

/** Every name of a province (normalised) and each of its first words: what a longer name may start with. */
function namePrefixes(v: Variant): Set<string> {
  let prefixes = prefixesOf.get(v);
  if (!prefixes) {
    prefixes = new Set();
    for (const name of v.provinceByName.keys()) {
      const words = name.split(' ');
      for (let k = 1; k <= words.length; k++) prefixes.add(words.slice(0, k).join(' '));
    }
    prefixesOf.set(v, prefixes);
  }
  return prefixes;
}

function unknownProvinceMessage(v: Variant, word: string, type: UnitType | undefined): string {
  if (!word) return 'A province is missing.';
  const guesses = closestProvinces(v, word, type).map(({ province: p, spelling }) => {
    const also = spelling === undefined ? '' : `, also ${spelling}`;
    return `${v.provinceNames[p]} (${v.provinceIds[p]}${also})`;
  });
  return `"${word}" is not a province on this map${guesses.length ? `; did you mean ${guesses.join(' or ')}?` : '.'}`;
}

/**
 * The provinces whose id, name or alias is nearest to a misspelt word, if any is near enough: at most two. Among
 * equally near, those whose spelling is nearest in length first ("NOR": Norway before North Africa, both begin
 * so), then those the unit named before it could stand in ("A Gad - Mla": Malacca before the Melita Sea).
 * `spelling` is the alias that came nearest, when it was one, so the message can show what the player reached for.
 */
function closestProvinces(v: Variant, word: string, type: UnitType | undefined): { province: number; spelling?: string }[] {
  const w = normaliseName(word);
  // Per province, its nearest spelling: edit distance, then difference in length.
  const nearest = new Map<number, { d: number; length: number; spelling?: string }>();
  for (let p = 0; p < v.provinceCount; p++) {
    const aliases = v.data.provinces[p].aliases ?? [];
    const spellings: [string, boolean][] = [[v.provinceIds[p], false], [v.provinceNames[p], false], ...aliases.map((a): [string, boolean] => [a, true])];
    for (const [name, isAlias] of spellings) {
      const n = normaliseName(name);
      // A long name is compared by its beginning: "Gulf of Bo" is on its way to the Gulf of Bothnia.
      const d = editDistance(w, n.length > w.length + 2 ? n.slice(0, w.length) : n);
      const limit = Math.max(1, Math.floor(Math.min(w.length, n.length) / 3));
      if (d > limit) continue;
      const length = Math.abs(n.length - w.length);
      const prev = nearest.get(p);
      if (!prev || d < prev.d || (d === prev.d && length < prev.length)) nearest.set(p, { d, length, ...(isAlias ? { spelling: name } : {}) });
    }
  }
  const bestD = Math.min(...[...nearest.values()].map((x) => x.d));
  const found = [...nearest]
    .filter(([, x]) => x.d === bestD)
    .sort(([, a], [, b]) => a.length - b.length)
    .map(([province, x]) => ({ province, ...(x.spelling === undefined ? {} : { spelling: x.spelling }) }));
  const kind = (p: number) => v.provinceKind[p];
  const fits = ({ province: p }: { province: number }) =>
    kind(p) !== IMPASSABLE && (type === 'army' ? kind(p) !== SEA : type === 'fleet' ? kind(p) !== LAND : true);
  return [...found.filter(fits), ...found.filter((f) => !fits(f))].slice(0, 2);
}
