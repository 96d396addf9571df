import { ARMY, isAdjacentArmy } from '../../variant/load.ts';
import type { Board } from '../../state/board.ts';
import { Tables } from '../../state/tables.ts';
import { CONVOY, HOLD, MOVE, SUPPORT, type MovementIntent } from './check.ts';

/**
 * Movement adjudication by the equations of DATC v3.0 section 5.B, solved with
 * Kruijswijk's guess algorithm (5.F, with the recursion-hits refinement so
 * that only the ancestor of a whole cycle applies the backup rule). Circular
 * movement succeeds; convoy paradoxes follow the Szykman rule (the convoys in
 * the paradox fail).
 *
 * Everything is indexed by unit: each unit has exactly one order (units
 * without a legal order hold). Integers and typed arrays only; strings are
 * produced later, by the explanation step.
 */

const UNRESOLVED = 0;
const GUESSING = 1;
const RESOLVED = 2;
const NO_HIT = 0x7fff;

export interface MovementOutcome {
  readonly board: Board;
  /** Effective order kind per unit (illegal orders already became HOLD; orders a variant's rules add are HOLD here). */
  readonly kind: Int16Array;
  readonly intent: readonly (MovementIntent | undefined)[];
  /** MOVE: moved. SUPPORT: given (not cut, and valid). CONVOY: fleet not dislodged and valid. Others: 1. */
  readonly success: Int16Array;
  /** SUPPORT/CONVOY: matched the supported/convoyed unit's actual order. */
  readonly valid: Int16Array;
  /** MOVE: goes by convoy. */
  readonly viaConvoy: Int16Array;
  /** MOVE: has a route (always for land moves; for convoys, an undisrupted chain). */
  readonly path: Int16Array;
  /** CONVOY: failed by the Szykman rule in a paradox. */
  readonly paradox: Int16Array;
  /** Unit that dislodged this one, or -1. */
  readonly dislodgedBy: Int16Array;
  /** Per province: left empty by a standoff (no retreats there). */
  readonly standoff: Int16Array;
  /** Moves into each province, CSR: movesInto[intoStart[p] .. intoStart[p+1]). */
  readonly intoStart: Int16Array;
  readonly movesInto: Int16Array;
  /** Supports given to each unit's order, CSR. */
  readonly supStart: Int16Array;
  readonly supports: Int16Array;
  /** Head-to-head opponent of each move, or -1. */
  readonly headToHead: Int16Array;
  /** Why a move went as it did: its attack strength, the strongest opposition, and the units that stopped it. */
  moveDetail(u: number): { attack: number; opposition: number; against: number[] };
  /** The units that cut a support (attackers with a route, or the unit that dislodged it). */
  cutters(u: number): number[];
  /** Provinces whose outcome was fixed from outside (a battle fought out), or undefined in an ordinary adjudication. */
  readonly decided: Decisions | undefined;
}

/** `Decisions.outcome` of a province nobody decided, and of one decided as a standoff; otherwise the winning power. */
export const UNDECIDED = -1;
export const DECIDED_STANDOFF = -2;

/**
 * Outcomes fixed from outside, per province, in integers (see decided.ts for
 * the rules in words). A move into a decided province by anyone but the
 * winner fails before solving; the winner's moves into it meet no opposition
 * from other powers there (its own units still count); a unit of another
 * power standing there and moving head-to-head against the winner's move
 * fails when that move succeeds. Everything else follows the ordinary rules.
 */
export interface Decisions {
  /** Per province: UNDECIDED, DECIDED_STANDOFF, or the winning power. */
  readonly outcome: Int16Array;
  /** Per province: the winner's one unit whose move counts (its other moves there fail), or -1 for all of them. */
  readonly unit: Int16Array;
}

export interface MovementOptions {
  convoyDisruption: 'all-routes' | 'any-route';
  adjacentConvoy: '2000' | '1971';
}

export function adjudicateMovement(board: Board, intents: readonly MovementIntent[], options: MovementOptions, decided?: Decisions): MovementOutcome {
  return new Movement(board, intents, options, decided).run();
}

class Movement {
  readonly n: number;
  readonly P: number;
  readonly kind: Int16Array;
  readonly dest: Int16Array;
  readonly destLoc: Int16Array;
  readonly target: Int16Array;
  readonly ordered: (MovementIntent | undefined)[];
  readonly valid: Int16Array;
  readonly via: Int16Array;
  readonly h2h: Int16Array;
  readonly intoStart: Int16Array;
  readonly movesInto: Int16Array;
  readonly supStart: Int16Array;
  readonly supports: Int16Array;
  /** Matching convoy fleets per convoyed move, CSR. */
  readonly convStart: Int16Array;
  readonly convoys: Int16Array;
  /** Path of each move once known for good (-1 unknown). */
  readonly pathKnown: Int16Array;
  /** any-route option: fleets on some possible route. */
  onRoute: Int16Array | undefined;

  // Resolution state.
  readonly state: Int16Array;
  readonly res: Int16Array;
  readonly paradox: Int16Array;
  readonly visited: Int16Array;
  readonly inCycle: Int16Array;
  readonly cycle: Int16Array;
  /** Position of each order in `cycle` while it is there. */
  readonly cyclePos: Int16Array;
  cycleLen = 0;
  /** Lowest cycle position a guess-based result in the current recursion depended on. */
  lowestHit = NO_HIT;
  guessBased = false;
  recursionHits = 0;
  /** One allocation per adjudication: every table is a view into a single buffer (shared/state/tables.ts). */
  readonly arena: Tables;

  constructor(
    readonly board: Board,
    intents: readonly MovementIntent[],
    readonly options: MovementOptions,
    readonly decided: Decisions | undefined,
  ) {
    const n = board.count;
    const P = board.variant.provinceCount;
    this.n = n;
    this.P = P;
    const a = (this.arena = new Tables(2 * (26 * n + 4 * P + 16)));
    this.kind = a.int16(n);
    this.dest = a.int16(n, -1);
    this.destLoc = a.int16(n, -1);
    this.target = a.int16(n, -1);
    this.valid = a.int16(n);
    this.via = a.int16(n);
    this.h2h = a.int16(n, -1);
    this.state = a.int16(n);
    this.res = a.int16(n);
    this.paradox = a.int16(n);
    this.visited = a.int16(n);
    this.inCycle = a.int16(n);
    this.cycle = a.int16(n + 1);
    this.cyclePos = a.int16(n);
    this.pathKnown = a.int16(n, -1);
    this.intoStart = a.int16(P + 1);
    this.supStart = a.int16(n + 1);
    this.convStart = a.int16(n + 1);
    this.movesInto = a.int16(n);
    this.supports = a.int16(n);
    this.convoys = a.int16(n);
    this.ordered = new Array(n);
    for (let i = 0; i < intents.length; i++) {
      const it = intents[i];
      const u = it.unit;
      this.ordered[u] = it;
      this.kind[u] = it.kind;
      this.dest[u] = it.dest;
      this.destLoc[u] = it.destLoc;
      this.target[u] = it.target;
      if (it.kind === MOVE && it.viaConvoy) this.via[u] = 1; // ordered "via convoy"; settled in prepare()
    }
    this.prepare();
    if (decided) this.fixDecidedMoves(decided);
  }

  /** A move into a decided province that cannot win it fails, whatever its strength: fixed before solving. */
  private fixDecidedMoves(decided: Decisions): void {
    const { n, kind, dest, board } = this;
    for (let u = 0; u < n; u++) {
      if (kind[u] !== MOVE) continue;
      const d = dest[u];
      const winner = decided.outcome[d];
      if (winner === UNDECIDED) continue;
      if (winner === board.power[u] && (decided.unit[d] < 0 || decided.unit[d] === u)) continue;
      this.state[u] = RESOLVED;
      this.res[u] = 0;
    }
  }

  /** Match supports and convoys to the orders they name, decide convoy routes, and index everything. */
  private prepare(): void {
    const { n, P, kind, dest, target, board, valid, via } = this;
    const v = board.variant;

    // Convoys match a move of the army to the same destination; index them per army.
    const convStart = this.convStart;
    for (let u = 0; u < n; u++) {
      if (kind[u] !== CONVOY) continue;
      const t = target[u];
      if (kind[t] === MOVE && dest[t] === dest[u] && board.type[t] === ARMY) {
        valid[u] = 1;
        convStart[t + 1]++;
      }
    }

    // Which army moves go by convoy (DATC 4.A.3). Non-adjacent ones must; adjacent ones by option.
    for (let u = 0; u < n; u++) {
      if (kind[u] !== MOVE) continue;
      if (board.type[u] !== ARMY) {
        via[u] = 0;
        continue;
      }
      const from = board.province[u];
      if (!isAdjacentArmy(v, from, dest[u])) {
        via[u] = 1;
        continue;
      }
      if (convStart[u + 1] === 0) {
        via[u] = this.options.adjacentConvoy === '2000' ? via[u] : 0;
        continue;
      }
      let ownConvoy = false;
      for (let c = 0; c < n; c++) if (kind[c] === CONVOY && valid[c] && target[c] === u && board.power[c] === board.power[u]) ownConvoy = true;
      if (this.options.adjacentConvoy === '2000') {
        if (ownConvoy) via[u] = 1;
      } else {
        const o = board.unitAt[dest[u]];
        via[u] = o >= 0 && kind[o] === MOVE && dest[o] === from ? 1 : 0;
      }
    }
    // A convoy of a move that goes by land is not used.
    for (let u = 0; u < n; u++)
      if (kind[u] === CONVOY && valid[u] && !via[target[u]]) {
        valid[u] = 0;
        convStart[target[u] + 1]--;
      }

    // Supports match a move to the same province (and coast, if one is named) or a unit that does not move.
    const supStart = this.supStart;
    for (let u = 0; u < n; u++) {
      if (kind[u] !== SUPPORT) continue;
      const t = target[u];
      if (dest[u] < 0) valid[u] = kind[t] !== MOVE ? 1 : 0;
      else valid[u] = kind[t] === MOVE && dest[t] === dest[u] && (this.destLoc[u] < 0 || this.destLoc[u] === this.destLoc[t]) ? 1 : 0;
      if (valid[u]) supStart[t + 1]++;
    }

    // Head-to-head battles: two units moving into each other's province, neither by convoy.
    const intoStart = this.intoStart;
    for (let u = 0; u < n; u++) {
      if (kind[u] !== MOVE) continue;
      intoStart[dest[u] + 1]++;
      if (via[u]) continue;
      const o = board.unitAt[dest[u]];
      if (o >= 0 && kind[o] === MOVE && !via[o] && dest[o] === board.province[u]) this.h2h[u] = o;
    }

    // Index (counting sort): moves into each province, valid supports per supported unit, convoys per army.
    for (let p = 0; p < P; p++) intoStart[p + 1] += intoStart[p];
    for (let u = 0; u < n; u++) (supStart[u + 1] += supStart[u]), (convStart[u + 1] += convStart[u]);
    const intoFill = this.arena.int16(P);
    const supFill = this.arena.int16(n);
    const convFill = this.arena.int16(n);
    // Copied by hand: `set(subarray(...))` makes a view per copy, which costs more than these few dozen numbers.
    for (let p = 0; p < P; p++) intoFill[p] = intoStart[p];
    for (let u = 0; u < n; u++) (supFill[u] = supStart[u]), (convFill[u] = convStart[u]);
    for (let u = 0; u < n; u++) {
      const k = kind[u];
      if (k === MOVE) this.movesInto[intoFill[dest[u]]++] = u;
      else if (k === SUPPORT && valid[u]) this.supports[supFill[target[u]]++] = u;
      else if (k === CONVOY && valid[u]) this.convoys[convFill[target[u]]++] = u;
    }
    if (this.options.convoyDisruption === 'any-route') this.markRouteFleets();
  }

  /** For the 1971 rule: which matching fleets lie on some route from the army to its destination. */
  private markRouteFleets(): void {
    const { n, board } = this;
    const v = board.variant;
    const P = this.P;
    const onRoute = (this.onRoute = new Int16Array(n));
    for (let u = 0; u < n; u++) {
      if (!this.via[u]) continue;
      const fleets = Array.from(this.convoys.subarray(this.convStart[u], this.convStart[u + 1]));
      const spread = (start: number): Set<number> => {
        const seen = new Set<number>();
        const queue = fleets.filter((c) => v.anyMatrix[start * P + board.province[c]]);
        queue.forEach((c) => seen.add(c));
        while (queue.length) {
          const c = queue.shift()!;
          for (const d of fleets) if (!seen.has(d) && v.anyMatrix[board.province[c] * P + board.province[d]]) seen.add(d), queue.push(d);
        }
        return seen;
      };
      const a = spread(board.province[u]);
      const b = spread(this.dest[u]);
      for (const c of fleets) if (a.has(c) && b.has(c)) onRoute[c] = 1;
    }
  }

  run(): MovementOutcome {
    const { n } = this;
    for (let u = 0; u < n; u++) {
      const k = this.kind[u];
      if (k === MOVE || k === SUPPORT || k === CONVOY) this.resolve(u);
    }
    return this.outcome();
  }

  // ---- The guess algorithm (DATC 5.F) ----

  resolve(u: number): boolean {
    if (this.state[u] === RESOLVED) return this.res[u] === 1;
    if (this.inCycle[u]) {
      // A guess of an unresolved cycle: whoever depends on it belongs to that cycle too.
      this.guessBased = true;
      if (this.cyclePos[u] < this.lowestHit) this.lowestHit = this.cyclePos[u];
      return this.res[u] === 1;
    }
    if (this.visited[u]) {
      this.addToCycle(u);
      this.guessBased = true;
      this.recursionHits++;
      return this.res[u] === 1;
    }
    this.visited[u] = 1;
    const oldCycleLen = this.cycleLen;
    const oldGuessBased = this.guessBased;
    const oldHits = this.recursionHits;
    const oldLowest = this.lowestHit;
    this.guessBased = false;
    this.lowestHit = NO_HIT;
    this.state[u] = GUESSING;
    this.res[u] = 0;
    const first = this.adjudicate(u);

    if (!this.guessBased) {
      this.guessBased = oldGuessBased;
      this.lowestHit = oldLowest;
      return this.settle(u, first);
    }
    if (this.inCycle[u]) this.recursionHits--;
    // The ancestor of a whole cycle: every hit in its recursion came back to it,
    // and nothing it used belongs to a cycle that started before it.
    if (this.recursionHits === oldHits && this.lowestHit >= oldCycleLen) {
      this.truncateCycle(oldCycleLen);
      this.res[u] = 1;
      const second = this.adjudicate(u);
      this.lowestHit = oldLowest;
      if (first === second) {
        this.truncateCycle(oldCycleLen);
        this.guessBased = oldGuessBased;
        return this.settle(u, first);
      }
      // No or two solutions: circular movement or a paradox.
      this.backupRule(oldCycleLen);
      this.truncateCycle(oldCycleLen);
      this.guessBased = oldGuessBased;
      this.visited[u] = 0;
      if (this.state[u] !== RESOLVED) this.state[u] = UNRESOLVED;
      return this.resolve(u);
    }
    // Part of a cycle whose ancestor is further up: remember this result for now.
    if (!this.inCycle[u]) this.addToCycle(u);
    if (oldLowest < this.lowestHit) this.lowestHit = oldLowest;
    this.res[u] = first ? 1 : 0;
    this.visited[u] = 0;
    return first;
  }

  private settle(u: number, result: boolean): boolean {
    this.res[u] = result ? 1 : 0;
    this.state[u] = RESOLVED;
    this.visited[u] = 0;
    return result;
  }

  private addToCycle(u: number): void {
    this.inCycle[u] = 1;
    this.cyclePos[u] = this.cycleLen;
    this.cycle[this.cycleLen++] = u;
  }

  private truncateCycle(len: number): void {
    while (this.cycleLen > len) this.inCycle[this.cycle[--this.cycleLen]] = 0;
  }

  /** Circular movement: every move succeeds. Convoy paradox (Szykman): the convoys fail. Anything else: all fail. */
  private backupRule(from: number): void {
    let hasConvoy = false;
    let onlyMoves = true;
    for (let i = from; i < this.cycleLen; i++) {
      const k = this.kind[this.cycle[i]];
      if (k === CONVOY) hasConvoy = true;
      if (k !== MOVE) onlyMoves = false;
    }
    for (let i = from; i < this.cycleLen; i++) {
      const u = this.cycle[i];
      if (hasConvoy) {
        if (this.kind[u] === CONVOY) {
          this.state[u] = RESOLVED;
          this.res[u] = 0;
          this.paradox[u] = 1;
        } else if (this.state[u] !== RESOLVED) this.state[u] = UNRESOLVED;
      } else {
        this.state[u] = RESOLVED;
        this.res[u] = onlyMoves ? 1 : 0;
      }
      this.visited[u] = 0;
    }
  }

  // ---- The equations (DATC 5.B) ----

  adjudicate(u: number): boolean {
    switch (this.kind[u]) {
      case MOVE:
        return this.adjudicateMove(u);
      case SUPPORT:
        return this.adjudicateSupport(u);
      case CONVOY:
        return this.adjudicateConvoy(u);
      default:
        return true;
    }
  }

  private adjudicateMove(u: number): boolean {
    if (this.decided !== undefined) {
      const fixed = this.decidedMove(u, this.decided);
      if (fixed >= 0) return fixed === 1;
    }
    if (!this.path(u)) return false;
    const attack = this.attackStrength(u);
    const o = this.h2h[u];
    if (o >= 0) {
      if (attack <= this.defendStrength(o)) return false;
    } else if (attack <= this.holdStrength(this.dest[u])) return false;
    const d = this.dest[u];
    for (let i = this.intoStart[d], end = this.intoStart[d + 1]; i < end; i++) {
      const m = this.movesInto[i];
      if (m !== u && attack <= this.preventStrength(m)) return false;
    }
    return true;
  }

  /**
   * A move the decisions govern: 1 succeeds, 0 fails, -1 ordinary rules. The winner's move into its province
   * needs its route and must get past the winner's own units there; a unit of another power standing in a
   * province the winner took head-to-head cannot pass the winner's unit on the way out.
   */
  private decidedMove(u: number, decided: Decisions): number {
    const power = this.board.power[u];
    const here = this.board.province[u];
    const o = this.h2h[u];
    const heldBy = decided.outcome[here];
    if (heldBy >= 0 && heldBy !== power && o >= 0 && this.board.power[o] === heldBy && this.resolve(o)) return 0;
    const d = this.dest[u];
    if (decided.outcome[d] !== power) return -1;
    if (!this.path(u)) return 0;
    const attack = this.attackStrength(u);
    if (attack === 0) return 0;
    // The unit named as the winner meets none of its power's other moves: they failed.
    if (decided.unit[d] === u) return 1;
    for (let i = this.intoStart[d], end = this.intoStart[d + 1]; i < end; i++) {
      const m = this.movesInto[i];
      if (m !== u && this.board.power[m] === power && attack <= this.preventStrength(m)) return 0;
    }
    return 1;
  }

  private adjudicateSupport(u: number): boolean {
    if (!this.valid[u]) return false;
    const here = this.board.province[u];
    const power = this.board.power[u];
    const supportedInto = this.dest[u];
    for (let i = this.intoStart[here], end = this.intoStart[here + 1]; i < end; i++) {
      const a = this.movesInto[i];
      if (this.board.power[a] === power) continue;
      if (this.board.province[a] === supportedInto) {
        // An attack from the province the support goes into cuts only by dislodging (DATC 4.A.4: the army's own province counts even by convoy).
        if (this.resolve(a)) return false;
        continue;
      }
      if (this.path(a)) return false;
    }
    return true;
  }

  private adjudicateConvoy(u: number): boolean {
    if (!this.valid[u]) return false;
    const here = this.board.province[u];
    for (let i = this.intoStart[here], end = this.intoStart[here + 1]; i < end; i++) {
      if (this.resolve(this.movesInto[i])) return false;
    }
    return true;
  }

  /** A land move always has its path; a convoyed move needs a chain of successful convoys. */
  path(u: number): boolean {
    if (!this.via[u]) return true;
    const known = this.pathKnown[u];
    if (known >= 0) return known === 1;
    const start = this.convStart[u];
    const end = this.convStart[u + 1];
    if (start === end) return false;
    let ok: boolean;
    if (this.options.convoyDisruption === 'any-route') {
      ok = true;
      for (let i = start; i < end && ok; i++) {
        const c = this.convoys[i];
        if (this.onRoute![c] && !this.resolve(c)) ok = false;
      }
      ok = ok && this.chain(u, start, end, false);
    } else ok = this.chain(u, start, end, true);
    // Once every convoy is settled the path cannot change.
    let settled = true;
    for (let i = start; i < end; i++) if (this.state[this.convoys[i]] !== RESOLVED) settled = false;
    if (settled) this.pathKnown[u] = ok ? 1 : 0;
    return ok;
  }

  /** Breadth-first search over the convoying fleets (only those whose convoy succeeds, when `resolving`). */
  private chain(u: number, start: number, end: number, resolving: boolean): boolean {
    const v = this.board.variant;
    const P = this.P;
    const from = this.board.province[u];
    const to = this.dest[u];
    const count = end - start;
    // Up to 32 candidate fleets fit a bit mask; larger convoys fall back to arrays.
    const usable: number[] = [];
    for (let i = start; i < end; i++) {
      const c = this.convoys[i];
      if (!resolving || this.resolve(c)) usable.push(c);
    }
    if (usable.length === 0) return false;
    const seen = new Uint8Array(count);
    const queue: number[] = [];
    for (let i = 0; i < usable.length; i++) {
      if (v.anyMatrix[from * P + this.board.province[usable[i]]]) (seen[i] = 1), queue.push(i);
    }
    while (queue.length > 0) {
      const i = queue.pop()!;
      const p = this.board.province[usable[i]];
      if (v.anyMatrix[p * P + to]) return true;
      for (let j = 0; j < usable.length; j++) {
        if (!seen[j] && v.anyMatrix[p * P + this.board.province[usable[j]]]) (seen[j] = 1), queue.push(j);
      }
    }
    return false;
  }

  private countSupports(u: number, excludePower: number): number {
    let s = 0;
    for (let i = this.supStart[u], end = this.supStart[u + 1]; i < end; i++) {
      const sup = this.supports[i];
      if (excludePower >= 0 && this.board.power[sup] === excludePower) continue;
      if (this.resolve(sup)) s++;
    }
    return s;
  }

  holdStrength(p: number): number {
    const u = this.board.unitAt[p];
    if (u < 0) return 0;
    if (this.kind[u] === MOVE) return this.resolve(u) ? 0 : 1;
    return 1 + this.countSupports(u, -1);
  }

  attackStrength(u: number): number {
    const o = this.board.unitAt[this.dest[u]];
    if (o < 0 || (this.h2h[u] < 0 && this.kind[o] === MOVE && this.resolve(o))) return 1 + this.countSupports(u, -1);
    if (this.board.power[o] === this.board.power[u]) return 0;
    return 1 + this.countSupports(u, this.board.power[o]);
  }

  defendStrength(u: number): number {
    return 1 + this.countSupports(u, -1);
  }

  preventStrength(u: number): number {
    if (!this.path(u)) return 0;
    const o = this.h2h[u];
    if (o >= 0 && this.resolve(o)) return 0;
    return 1 + this.countSupports(u, -1);
  }

  // ---- Results ----

  private outcome(): MovementOutcome {
    const { n, board, kind } = this;
    const success = this.arena.int16(n);
    const path = this.arena.int16(n);
    const dislodgedBy = this.arena.int16(n, -1);
    for (let u = 0; u < n; u++) {
      const k = kind[u];
      success[u] = k === MOVE || k === SUPPORT || k === CONVOY ? this.res[u] : 1;
      if (k === MOVE) path[u] = this.path(u) ? 1 : 0;
    }
    for (let u = 0; u < n; u++) {
      if (kind[u] === MOVE && success[u]) {
        const o = board.unitAt[this.dest[u]];
        if (o >= 0 && !(kind[o] === MOVE && success[o])) dislodgedBy[o] = u;
      }
    }
    // A standoff leaves a province empty although a unit with strength tried to enter it.
    const standoff = this.arena.int16(this.P);
    for (let p = 0; p < this.P; p++) {
      const start = this.intoStart[p];
      const end = this.intoStart[p + 1];
      if (start === end) continue;
      const o = board.unitAt[p];
      if (o >= 0 && !(kind[o] === MOVE && success[o])) continue;
      // A unit that lost a head-to-head battle or had no convoy route stood off nobody (DATC 6.H.9, 6.H.12).
      let entered = false;
      let tried = false;
      for (let i = start; i < end; i++) {
        const m = this.movesInto[i];
        if (success[m]) entered = true;
        else if (this.preventStrength(m) > 0) tried = true;
      }
      if (!entered && (tried || this.decided?.outcome[p] === DECIDED_STANDOFF)) standoff[p] = 1;
    }
    if (success.length > 0) for (let u = 0; u < n; u++) if (kind[u] === HOLD) success[u] = dislodgedBy[u] < 0 ? 1 : 0;
    return {
      board,
      kind,
      intent: this.ordered,
      success,
      valid: this.valid,
      viaConvoy: this.via,
      path,
      paradox: this.paradox,
      dislodgedBy,
      standoff,
      intoStart: this.intoStart,
      movesInto: this.movesInto,
      supStart: this.supStart,
      supports: this.supports,
      headToHead: this.h2h,
      moveDetail: (u) => this.moveDetail(u),
      cutters: (u) => this.cutters(u),
      decided: this.decided,
    };
  }

  private moveDetail(u: number): { attack: number; opposition: number; against: number[] } {
    const d = this.dest[u];
    const attack = this.path(u) ? this.attackStrength(u) : 0;
    const against: number[] = [];
    let opposition = 0;
    const o = this.h2h[u];
    const resident = this.board.unitAt[d];
    const hold = o >= 0 ? this.defendStrength(o) : this.holdStrength(d);
    if (resident >= 0 && hold > 0) {
      opposition = hold;
      if (hold >= attack) against.push(resident);
    }
    for (let i = this.intoStart[d], end = this.intoStart[d + 1]; i < end; i++) {
      const m = this.movesInto[i];
      if (m === u) continue;
      const prevent = this.preventStrength(m);
      if (prevent > opposition) opposition = prevent;
      if (prevent >= attack && prevent > 0) against.push(m);
    }
    return { attack, opposition, against };
  }

  private cutters(u: number): number[] {
    const out: number[] = [];
    const here = this.board.province[u];
    for (let i = this.intoStart[here], end = this.intoStart[here + 1]; i < end; i++) {
      const a = this.movesInto[i];
      if (this.board.power[a] === this.board.power[u]) continue;
      if (this.board.province[a] === this.dest[u] ? this.res[a] === 1 : this.path(a)) out.push(a);
    }
    return out;
  }
}
