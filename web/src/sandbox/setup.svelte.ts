/**
 * Setting up a position in the sandbox by hand: units placed, moved, removed and dislodged, centres given an owner
 * (or none), the phase chosen. Written against the variant given, never against one map's facts: every change is
 * tried on a copy of the position and kept only if the engine accepts the whole position (`positionOf`, which
 * compiles the board and the centres as adjudication does); otherwise the engine's reasons are shown.
 */
import { compileBoard, findLocation, type GameState, type Phase, type Unit, type Variant } from '../../../shared/index.ts';
import { isAdjacentArmy, isAdjacentFleet } from '../../../shared/variant/load.ts';
import { positionOf } from '../../../shared/phases/phase.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import { describeUnit, locationName } from '../../../shared/drawing/overlay.ts';

/** The phases a game passes through in a year, as the engine makes them: movement and retreat in Spring and Fall, adjustment in Winter. */
export const SETUP_PHASES: readonly Omit<Phase, 'year'>[] = [
  { season: 'spring', type: 'movement' },
  { season: 'spring', type: 'retreat' },
  { season: 'fall', type: 'movement' },
  { season: 'fall', type: 'retreat' },
  { season: 'winter', type: 'adjustment' },
];

/** Years a set-up may be in, around the variant's first (enough for any game, and a bound on what is typed). */
export const YEAR_SPAN = 1000;

/** A unit that could stand in a province: an army, or a fleet on the province's coast (one per named coast). */
export interface Placement {
  type: Unit['type'];
  at: string;
  /** "Army in Rome", "Fleet in Aquitania (South Coast)". */
  label: string;
  /** Why the engine refuses it there, or null when it would stand. */
  refusal: string[] | null;
}

export interface SetupSnapshot {
  state: GameState;
  changed: boolean;
}

/** The engine's sentence for a unit it refuses, without the unit's technical name it begins with ("Rome fleet at Pan: "). */
const reasonOnly = (e: string) => e.replace(/^[^:]*: /, '');

export class PositionSetup {
  state = $state.raw<GameState>() as GameState;
  /** Any change made since the set-up began (what leaving without applying would lose). */
  changed = $state(false);
  /** The province the chooser is open on. */
  province = $state<string | null>(null);
  /** The province whose unit is being moved: the next province picked is where it goes. */
  moving = $state<string | null>(null);
  /** The power new units are placed for. */
  power = $state('');
  /** Why the last change was refused (the engine's words), or what it did that was not asked for. */
  message = $state<{ refused: boolean; lines: string[] } | null>(null);

  constructor(
    readonly variant: Variant,
    from: GameState,
    changed = false,
  ) {
    // A won game's set-up is a position to play on: the winners go.
    const { winners: _, ...playable } = from;
    this.state = playable;
    this.changed = changed;
    this.power = variant.powers[0];
  }

  /** The province a location lies in ("Aqu/sc" → "Aqu"), by the variant's own tables. */
  provinceOf(at: string): string {
    const l = findLocation(this.variant, at);
    return l < 0 ? at : this.variant.provinceIds[this.variant.locationProvince[l]];
  }

  unitIn(province: string): Unit | undefined {
    return this.state.units.find((u) => this.provinceOf(u.at) === province);
  }

  dislodgedIn(province: string): GameState['dislodged'][number] | undefined {
    return this.state.dislodged.find((u) => this.provinceOf(u.at) === province);
  }

  describe(unit: Unit, dislodged = false): string {
    return describeUnit(this.variant, unit, dislodged);
  }

  provinceName(id: string): string {
    const p = this.variant.provinceIds.indexOf(id);
    return p < 0 ? id : this.variant.provinceNames[p];
  }

  /** The province's index, or -1 for no province of the variant. */
  private index(province: string): number {
    return this.variant.provinceIds.indexOf(province);
  }

  /** The whole position as the engine reads it: kept only if it is accepted. */
  private check(next: GameState): Result<GameState, string[]> {
    const position = positionOf(this.variant, next);
    if (!position.ok) return position;
    const dislodged = compileBoard(this.variant, next.dislodged);
    if (!dislodged.ok) return err(dislodged.error.map((e) => `dislodged: ${e}`));
    return ok(next);
  }

  /** Apply a change the engine accepts; otherwise keep the position and say why. */
  private commit(next: GameState, note: string[] = []): boolean {
    const r = this.check(next);
    if (!r.ok) {
      this.message = { refused: true, lines: r.error.map(reasonOnly) };
      return false;
    }
    this.state = r.value;
    this.changed = true;
    this.message = note.length > 0 ? { refused: false, lines: note } : null;
    return true;
  }

  /** Open the chooser on a province, or, while a unit is being moved, pick where it goes. */
  pick(province: string): void {
    if (this.index(province) < 0) return;
    this.message = null;
    this.province = province;
  }

  close(): void {
    this.province = null;
    this.moving = null;
    this.message = null;
  }

  /**
   * What could stand in `province`: an army, and a fleet on each of its coasts (on the province when it has no
   * named coasts), for `unit` (moving one; otherwise a new one of the power chosen), each judged by the engine.
   */
  placements(province: string, unit?: Unit): Placement[] {
    const p = this.index(province);
    if (p < 0) return [];
    const v = this.variant;
    const others = this.state.units.filter((u) => u !== unit);
    const power = unit?.power ?? this.power;
    const coasts = v.coasts[p].length > 0 ? v.coasts[p].map((l) => v.locationIds[l]) : [province];
    const candidates: Unit[] = unit
      ? unit.type === 'army'
        ? [{ power, type: 'army', at: province }]
        : coasts.map((at) => ({ power, type: 'fleet', at }))
      : [{ power, type: 'army', at: province }, ...coasts.map((at) => ({ power, type: 'fleet' as const, at }))];
    return candidates.map((c) => {
      const board = compileBoard(v, [...others, c]);
      return {
        type: c.type,
        at: c.at,
        label: `${c.type === 'army' ? 'Army' : 'Fleet'} in ${locationName(v, c.at)}`,
        refusal: board.ok ? null : board.error.map(reasonOnly),
      };
    });
  }

  /** Where the unit being moved may go: the provinces where the engine would let it stand. */
  get moveTargets(): Set<string> {
    const from = this.moving;
    const unit = from ? this.unitIn(from) : undefined;
    if (!unit) return new Set();
    return new Set(this.variant.provinceIds.filter((id) => id !== from && this.placements(id, unit).some((c) => c.refusal === null)));
  }

  /** A new unit of the power chosen. */
  place(placement: Placement): boolean {
    if (placement.refusal) {
      this.message = { refused: true, lines: placement.refusal };
      return false;
    }
    return this.commit({ ...this.state, units: [...this.state.units, { power: this.power, type: placement.type, at: placement.at }] });
  }

  remove(province: string): boolean {
    const unit = this.unitIn(province);
    if (!unit) return false;
    return this.commit({ ...this.state, units: this.state.units.filter((u) => u !== unit) });
  }

  removeDislodged(province: string): boolean {
    const unit = this.dislodgedIn(province);
    if (!unit) return false;
    return this.commit({ ...this.state, dislodged: this.state.dislodged.filter((u) => u !== unit) });
  }

  /** Begin moving the unit in `province`: the next province picked is where it goes. */
  startMove(province: string): void {
    if (!this.unitIn(province)) return;
    this.moving = province;
    this.province = null;
    this.message = null;
  }

  /** The unit being moved, to `at` (a location of the province picked). */
  moveTo(placement: Placement): boolean {
    const unit = this.moving ? this.unitIn(this.moving) : undefined;
    if (!unit) return false;
    if (placement.refusal) {
      this.message = { refused: true, lines: placement.refusal };
      return false;
    }
    const moved = this.commit({ ...this.state, units: this.state.units.map((u) => (u === unit ? { ...u, at: placement.at } : u)) });
    if (moved) this.moving = null;
    return moved;
  }

  /**
   * The provinces an attack on `province` could have come from: those with a border an army or a fleet crosses
   * into it (the variant's adjacencies). A retreat may not go back there.
   */
  attackerOrigins(province: string): string[] {
    const v = this.variant;
    const p = this.index(province);
    if (p < 0) return [];
    const locationsOf = (q: number) => [q, ...v.coasts[q]];
    return v.provinceIds.filter(
      (_, q) => q !== p && (isAdjacentArmy(v, q, p) || locationsOf(q).some((a) => locationsOf(p).some((b) => isAdjacentFleet(v, a, b)))),
    );
  }

  /** Retreat phase: the unit in `province` dislodged by an attack from `attackerFrom` (null: by convoy). */
  dislodge(province: string, attackerFrom: string | null): boolean {
    const unit = this.unitIn(province);
    if (!unit) return false;
    return this.commit({
      ...this.state,
      units: this.state.units.filter((u) => u !== unit),
      dislodged: [...this.state.dislodged, { ...unit, attackerFrom }],
    });
  }

  /** A supply centre's owner (null: none). */
  setOwner(centre: string, power: string | null): boolean {
    const { [centre]: _, ...rest } = this.state.owners;
    return this.commit({ ...this.state, owners: power ? { ...rest, [centre]: power } : rest });
  }

  /** A special build centre's controller (null: none). */
  setController(centre: string, power: string | null): boolean {
    const { [centre]: _, ...rest } = this.state.control;
    return this.commit({ ...this.state, control: power ? { ...rest, [centre]: power } : rest });
  }

  /**
   * The season, year and kind of phase. Dislodged units and standoffs belong to a retreat phase: another kind of
   * phase drops them, and says so.
   */
  setPhase(phase: Phase): boolean {
    const start = this.variant.data.rules.calendar.startYear;
    if (!Number.isInteger(phase.year) || Math.abs(phase.year - start) > YEAR_SPAN) {
      this.message = { refused: true, lines: [`The year must be a whole number within ${YEAR_SPAN} years of the game’s first.`] };
      return false;
    }
    if (phase.type === 'retreat') return this.commit({ ...this.state, phase });
    const dropped = this.state.dislodged.length;
    const note =
      dropped > 0 ? [`${dropped === 1 ? 'The dislodged unit was' : `The ${dropped} dislodged units were`} removed: only a retreat phase has them.`] : [];
    return this.commit({ ...this.state, phase, dislodged: [], standoffs: [] }, note);
  }

  snapshot(): SetupSnapshot {
    return { state: this.state, changed: this.changed };
  }
}
