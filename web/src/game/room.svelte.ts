/**
 * One game as a player (or the game master, or a spectator) sees it: the
 * phases, the open phase, my orders bound to the server, press, loans, votes,
 * the game master's log, all kept current by the live websocket. Components
 * read this store; every change goes through the server and comes back.
 */
import { getVariant, rulebookOptions, type Variant } from '../../../shared/index.ts';
import type { GameDetail, PhaseDetail, PhaseSummary, CheckedOrder, OrderSubmission } from '../../../shared/api/index.ts';
import { ApiError, api, type GmProposal } from '../lib/api.ts';
import type { LiveNews } from '../lib/live.ts';
import { OrderEntry } from '../orders/order-entry.svelte.ts';
import { outcomeText, plural } from '../lib/format.ts';
import { Drafts, ReadMarks, browserStore, isDirty, localTime, type Conversation } from './logic.ts';
import { NoticeBoard, type Notice, type NoticeOptions } from './notices.svelte.ts';
import { PressInbox } from './press.svelte.ts';
import { LoanBook, loanNotice } from './loans.svelte.ts';
import { Ballot } from './votes.svelte.ts';
import { GmRecord } from './gm.svelte.ts';
import { PhaseTimeline } from './phases.svelte.ts';

export type { Notice } from './notices.svelte.ts';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class GameRoom {
  readonly variant: Variant;
  private readonly drafts: Drafts;

  game = $state.raw<GameDetail>() as unknown as GameDetail;
  /** The phases, the one open, the one on screen (phases.svelte.ts). */
  readonly timeline: PhaseTimeline = new PhaseTimeline(this);
  get phases(): PhaseSummary[] {
    return this.timeline.phases;
  }
  set phases(phases: PhaseSummary[]) {
    this.timeline.phases = phases;
  }
  get current(): PhaseDetail | null {
    return this.timeline.current;
  }
  set current(phase: PhaseDetail | null) {
    this.timeline.current = phase;
  }
  get details(): Record<number, PhaseDetail> {
    return this.timeline.details;
  }
  get viewing(): number | null {
    return this.timeline.viewing;
  }
  get justProcessed(): number | null {
    return this.timeline.justProcessed;
  }

  entry = $state.raw<OrderEntry | null>(null);
  saved = $state.raw<OrderSubmission | null>(null);
  /** The server's verdict on the last submission (or the refusal), per order. */
  private answer = $state.raw<{ checked: CheckedOrder[]; accepted: boolean; at: string; text: string } | null>(null);
  /** The server's answer, while the order box still holds the text it answered (an edit makes it out of date). */
  get verdict(): { checked: CheckedOrder[]; accepted: boolean; at: string } | null {
    return this.answer && this.entry?.text === this.answer.text ? this.answer : null;
  }
  draftRestored = $state(false);
  busy = $state(false);
  error = $state<string | null>(null);

  /** Press and what is unread (press.svelte.ts). */
  readonly inbox: PressInbox;
  /** The loans of centres, the draw votes and concessions (loans.svelte.ts, votes.svelte.ts). */
  readonly loanBook: LoanBook = new LoanBook(this);
  readonly ballot: Ballot = new Ballot(this);
  get loans() {
    return this.loanBook.list;
  }
  get votes() {
    return this.ballot.votes;
  }
  /** The game master's log, and the requests of a game master who plays (gm.svelte.ts, consent.ts). */
  readonly gm: GmRecord = new GmRecord(this);
  get log() {
    return this.gm.log;
  }
  set log(actions: GmRecord['log']) {
    this.gm.log = actions;
  }
  get proposals(): GmProposal[] {
    return this.gm.proposals;
  }
  get answering(): boolean {
    return this.gm.answering;
  }
  get answerError(): string | null {
    return this.gm.answerError;
  }
  /**
   * The server stopped telling this page about the game and it may no longer be seen (a private game one left, or
   * whose seat was handed on): why, in the server's words. The page then shows no board.
   */
  lost = $state<string | null>(null);
  /** Counts the times the page must subscribe to the game's channel again (the server ended the subscription). */
  listening = $state(0);

  /** What the page says above the panel (notices.svelte.ts). */
  readonly noticeBoard = new NoticeBoard();
  get notices(): Notice[] {
    return this.noticeBoard.shown;
  }

  constructor(
    game: GameDetail,
    /** The logged-in user's id (the session may answer after the board is up). */
    private readonly me: () => string | null,
  ) {
    this.variant = getVariant(game.variant, rulebookOptions(game.rules))!;
    this.game = game;
    const store = browserStore();
    this.drafts = new Drafts(store);
    this.inbox = new PressInbox(this, new ReadMarks(store));
  }

  get id() {
    return this.game.id;
  }
  failed(e: unknown): void {
    this.error = message(e);
  }
  get myPower(): string | null {
    return this.game.players.find((p) => p.isYou)?.power ?? null;
  }
  get isMaster(): boolean {
    const me = this.me();
    return me !== null && this.game.gameMaster.id === me;
  }
  get finished(): boolean {
    return this.game.status === 'finished';
  }
  /** A finished game's result is final: nothing re-opens it, and its secrets are public. */
  get final(): boolean {
    const at = this.game.finalAt;
    return this.finished && at !== null && Date.parse(at) <= Date.now();
  }
  get openProposal(): GmProposal | null {
    return this.gm.openProposal;
  }
  get askedOfMe(): GmProposal | null {
    return this.gm.askedOfMe;
  }
  phaseName(index: number): string | null {
    return this.timeline.phaseName(index);
  }
  get open(): PhaseDetail | null {
    return this.timeline.open;
  }
  get shownIndex(): number | null {
    return this.timeline.shownIndex;
  }
  get shown(): PhaseDetail | null {
    return this.timeline.shown;
  }
  get myStatus() {
    return this.timeline.myStatus;
  }
  get text(): string {
    return this.entry?.text ?? '';
  }
  get dirty(): boolean {
    return !!this.entry && isDirty(this.entry.text, this.saved?.text ?? '');
  }
  get press() {
    return this.inbox.messages;
  }
  get conversations(): Conversation[] {
    return this.inbox.conversations;
  }
  get unread(): number {
    return this.inbox.unread;
  }

  notify(text: string, kind: Notice['kind'] = 'info', options: NoticeOptions = {}): void {
    this.noticeBoard.notify(text, kind, options);
  }
  dismiss(id: number): void {
    this.noticeBoard.dismiss(id);
  }

  // ───────────────────────────── loading ─────────────────────────────

  /** Everything, in parallel: the first paint needs the phase (maybe fetched already); the rest follows. */
  async load(prefetched: Promise<PhaseDetail | null> | null = null): Promise<void> {
    // A game read while it was starting may still say "forming", without the powers drawn: read it again.
    const starting = this.game.status === 'forming' || this.game.players.some((p) => p.isYou && p.power === null);
    // The map first; the rest (history, press, loans, votes, log) once it is up, so they do not compete with it.
    await Promise.all([this.loadCurrent(prefetched), starting ? this.reloadGame() : null]);
    if (starting && this.open && !this.entry) await this.loadMyOrders();
    await Promise.all([this.loadPhases(), this.loadPress(), this.loadLoans(), this.loadVotes(), this.loadLog(), this.loadProposals()]);
  }

  async reloadGame(): Promise<void> {
    try {
      this.game = await api.game(this.id);
    } catch (e) {
      this.error = message(e);
    }
  }

  loadPhases(): Promise<void> {
    return this.timeline.loadPhases();
  }
  loadCurrent(prefetched: Promise<PhaseDetail | null> | null = null): Promise<void> {
    return this.timeline.loadCurrent(prefetched);
  }
  /** The last phase was read: the order box follows it (a new box for a new phase). */
  followCurrent(detail: PhaseDetail, changed: boolean): Promise<void> | null {
    if (changed || !this.entry) return this.loadMyOrders();
    this.entry.state = detail.state;
    return null;
  }

  /**
   * The order box for the open phase, at once (the map is playable as soon as the position is known), then
   * my saved orders from the server: the box takes them (or a draft that differs) unless it was already edited.
   */
  async loadMyOrders(): Promise<void> {
    const open = this.open;
    const power = this.myPower;
    if (!open || !power) {
      this.entry = null;
      this.saved = null;
      return;
    }
    this.overtaken = null;
    const first = this.drafts.get(this.id, open.index, power) ?? '';
    const entry = new OrderEntry(this.variant, open.state, [power], { [power]: first === '' ? [] : first.split('\n') });
    // Not the orders of the box before (another phase's, or replaced since): the new box is not measured against them.
    this.saved = null;
    this.editedFrom = null;
    this.entry = entry;
    this.answer = null;
    let saved: OrderSubmission | null = null;
    try {
      saved = (await api.myOrders(this.id, open.index)).current;
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) this.error = message(e);
    }
    if (this.entry !== entry) return; // a newer phase took over meanwhile
    this.saved = saved;
    const start = this.drafts.initial(this.id, open.index, power, saved?.text ?? '');
    this.draftRestored = start.restored;
    if (entry.text === first) entry.setText(start.text, power);
    this.editedFrom = entry.text;
  }

  /**
   * My saved orders changed on the server (another window, or the game master entered them): the box shows
   * them unless it holds unsaved edits, which are kept; either way the player is told.
   */
  async refreshMyOrders(): Promise<void> {
    const open = this.open;
    const power = this.myPower;
    const entry = this.entry;
    if (!open || !power || !entry) return;
    // A save of our own in flight: its answer says what the server has.
    await this.saving;
    const saves = this.saves;
    let saved: OrderSubmission | null;
    try {
      saved = (await api.myOrders(this.id, open.index)).current;
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) this.error = message(e);
      return;
    }
    // A save of ours answered meanwhile is newer than what this read found.
    if (this.entry !== entry || this.open?.index !== open.index || saved === null || saves !== this.saves) return;
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
      // Not saved for this window at the deadline any more (guardDeadline): the newer orders stand unless the player says.
      this.overtaken = saved.byGameMaster ? `the game master entered orders for ${power}` : by;
      this.notify(`${by}. Your unsaved changes here are kept: save them to replace those orders, or discard them to see them.`, 'warn', {
        phase: open.index,
        until: () => !this.dirty,
        action: { label: 'Discard my changes', run: () => this.discardDraft() },
      });
    } else {
      entry.setText(saved.text, power);
      this.editedFrom = entry.text;
      this.answer = null;
      this.draftRestored = false;
      this.notify(`${by}: they are shown here.`, saved.byGameMaster ? 'warn' : 'info', { phase: open.index });
    }
  }

  view(index: number | null): Promise<void> {
    return this.timeline.view(index);
  }

  loadPress(): Promise<void> {
    return this.inbox.load();
  }

  markRead(conversation: string): void {
    this.inbox.markRead(conversation);
  }

  loadLoans(): Promise<void> {
    return this.loanBook.load();
  }

  loadVotes(): Promise<void> {
    return this.ballot.load();
  }

  loadLog(): Promise<void> {
    return this.gm.loadLog();
  }
  loadProposals(force?: boolean): Promise<void> {
    return this.gm.loadProposals(force);
  }
  answerProposal(p: GmProposal, agree: boolean): Promise<void> {
    return this.gm.answerProposal(p, agree);
  }

  // ───────────────────────────── orders ─────────────────────────────

  /** Called on every edit of the order box: the draft is kept until the server has the same text. */
  keepDraft(): void {
    const open = this.open;
    const power = this.myPower;
    if (!open || !power || !this.entry) return;
    this.drafts.keep(this.id, open.index, power, this.entry.text, this.saved?.text ?? '');
    // Changing orders after Ready: the phase must not be processed with the old ones meanwhile. Only an edit
    // here counts (this runs again when the status changes: another window's Ready is not an edit of this box),
    // and not while a save is on its way (its own live event may say "ready" before its answer arrives).
    const edit = this.entry.text !== this.lastSeenText;
    this.lastSeenText = this.entry.text;
    if (edit && this.editedFrom !== null && this.entry.text !== this.editedFrom && this.dirty && this.myStatus?.ready && !this.withdrawing && !this.busy) {
      this.withdrawing = true;
      void this.setReady(false)
        .then(() => {
          if (this.myStatus?.ready === false)
            this.notify('You are changing your orders, so you are no longer ready. Save them, or tick Ready again when done.', 'warn', {
              phase: this.open?.index,
              until: () => !this.dirty || !!this.myStatus?.ready,
            });
        })
        .finally(() => (this.withdrawing = false));
    }
  }
  /**
   * Unsaved changes as the deadline nears (the page calls this every second): the player is warned ten minutes
   * before it, and a minute before it they are saved if the engine accepts every line (else the warning says why
   * they cannot be). The deadline does not wait: what is not saved then does not count.
   */
  guardDeadline(now: number): void {
    const open = this.open;
    const power = this.myPower;
    if (!open || !power || !this.entry || open.paused || !open.deadlineAt || !this.dirty || this.busy) return;
    const left = new Date(open.deadlineAt).getTime() - now;
    const key = `${open.index} ${open.deadlineAt}`;
    if (left <= 0 || left > DEADLINE_WARNING_MS || this.guarded.get(key) === 'saved') return;
    const minutes = Math.max(1, Math.round(left / 60_000));
    const refused = this.entry.refusedLines(power);
    // A warning goes once the changes are saved or discarded.
    const warning = { deadlineOf: open.index, until: () => !this.dirty };
    const due = `Orders are due in ${plural(minutes, 'minute')} and your changes are not saved`;
    const overtaken = `Orders are due in ${plural(minutes, 'minute')}, and your changes here are not saved for you: ${this.overtaken} after you began them.`;
    if (left <= DEADLINE_SAVE_MS) {
      this.guarded.set(key, 'saved');
      if (this.overtaken) {
        this.notify(`${overtaken} Save them to replace those orders.`, 'warn', warning);
        return;
      }
      if (refused > 0) {
        this.notify(`${due}: ${plural(refused, 'line')} would be refused. Correct or delete ${refused === 1 ? 'it' : 'them'}, then save.`, 'warn', warning);
        return;
      }
      void this.submit().then((saved) => {
        if (saved) this.notify('A minute before the deadline, your unsaved changes were saved for you.', 'warn', { deadlineOf: open.index });
      });
      return;
    }
    if (this.guarded.has(key)) return;
    this.guarded.set(key, 'warned');
    this.notify(
      this.overtaken
        ? `${overtaken} Save them to replace those orders, or discard them.`
        : `${due}. Save them: a minute before the deadline they are saved for you, if every line is accepted.`,
      'warn',
      warning,
    );
  }
  /**
   * Who saved newer orders for my power while this window held unsaved changes ("Rome's orders were saved from
   * another window"): those changes are then not saved for the player at the deadline. Null once this window
   * saves or discards them.
   */
  private overtaken: string | null = null;
  /** What guardDeadline did for a phase and deadline. */
  private guarded = new Map<string, 'warned' | 'saved'>();
  /** The box's text when it last agreed with the server (or was loaded); null while loading. */
  private editedFrom: string | null = null;
  /** The box's text when keepDraft last looked. */
  private lastSeenText: string | null = null;
  private withdrawing = false;
  /** The deadline a roll-back's notice gave, until the deadline.changed that follows it. */
  private announcedDeadline: { phaseIndex: number; deadlineAt: string | null } | null = null;
  /** The save in flight, if any, and how many have been answered. */
  private saving: Promise<unknown> | null = null;
  private saves = 0;

  /**
   * Save the order box on the server (and the ready flag with it). A Ready ticked on orders saved from elsewhere
   * since this box was edited was given to those orders, not to these: saving these withdraws it.
   */
  async submit(ready = !this.overtaken && (this.myStatus?.ready ?? false)): Promise<boolean> {
    const open = this.open;
    const power = this.myPower;
    if (!open || !power || !this.entry) return false;
    this.busy = true;
    this.error = null;
    const text = this.entry.text;
    const request = api.submitOrders(this.id, open.index, { orders: text, ready });
    this.saving = request.catch(() => null);
    try {
      const reply = await request;
      this.saves++;
      this.overtaken = null;
      this.saved = reply.submission;
      this.editedFrom = this.entry.text;
      this.answer = { checked: reply.checked, accepted: true, at: reply.submission.submittedAt, text };
      this.drafts.keep(this.id, open.index, power, this.entry.text, reply.submission.text);
      this.draftRestored = false;
      this.patchPower(power, { submitted: true, ready: reply.submission.ready });
      if (reply.phaseProcessed) await this.afterProcessing(open.index);
      return true;
    } catch (e) {
      // A refusal's reasons are shown line by line with the answer, and go with it once the box is edited.
      if (e instanceof ApiError && e.code === 'orders_rejected') this.answer = { checked: e.orders, accepted: false, at: new Date().toISOString(), text };
      else this.error = message(e);
      return false;
    } finally {
      this.busy = false;
      this.saving = null;
    }
  }

  /** Ready (or not). Unsaved orders are saved with it, so "ready" never means the old orders. */
  async setReady(ready: boolean): Promise<void> {
    const open = this.open;
    const power = this.myPower;
    if (!open || !power) return;
    if (ready && this.dirty) {
      await this.submit(true);
      return;
    }
    this.busy = true;
    this.error = null;
    try {
      const reply = await api.setReady(this.id, open.index, ready);
      this.patchPower(power, { ready: reply.ready, ...(reply.ready ? { submitted: true } : {}) });
      if (reply.phaseProcessed) await this.afterProcessing(open.index);
    } catch (e) {
      this.error = message(e);
    } finally {
      this.busy = false;
    }
  }

  /** Back to what the server has. */
  discardDraft(): void {
    const open = this.open;
    const power = this.myPower;
    if (!open || !power || !this.entry) return;
    this.entry.setText(this.saved?.text ?? '', power);
    this.editedFrom = this.entry.text;
    this.overtaken = null;
    this.drafts.clear(this.id, open.index, power);
    this.draftRestored = false;
  }

  private patchPower(power: string, patch: Partial<PhaseDetail['powers'][number]>): void {
    this.timeline.patchPower(power, patch);
  }

  /** A phase was adjudicated (by us, the clock, or the game master): show its results, then the next phase. */
  private handledProcessing = new Set<number>();

  private async afterProcessing(index: number): Promise<void> {
    if (this.handledProcessing.has(index)) return;
    this.handledProcessing.add(index);
    this.noticeBoard.forgetPhasesBefore(index + 1);
    // Someone on the last phase, or on the results shown them after it, watches the game: the new results are shown.
    const watching = this.viewing === null || (this.justProcessed !== null && this.viewing === this.justProcessed);
    // The live event may come before the answer to our own save (Ready saves the box): the box counts as
    // unsaved only once that answer is in.
    if (this.saving) await this.saving;
    const unsaved = this.open?.index === index && this.dirty ? this.open.name : null;
    this.timeline.forgetFrom(index);
    const [processed] = await Promise.all([
      api.phase(this.id, index).catch(() => null),
      this.loadCurrent(),
      this.loadPhases(),
      this.loadLoans(),
      this.loadVotes(),
    ]);
    if (processed) this.timeline.keep(processed);
    if (processed && this.current && this.current.index !== index && watching) {
      this.timeline.justProcessed = index;
      this.timeline.viewing = index;
    }
    if (this.current?.status === 'processed' || this.game.status !== 'active') await this.reloadGame();
    if (unsaved) this.notify(`${unsaved} was processed with the orders saved on the server: your unsaved changes were not used.`, 'warn', { phase: this.current?.index });
  }

  // ───────────────────────────── live ─────────────────────────────

  async onEvent(event: LiveNews): Promise<void> {
    switch (event.type) {
      case 'unsubscribed': {
        // The server stopped telling this page about the game: read it again. One who may no longer see it (a
        // private game left, or a seat handed on) is told so instead of left with a board that no longer changes.
        try {
          this.game = await api.game(this.id);
        } catch (e) {
          if (e instanceof ApiError && (e.status === 404 || e.status === 403)) {
            this.lost = event.reason;
            this.entry = null;
            this.saved = null;
            this.error = null;
            return;
          }
          this.error = message(e);
        }
        // Still visible (the server could not check, or the game became public to us): listen again, and catch up.
        this.listening++;
        await this.onEvent({ type: 'resync' });
        return;
      }
      case 'resync': {
        // Events may have been missed: fetch everything again; a phase processed meanwhile still shows its results.
        const before = this.open?.index;
        await Promise.all([this.reloadGame(), this.load()]);
        if (before !== undefined && this.current && this.current.index > before) await this.afterProcessing(before);
        return;
      }
      case 'phase.processed': {
        const name = event.phase.name;
        if (this.handledProcessing.has(event.phase.index)) return; // we processed it ourselves
        await this.afterProcessing(event.phase.index);
        // Someone looking at an older phase is told; someone watching sees the results at once.
        if (this.justProcessed !== event.phase.index)
          this.notify(event.next ? `${name} was processed: ${event.next.name} is open for orders.` : `${name} was processed: the game is over.`, 'info', { phase: event.next?.index });
        return;
      }
      case 'phase.started': {
        // A phase after the current one comes with phase.processed, which shows its results first.
        if (this.current && event.phase.index > this.current.index) return;
        // A roll-back in a game that had ended (even to the phase it ended in): the game goes on.
        const reopened = this.finished;
        const earlier = this.current?.index !== event.phase.index;
        if (earlier) {
          // A roll-back re-opened an earlier phase: start over from the server, and say so.
          this.noticeBoard.forgetPhases();
          if (!reopened)
            this.notify(
              `The game master rolled the game back to ${event.phase.name}: the phases after it were discarded, and any draw votes cleared.${dueText(event.phase.deadlineAt)}`,
              'warn',
              { phase: event.phase.index },
            );
          this.handledProcessing = new Set([...this.handledProcessing].filter((i) => i < event.phase.index));
          this.timeline.forgetFrom(event.phase.index);
          this.timeline.viewing = null;
          this.timeline.justProcessed = null;
        }
        if (earlier || reopened) this.announcedDeadline = { phaseIndex: event.phase.index, deadlineAt: event.phase.deadlineAt };
        if (reopened) {
          this.notify(`The game master re-opened the game at ${event.phase.name}: it goes on.${dueText(event.phase.deadlineAt)}`);
          // The game first: the order box is made for a game going on.
          await Promise.all([this.reloadGame(), this.loadVotes()]);
        }
        if (earlier || reopened) await Promise.all([this.loadCurrent(), this.loadPhases(), this.loadLoans(), ...(reopened ? [] : [this.loadVotes()])]);
        return;
      }
      case 'deadline.changed': {
        const wasPaused = this.current?.paused ?? false;
        this.timeline.deadlineChanged(event.phaseIndex, event.deadlineAt, event.paused);
        // The deadline a roll-back set, which its notice gave already: not said twice.
        const announced = this.announcedDeadline;
        this.announcedDeadline = null;
        if (!event.paused && announced?.phaseIndex === event.phaseIndex && announced.deadlineAt === event.deadlineAt) return;
        const due = event.deadlineAt ? localTime(event.deadlineAt) : 'when the game master decides';
        this.notify(
          event.paused && !wasPaused
            ? 'The game master paused the clock.'
            : event.paused
              ? `The deadline is now ${due}; the clock is still paused, and the deadline moves later by as long as it stays paused.`
              : wasPaused
                ? `The game master resumed the clock: orders are now due ${due}.`
                : `The deadline changed: orders are now due ${due}.`,
          'warn',
          { deadlineOf: event.phaseIndex },
        );
        await this.reloadGame();
        return;
      }
      case 'orders.status':
        this.timeline.heardStatus(event);
        if (event.power === this.myPower && this.open?.index === event.phaseIndex) await this.refreshMyOrders();
        return;
      case 'press.message':
        await this.loadPress();
        return;
      case 'loan.changed': {
        // Each party hears what the other (or the adjustment) did; what I did myself, the supply panel said.
        const destroyed = !!this.current?.state.destroyed.includes(event.centre);
        const notice = this.myPower && event.by !== this.myPower ? loanNotice(this.variant, event, this.myPower, destroyed) : null;
        if (notice) this.notify(notice.text, notice.kind, { phase: this.open?.index });
        await Promise.all([this.loadLoans(), this.loadCurrent()]);
        return;
      }
      case 'votes.changed':
        await this.loadVotes();
        return;
      case 'player.status': {
        const before = this.myPower;
        await Promise.all([this.reloadGame(), this.loadCurrent()]);
        if (this.myPower === before) return;
        // The game master handed a seat over: my box goes (or comes), and I am told.
        await this.loadMyOrders();
        if (before && !this.myPower) this.notify(`The game master gave ${before}'s seat to another player: you no longer play in this game, and may watch it.`, 'warn');
        else if (this.myPower) this.notify(`The game master gave you ${this.myPower}'s seat: its orders are yours to give.`, 'warn');
        return;
      }
      case 'gm.action': {
        // Orders the game master enters come with their orders.status event (refreshMyOrders).
        const master = this.game.gameMaster;
        // Who runs the game, who is asked to, and whether the result is final are the game's own facts.
        const gameChanged = event.action === 'take-over' || event.action === 'invite-game-master' || event.action === 'finalize';
        await Promise.all([this.loadLog(), gameChanged ? this.reloadGame() : null, event.action === 'finalize' ? this.loadPress() : null]);
        if (event.action === 'take-over' && this.game.gameMaster.id !== master.id)
          this.notify(this.isMaster ? "You run this game now: the game master's tools are under the Game tab." : `${this.game.gameMaster.username} is the game master now, taking over from ${master.username}.`);
        return;
      }
      case 'gm.invitation':
        await this.reloadGame();
        return;
      case 'gm.proposal': {
        await this.gm.loadProposals(true);
        const p = this.gm.proposals.find((q) => q.id === event.proposalId);
        if (p) await this.gm.tellOutcome(p);
        return;
      }
      case 'game.finished':
        this.notify(`The game is over: ${outcomeText(event.outcome)}.`);
        await Promise.all([this.reloadGame(), this.loadCurrent(), this.loadPhases(), this.loadVotes(), this.loadPress()]);
        return;
      default:
        return;
    }
  }
}

/** " Orders are due …" for a notice about a phase that has just opened ("" without a deadline). */
const dueText = (deadlineAt: string | null) => (deadlineAt ? ` Orders are due ${localTime(deadlineAt)}.` : '');

/** How long before the deadline unsaved changes are first warned of, and then saved (guardDeadline). */
const DEADLINE_WARNING_MS = 10 * 60_000;
const DEADLINE_SAVE_MS = 60_000;
