/**
 * My orders for the open phase, bound to the server: the order box (OrderEntry), what the server has saved, its
 * verdict on the last submission, the draft kept in this browser until the server has the same text (logic.ts), and
 * Ready. Orders saved for my power elsewhere (another window, the game master) replace a box without edits, and
 * leave unsaved edits standing, said so.
 */
import type { Variant } from '../../../shared/index.ts';
import type { CheckedOrder, OrderSubmission, PhaseDetail } from '../../../shared/api/index.ts';
import { ApiError, api } from '../lib/api.ts';
import { OrderEntry } from '../orders/order-entry.svelte.ts';
import { isDirty, type Drafts } from './logic.ts';
import type { NoticeOptions } from './notices.svelte.ts';

/** What my orders need of the game's store (room.svelte.ts). */
export interface OrdersRoom {
  readonly id: string;
  readonly variant: Variant;
  readonly myPower: string | null;
  /** The open phase (none: nothing to order). */
  readonly open: PhaseDetail | null;
  /** My power's line in the open phase. */
  readonly myStatus: { ready: boolean } | null;
  error: string | null;
  failed(e: unknown): void;
  notify(text: string, kind?: 'info' | 'warn', options?: NoticeOptions): void;
  /** My own save or Ready changed my power's line in the open phase. */
  patchPower(power: string, patch: { submitted?: boolean; ready?: boolean }): void;
  /** The answer to my save or Ready says it processed the phase. */
  phaseProcessed(index: number): Promise<void>;
}

/** The notices' topic for orders saved elsewhere (another window, the game master): one says it, the latest. */
const SAVED_ELSEWHERE = 'orders saved elsewhere';

export class MyOrders {
  entry = $state.raw<OrderEntry | null>(null);
  private savedSubmission = $state.raw<OrderSubmission | null>(null);
  /** My orders as the server has them; the order box's list marks its lines by them. */
  get saved(): OrderSubmission | null {
    return this.savedSubmission;
  }
  set saved(saved: OrderSubmission | null) {
    this.savedSubmission = saved;
    if (this.entry) this.entry.savedText = saved?.text ?? (this.loadedSaved ? '' : null);
  }
  /** The server's answer on my saved orders has come for this box (none saved is then known, not unknown). */
  private loadedSaved = false;
  /** The server's verdict on the last submission (or the refusal), per order. */
  private answer = $state.raw<{ checked: CheckedOrder[]; accepted: boolean; at: string; text: string } | null>(null);
  draftRestored = $state(false);
  busy = $state(false);

  /**
   * Who saved newer orders for my power while this window held unsaved changes ("Rome's orders were saved from
   * another window"): those changes are then not saved for the player at the deadline. Null once this window
   * saves or discards them.
   */
  private overtakenBy: string | null = null;
  /** The box's text when it last agreed with the server (or was loaded); null while loading. */
  private editedFrom: string | null = null;
  /** The box's text when keepDraft last looked. */
  private lastSeenText: string | null = null;
  private withdrawing = false;
  /** The save in flight, if any, until its answer is taken in; and how many have been answered. */
  private inFlight: Promise<unknown> | null = null;
  private saves = 0;

  constructor(
    private readonly room: OrdersRoom,
    private readonly drafts: Drafts,
  ) {}

  /**
   * The server's refusal, while the order box still holds the text it refused (an edit makes it out of date). An
   * accepted save is not repeated here: the order list marks each line saved.
   */
  get verdict(): { checked: CheckedOrder[]; accepted: boolean; at: string } | null {
    return this.answer && !this.answer.accepted && this.entry?.text === this.answer.text ? this.answer : null;
  }
  get text(): string {
    return this.entry?.text ?? '';
  }
  get dirty(): boolean {
    return !!this.entry && isDirty(this.entry.text, this.saved?.text ?? '');
  }
  get overtaken(): string | null {
    return this.overtakenBy;
  }
  /** The save in flight, if any: settled once its answer (or refusal) is taken in. */
  get saving(): Promise<unknown> | null {
    return this.inFlight;
  }

  /**
   * The order box for the open phase, at once (the map is playable as soon as the position is known), then
   * my saved orders from the server: the box takes them (or a draft that differs) unless it was already edited.
   */
  async load(): Promise<void> {
    const { open, myPower: power, id } = this.room;
    if (!open || !power) {
      this.entry = null;
      this.saved = null;
      return;
    }
    this.overtakenBy = null;
    const first = this.drafts.get(id, open.index, power) ?? '';
    const entry = new OrderEntry(this.room.variant, open.state, [power], { [power]: first === '' ? [] : first.split('\n') });
    // Not the orders of the box before (another phase's, or replaced since): the new box is not measured against them.
    this.loadedSaved = false;
    this.saved = null;
    this.editedFrom = null;
    this.entry = entry;
    this.answer = null;
    let saved: OrderSubmission | null = null;
    try {
      saved = (await api.myOrders(id, open.index)).current;
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) this.room.failed(e);
    }
    if (this.entry !== entry) return; // a newer phase took over meanwhile
    this.loadedSaved = true;
    this.saved = saved;
    const start = this.drafts.initial(id, open.index, power, saved?.text ?? '');
    this.draftRestored = start.restored;
    if (entry.text === first) entry.setText(start.text, power);
    this.editedFrom = entry.text;
  }

  /** The last phase was read again: a new box for a new phase (or a first one), else the box takes the position. */
  follow(current: PhaseDetail, changed: boolean): Promise<void> | null {
    if (changed || !this.entry) return this.load();
    this.entry.state = current.state;
    return null;
  }

  /** No box any more (the game can no longer be seen). */
  close(): void {
    this.entry = null;
    this.saved = null;
  }

  /**
   * My saved orders changed on the server (another window, or the game master entered them): the box shows
   * them unless it holds unsaved edits, which are kept; either way the player is told.
   */
  async refresh(): Promise<void> {
    const { open, myPower: power, id } = this.room;
    const entry = this.entry;
    if (!open || !power || !entry) return;
    // A save of our own in flight: its answer says what the server has.
    await this.inFlight;
    const saves = this.saves;
    let saved: OrderSubmission | null;
    try {
      saved = (await api.myOrders(id, open.index)).current;
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) this.room.failed(e);
      return;
    }
    // A save of ours answered meanwhile is newer than what this read found.
    if (this.entry !== entry || this.room.open?.index !== open.index || saved === null || saves !== this.saves) return;
    const before = this.saved;
    if (before?.id === saved.id) {
      if (before.ready !== saved.ready) this.saved = saved;
      return;
    }
    const edited = this.dirty;
    this.saved = saved;
    // The same orders as on screen (our own Ready, or another window saving the same): nothing to tell.
    if (!edited && saved.text === entry.text && !saved.byGameMaster) return;
    const by = saved.byGameMaster ? `The game master entered orders for ${power}` : `${power}'s orders were saved from another window`;
    if (edited && isDirty(entry.text, saved.text)) {
      // Not saved for this window at the deadline any more (deadline-guard.ts): the newer orders stand unless the player says.
      this.overtakenBy = saved.byGameMaster ? `the game master entered orders for ${power}` : by;
      this.room.notify(`${by}. Your unsaved changes here are kept: save them to replace those orders, or discard them to see them.`, 'warn', {
        phase: open.index,
        topic: SAVED_ELSEWHERE,
        until: () => !this.dirty,
        action: { label: 'Discard my changes', run: () => this.discardDraft() },
      });
    } else {
      entry.setText(saved.text, power);
      this.editedFrom = entry.text;
      this.answer = null;
      this.draftRestored = false;
      this.room.notify(`${by}: they are shown here.`, saved.byGameMaster ? 'warn' : 'info', { phase: open.index, topic: SAVED_ELSEWHERE });
    }
  }

  /** Called on every edit of the order box: the draft is kept until the server has the same text. */
  keepDraft(): void {
    const { open, myPower: power, id } = this.room;
    if (!open || !power || !this.entry) return;
    this.drafts.keep(id, open.index, power, this.entry.text, this.saved?.text ?? '');
    // Changing orders after Ready: the phase must not be processed with the old ones meanwhile. Only an edit
    // here counts (this runs again when the status changes: another window's Ready is not an edit of this box),
    // and not while a save is on its way (its own live event may say "ready" before its answer arrives).
    const edit = this.entry.text !== this.lastSeenText;
    this.lastSeenText = this.entry.text;
    if (edit && this.editedFrom !== null && this.entry.text !== this.editedFrom && this.dirty && this.room.myStatus?.ready && !this.withdrawing && !this.busy) {
      this.withdrawing = true;
      void this.setReady(false)
        .then(() => {
          if (this.room.myStatus?.ready === false)
            this.room.notify('You are changing your orders, so you are no longer ready. Save them, or tick Ready again when done.', 'warn', {
              phase: this.room.open?.index,
              until: () => !this.dirty || !!this.room.myStatus?.ready,
            });
        })
        .finally(() => (this.withdrawing = false));
    }
  }

  /**
   * Save the order box on the server (and the ready flag with it). A Ready ticked on orders saved from elsewhere
   * since this box was edited was given to those orders, not to these: saving these withdraws it.
   */
  async submit(ready = !this.overtakenBy && (this.room.myStatus?.ready ?? false)): Promise<boolean> {
    const { open, myPower: power, id } = this.room;
    if (!open || !power || !this.entry) return false;
    this.busy = true;
    this.room.error = null;
    const text = this.entry.text;
    const request = api.submitOrders(id, open.index, { orders: text, ready });
    // Settled once the answer is taken in (below), not merely arrived: who waits for it then sees what it changed.
    let answered!: () => void;
    this.inFlight = new Promise<void>((resolve) => (answered = resolve));
    try {
      const reply = await request;
      this.saves++;
      this.overtakenBy = null;
      this.saved = reply.submission;
      this.editedFrom = this.entry.text;
      this.answer = { checked: reply.checked, accepted: true, at: reply.submission.submittedAt, text };
      this.drafts.keep(id, open.index, power, this.entry.text, reply.submission.text);
      this.draftRestored = false;
      this.room.patchPower(power, { submitted: true, ready: reply.submission.ready });
      answered();
      if (reply.phaseProcessed) await this.room.phaseProcessed(open.index);
      return true;
    } catch (e) {
      // A refusal's reasons are shown line by line with the answer, and go with it once the box is edited.
      if (e instanceof ApiError && e.code === 'orders_rejected') this.answer = { checked: e.orders, accepted: false, at: new Date().toISOString(), text };
      else this.room.failed(e);
      return false;
    } finally {
      this.busy = false;
      this.inFlight = null;
      answered();
    }
  }

  /** Ready (or not). Unsaved orders are saved with it, so "ready" never means the old orders. */
  async setReady(ready: boolean): Promise<void> {
    const { open, myPower: power, id } = this.room;
    if (!open || !power) return;
    if (ready && this.dirty) {
      await this.submit(true);
      return;
    }
    this.busy = true;
    this.room.error = null;
    try {
      const reply = await api.setReady(id, open.index, ready);
      this.room.patchPower(power, { ready: reply.ready, ...(reply.ready ? { submitted: true } : {}) });
      if (reply.phaseProcessed) await this.room.phaseProcessed(open.index);
    } catch (e) {
      this.room.failed(e);
    } finally {
      this.busy = false;
    }
  }

  /** Back to what the server has. */
  discardDraft(): void {
    const { open, myPower: power, id } = this.room;
    if (!open || !power || !this.entry) return;
    this.entry.setText(this.saved?.text ?? '', power);
    this.editedFrom = this.entry.text;
    this.overtakenBy = null;
    this.drafts.clear(id, open.index, power);
    this.draftRestored = false;
  }
}
