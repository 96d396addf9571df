import type { Variant } from '../variant/load.ts';
import { IMPASSABLE, LAND, SEA, normaliseName } from '../variant/load.ts';
import type { PhaseType } from '../state/schema.ts';
import type { UnitType } from '../variant/schema.ts';
import { err, ok, type Result } from '../result.ts';
import { editDistance } from '../text/edit-distance.ts';
import type { Order, UnitRef } from './types.ts';

/**
 * Reads orders in the notation players actually type: case-insensitive, ids or
 * full names, `-`/`->`/`to`, `H`/`S`/`C`/`Z`/`R`, `via convoy`, coasts as
 * `spa/nc`, `spa(nc)`, `spa nc` or `spa north coast`, `Build A par`,
 * `Remove F lon`, `Waive`. The phase type decides what ambiguous words mean
 * (`A mun - boh` is a retreat in a retreat phase, `disband` is a removal in an
 * adjustment phase). Every rejection says what was wrong.
 */
export function parseOrder(variant: Variant, text: string, phase: PhaseType = 'movement'): Result<Order> {
  const typed = tokenize(text);
  if (typed.length === 0) return err('The order is empty.');
  const p = new Parser(variant, typed, phase);
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
  const typed = tokenize(text);
  if (typed.length < 2) return null;
  try {
    return new Parser(variant, typed, phase).unit();
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

/** The words as typed (kept for messages, which quote them); the parser compares them in lower case. */
function tokenize(text: string): string[] {
  // A full stop ending the order, as in a sentence ("A par H."), is no part of it.
  const tokens = text.replace(/\.+\s*$/, '').match(TOKEN) ?? [];
  return tokens.filter((t) => t !== ',' && t !== ';');
}

const MOVE_WORDS = new Set(['-', '->', '=>', '–', '—', 'to', 'm', 'move', 'moves', 'attack', 'attacks', 'retreat', 'retreats']);
const HOLD_WORDS = new Set(['h', 'hold', 'holds', 'stand', 'stands']);
const SUPPORT_WORDS = new Set(['s', 'sup', 'supp', 'support', 'supports']);
const CONVOY_WORDS = new Set(['c', 'con', 'conv', 'convoy', 'convoys']);
const DESTROY_WORDS = new Set(['z', 'destroy', 'destroys']);
const REBUILD_WORDS = new Set(['rebuild', 'rebuilds']);
const DISBAND_WORDS = new Set(['d', 'disband', 'disbands']);
const REMOVE_WORDS = new Set(['remove', 'removes']);
const BUILD_WORDS = new Set(['b', 'build', 'builds']);
const WAIVE_WORDS = new Set(['waive', 'waives', 'waived', 'pass']);
const COAST_WORDS: Record<string, string> = {
  north: 'nc',
  south: 'sc',
  east: 'ec',
  west: 'wc',
  n: 'nc',
  s: 'sc',
  e: 'ec',
  w: 'wc',
};

/** Whether the variant's rules add this kind of movement order (destroy and rebuild, in Diadochi V). */
const addsOrder = (v: Variant, kind: Order['kind']) => v.rules.movementOrders.some((rule) => rule.kinds.includes(kind));

function unitTypeWord(t: string | undefined): UnitType | undefined {
  if (t === 'a' || t === 'army') return 'army';
  if (t === 'f' || t === 'fleet') return 'fleet';
  return undefined;
}

class Parser {
  private i = 0;
  /** The type of the unit last named: what a misspelt province after it is likely meant for. */
  private lastType: UnitType | undefined;
  /** The tokens in lower case, as compared. */
  private readonly t: string[];
  constructor(
    private readonly v: Variant,
    private readonly typed: string[],
    private readonly phase: PhaseType,
  ) {
    this.t = typed.map((token) => token.toLowerCase());
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
  consumedText(): string {
    return this.typed.slice(0, this.i).join(' ');
  }

  order(): Order {
    const first = this.peek()!;
    if (WAIVE_WORDS.has(first)) {
      this.next();
      return { kind: 'waive' };
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
      const viaConvoy = this.viaConvoy();
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
    return false;
  }

  unit(): UnitRef {
    const type = unitTypeWord(this.peek());
    // "A" alone could be a province named "a" on some map; only treat it as a type if a location follows.
    if (type && this.peek(1) !== undefined) this.next();
    this.lastType = type;
    const at = this.location();
    return type ? { type, at } : { at };
  }

  /** A province (longest matching id or name, up to five words) with an optional coast. */
  location(): string {
    const start = this.i;
    let best = -1;
    let bestEnd = start;
    const prefixes = namePrefixes(this.v);
    // The words read so far, normalised as the variant's names are: each word once, joined by one space.
    let key = '';
    for (let j = start, words = 0; j < this.t.length && words < 6; j++) {
      const tok = this.t[j];
      if (tok === '-' || tok === '–') {
        if (words === 0) break;
        continue; // names like "Mid-Atlantic Ocean" contain a hyphen
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
      // No name goes on from here: more words cannot match.
      if (key !== '' && !prefixes.has(key)) break;
    }
    if (best < 0) {
      throw new ParseError(unknownProvinceMessage(this.v, this.typed[start] ?? '', this.lastType));
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
      const w = words.filter((x) => x !== 'coast').join(' ');
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
    // A bare word is a coast only when it cannot be an order word: "spa nc", "stp north coast".
    if (t0 !== undefined && (coasts.includes(t0) || /^[nsew]c$/.test(t0))) {
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
  const guesses = closestProvinces(v, word, type).map((p) => `${v.provinceNames[p]} (${v.provinceIds[p]})`);
  return `"${word}" is not a province on this map${guesses.length ? `; did you mean ${guesses.join(' or ')}?` : '.'}`;
}

/**
 * The provinces whose id or name is nearest to a misspelt word, if any is near enough: at most two, those the
 * unit named before it could stand in first ("A Gad - Mla": Malacca before the Melita Sea).
 */
function closestProvinces(v: Variant, word: string, type: UnitType | undefined): number[] {
  let found: number[] = [];
  let bestD = Infinity;
  const w = normaliseName(word);
  for (let p = 0; p < v.provinceCount; p++) {
    for (const name of [v.provinceIds[p], v.provinceNames[p]]) {
      const n = normaliseName(name);
      const d = editDistance(w, n.length > w.length + 2 ? n.slice(0, w.length) : n);
      const limit = Math.max(1, Math.floor(Math.min(w.length, n.length) / 3));
      if (d > limit || d > bestD) continue;
      if (d < bestD) found = [];
      bestD = d;
      if (!found.includes(p)) found.push(p);
    }
  }
  const kind = (p: number) => v.provinceKind[p];
  const fits = (p: number) => kind(p) !== IMPASSABLE && (type === 'army' ? kind(p) !== SEA : type === 'fleet' ? kind(p) !== LAND : true);
  return [...found.filter(fits), ...found.filter((p) => !fits(p))].slice(0, 2);
}
