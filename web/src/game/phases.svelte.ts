/**
 * A game's phases as the board shows them: the list, the last one (open while the game goes on), the processed ones
 * fetched so far, and which of them is on screen. The last phase is read again whenever the game moves on; an answer
 * older than the latest request is dropped, and who submitted or got ready meanwhile (live events) is kept.
 */
import type { PhaseDetail, PhaseSummary } from '../../../shared/api/index.ts';
import { api } from '../lib/api.ts';

/** What the phases need of the game's store (room.svelte.ts). */
export interface PhasesRoom {
  readonly id: string;
  readonly finished: boolean;
  readonly myPower: string | null;
  failed(e: unknown): void;
  /** The last phase was read: the order box follows it (a new box for a new phase). */
  followCurrent(detail: PhaseDetail, changed: boolean): Promise<void> | null;
}

/** Who submitted or got ready, as a live event says. */
export interface OrdersStatus {
  phaseIndex: number;
  power: string;
  submitted: boolean;
  ready: boolean;
}

export class PhaseTimeline {
  phases = $state.raw<PhaseSummary[]>([]);
  /** The last phase (open while the game goes on). */
  current = $state.raw<PhaseDetail | null>(null);
  /** Processed phases, once fetched (they never change, until a roll-back). */
  details = $state.raw<Record<number, PhaseDetail>>({});
  /** The phase shown; null follows the last one. */
  viewing = $state<number | null>(null);
  /** A phase processed while watching: its results are shown, with a way on to the new phase. */
  justProcessed = $state<number | null>(null);

  /** Requests for the current phase, counted: an answer older than the latest is dropped. */
  private currentRequests = 0;
  /** Who submitted or got ready, as live events said, with the request count at that moment. */
  private statusEvents: { at: number; phase: number; power: string; submitted: boolean; ready: boolean }[] = [];

  constructor(private readonly room: PhasesRoom) {}

  /** The open phase, if the game goes on. */
  get open(): PhaseDetail | null {
    // A game ended by agreement leaves its last phase unprocessed: nothing is open for orders any more.
    return this.current?.status === 'open' && !this.room.finished ? this.current : null;
  }
  get shownIndex(): number | null {
    return this.viewing ?? this.current?.index ?? null;
  }
  /** The phase on screen: a fetched one from history, or the last. */
  get shown(): PhaseDetail | null {
    const i = this.shownIndex;
    if (i === null) return null;
    if (this.current && i === this.current.index) return this.current;
    return this.details[i] ?? null;
  }
  /** My power's line in the open phase (must it order, has it submitted, is it ready). */
  get myStatus() {
    return this.open?.powers.find((p) => p.power === this.room.myPower) ?? null;
  }
  /** A phase's name, as far as this page knows it. */
  phaseName(index: number): string | null {
    if (this.current?.index === index) return this.current.name;
    return this.phases.find((p) => p.index === index)?.name ?? this.details[index]?.name ?? null;
  }

  async loadPhases(): Promise<void> {
    try {
      this.phases = (await api.phases(this.room.id)).phases;
    } catch (e) {
      this.room.failed(e);
    }
  }

  async loadCurrent(prefetched: Promise<PhaseDetail | null> | null = null): Promise<void> {
    const n = ++this.currentRequests;
    try {
      let detail = (await prefetched) ?? (await api.phase(this.room.id, 'current'));
      if (n !== this.currentRequests) return;
      // Events that arrived while this answer was on its way are newer than it.
      for (const e of this.statusEvents)
        if (e.at >= n && e.phase === detail.index)
          detail = { ...detail, powers: detail.powers.map((p) => (p.power === e.power ? { ...p, submitted: e.submitted, ready: e.ready } : p)) };
      this.statusEvents = this.statusEvents.filter((e) => e.at >= n);
      const changed = this.current?.index !== detail.index;
      this.current = detail;
      if (detail.status === 'processed') this.details = { ...this.details, [detail.index]: detail };
      const following = this.room.followCurrent(detail, changed);
      if (following) await following;
    } catch (e) {
      this.room.failed(e);
    }
  }

  /** A processed phase, fetched once. */
  async loadPhase(index: number): Promise<PhaseDetail | null> {
    if (this.details[index]) return this.details[index];
    if (this.current?.index === index) return this.current;
    try {
      const detail = await api.phase(this.room.id, index);
      if (detail.status === 'processed') this.details = { ...this.details, [index]: detail };
      return detail;
    } catch (e) {
      this.room.failed(e);
      return null;
    }
  }

  async view(index: number | null): Promise<void> {
    if (index !== null && index !== this.current?.index) await this.loadPhase(index);
    this.viewing = index === this.current?.index ? null : index;
    if (index === null || index === this.current?.index) this.justProcessed = null;
  }

  /** A processed phase read again (after its processing): kept with the others. */
  keep(detail: PhaseDetail): void {
    if (detail.status === 'processed') this.details = { ...this.details, [detail.index]: detail };
  }

  /** The processed phases from `index` on are out of date (re-read after a processing, discarded by a roll-back). */
  forgetFrom(index: number): void {
    this.details = Object.fromEntries(Object.entries(this.details).filter(([k]) => Number(k) < index)) as Record<number, PhaseDetail>;
  }

  patchPower(power: string, patch: Partial<PhaseDetail['powers'][number]>): void {
    if (!this.current) return;
    this.current = { ...this.current, powers: this.current.powers.map((p) => (p.power === power ? { ...p, ...patch } : p)) };
  }

  /** A power submitted or got ready (a live event): shown at once, and kept over an older answer still on its way. */
  heardStatus(event: OrdersStatus): void {
    this.statusEvents = [
      ...this.statusEvents,
      { at: this.currentRequests, phase: event.phaseIndex, power: event.power, submitted: event.submitted, ready: event.ready },
    ];
    if (this.current?.index === event.phaseIndex) this.patchPower(event.power, { submitted: event.submitted, ready: event.ready });
  }

  /** The game master moved the deadline, or paused or resumed the clock. */
  deadlineChanged(phaseIndex: number, deadlineAt: string | null, paused: boolean): void {
    if (this.current && this.current.index === phaseIndex) {
      this.current = { ...this.current, deadlineAt, paused };
      this.phases = this.phases.map((p) => (p.index === phaseIndex ? { ...p, deadlineAt } : p));
    }
  }
}
