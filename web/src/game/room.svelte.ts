/**
 * One game as a player (or the game master, or a spectator) sees it, kept current by the live websocket. Components
 * read this store; every change goes through the server and comes back. It holds the game itself (who I am in it)
 * and wires the stores of each concept, which own their state and methods, and follows the live events:
 *
 * - phases.svelte.ts: the phases, the one open, the one on screen;
 * - orders.svelte.ts: my orders for the open phase, bound to the server (drafts, save, Ready, the verdict);
 * - deadline-guard.ts: unsaved changes as the deadline nears;
 * - notices.svelte.ts: what the page says above the panel;
 * - press.svelte.ts: press and what is unread;
 * - loans.svelte.ts, votes.svelte.ts: the loans of centres, the draw votes and concessions;
 * - gm.svelte.ts (and consent.ts): the game master's log, and the requests of a game master who plays;
 *
 * The members after the stores keep the one surface the board's components read: each hands on to its store.
 */
import { getVariant, rulebookOptions, type Variant } from '../../../shared/index.ts';
import type { GameDetail, PhaseDetail, PhaseSummary } from '../../../shared/api/index.ts';
import { ApiError, api, type GmProposal } from '../lib/api.ts';
import { outcomeText } from '../lib/format.ts';
import type { LiveNews } from '../lib/live.ts';
import { Drafts, ReadMarks, browserStore, localTime } from './logic.ts';
import { PhaseTimeline } from './phases.svelte.ts';
import { MyOrders } from './orders.svelte.ts';
import { DeadlineGuard } from './deadline-guard.ts';
import { NoticeBoard, type Notice, type NoticeOptions } from './notices.svelte.ts';
import { PressInbox } from './press.svelte.ts';
import { LoanBook, loanNotice } from './loans.svelte.ts';
import { Ballot } from './votes.svelte.ts';
import { GmRecord } from './gm.svelte.ts';

export type { Notice } from './notices.svelte.ts';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class GameRoom {
  readonly variant: Variant;
  game = $state.raw<GameDetail>() as unknown as GameDetail;
  /** What went wrong with the last request, in the server's words. */
  error = $state<string | null>(null);
  /**
   * The server stopped telling this page about the game and it may no longer be seen (a private game one left, or
   * whose seat was handed on): why, in the server's words. The page then shows no board.
   */
  lost = $state<string | null>(null);
  /** Counts the times the page must subscribe to the game's channel again (the server ended the subscription). */
  listening = $state(0);

  readonly timeline: PhaseTimeline = new PhaseTimeline(this);
  readonly noticeBoard = new NoticeBoard();
  readonly myOrders: MyOrders;
  readonly deadlineGuard: DeadlineGuard;
  readonly inbox: PressInbox;
  readonly loanBook: LoanBook = new LoanBook(this);
  readonly ballot: Ballot = new Ballot(this);
  readonly gm: GmRecord = new GmRecord(this);

  constructor(
    game: GameDetail,
    /** The logged-in user's id (the session may answer after the board is up). */
    private readonly me: () => string | null,
  ) {
    this.variant = getVariant(game.variant, rulebookOptions(game.rules))!;
    this.game = game;
    const store = browserStore();
    this.myOrders = new MyOrders(this, new Drafts(store));
    this.deadlineGuard = new DeadlineGuard(this, this.myOrders);
    this.inbox = new PressInbox(this, new ReadMarks(store));
  }

  get id() {
    return this.game.id;
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

  failed(e: unknown): void {
    this.error = message(e);
  }

  /** Everything, in parallel: the first paint needs the phase (maybe fetched already); the rest follows. */
  async load(prefetched: Promise<PhaseDetail | null> | null = null): Promise<void> {
    // A game read while it was starting may still say "forming", without the powers drawn: read it again.
    const starting = this.game.status === 'forming' || this.game.players.some((p) => p.isYou && p.power === null);
    // The map first; the rest (history, press, loans, votes, log) once it is up, so they do not compete with it.
    await Promise.all([this.timeline.loadCurrent(prefetched), starting ? this.reloadGame() : null]);
    if (starting && this.open && !this.entry) await this.myOrders.load();
    await Promise.all([this.timeline.loadPhases(), this.inbox.load(), this.loanBook.load(), this.ballot.load(), this.gm.loadLog(), this.gm.loadProposals()]);
  }

  async reloadGame(): Promise<void> {
    try {
      this.game = await api.game(this.id);
    } catch (e) {
      this.failed(e);
    }
  }

  /** The last phase was read: the order box follows it. */
  followCurrent(detail: PhaseDetail, changed: boolean): Promise<void> | null {
    return this.myOrders.follow(detail, changed);
  }
  // ── the live events, and a phase's processing ──

  /** The phases whose processing this page has handled (shown their results): once each. */
  private readonly handled = new Set<number>();
  /** The deadline a roll-back's notice gave, until the deadline.changed that follows it. */
  private announcedDeadline: { phaseIndex: number; deadlineAt: string | null } | null = null;

  /** A phase was adjudicated (by us, the clock, or the game master): show its results, then the next phase. */
  async phaseProcessed(index: number): Promise<void> {
    const room = this;
    const timeline = room.timeline;
    if (this.handled.has(index)) return;
    this.handled.add(index);
    room.noticeBoard.forgetPhasesBefore(index + 1);
    // Someone on the last phase, or on the results shown them after it, watches the game: the new results are shown.
    const watching = timeline.viewing === null || (timeline.justProcessed !== null && timeline.viewing === timeline.justProcessed);
    // The live event may come before the answer to our own save (Ready saves the box): the box counts as
    // unsaved only once that answer is in.
    const saving = room.myOrders.saving;
    if (saving) await saving;
    const open = timeline.open;
    const unsaved = open?.index === index && room.myOrders.dirty ? open.name : null;
    timeline.forgetFrom(index);
    const [processed] = await Promise.all([
      api.phase(room.id, index).catch(() => null),
      timeline.loadCurrent(),
      timeline.loadPhases(),
      room.loanBook.load(),
      room.ballot.load(),
    ]);
    if (processed) timeline.keep(processed);
    if (processed && timeline.current && timeline.current.index !== index && watching) {
      timeline.justProcessed = index;
      timeline.viewing = index;
    }
    if (timeline.current?.status === 'processed' || room.game.status !== 'active') await room.reloadGame();
    if (unsaved) room.noticeBoard.notify(`${unsaved} was processed with the orders saved on the server: your unsaved changes were not used.`, 'warn', { phase: timeline.current?.index });
  }

  async onEvent(event: LiveNews): Promise<void> {
    const room = this;
    const timeline = room.timeline;
    const notices = room.noticeBoard;
    switch (event.type) {
      case 'unsubscribed': {
        // The server stopped telling this page about the game: read it again. One who may no longer see it (a
        // private game left, or a seat handed on) is told so instead of left with a board that no longer changes.
        try {
          room.game = await api.game(room.id);
        } catch (e) {
          if (e instanceof ApiError && (e.status === 404 || e.status === 403)) {
            room.lost = event.reason;
            room.myOrders.close();
            room.error = null;
            return;
          }
          room.failed(e);
        }
        // Still visible (the server could not check, or the game became public to us): listen again, and catch up.
        room.listening++;
        await this.onEvent({ type: 'resync' });
        return;
      }
      case 'resync': {
        // Events may have been missed: fetch everything again; a phase processed meanwhile still shows its results.
        const before = timeline.open?.index;
        await Promise.all([room.reloadGame(), room.load()]);
        if (before !== undefined && timeline.current && timeline.current.index > before) await this.phaseProcessed(before);
        return;
      }
      case 'phase.processed': {
        const name = event.phase.name;
        if (this.handled.has(event.phase.index)) return; // we processed it ourselves
        await this.phaseProcessed(event.phase.index);
        // Someone looking at an older phase is told; someone watching sees the results at once.
        if (timeline.justProcessed !== event.phase.index)
          notices.notify(event.next ? `${name} was processed: ${event.next.name} is open for orders.` : `${name} was processed: the game is over.`, 'info', { phase: event.next?.index });
        return;
      }
      case 'phase.started': {
        // A phase after the current one comes with phase.processed, which shows its results first.
        if (timeline.current && event.phase.index > timeline.current.index) return;
        // A roll-back in a game that had ended (even to the phase it ended in): the game goes on.
        const reopened = room.finished;
        const earlier = timeline.current?.index !== event.phase.index;
        if (earlier) {
          // A roll-back re-opened an earlier phase: start over from the server, and say so.
          notices.forgetPhases();
          if (!reopened)
            notices.notify(
              `The game master rolled the game back to ${event.phase.name}: the phases after it were discarded, and any draw votes cleared.${dueText(event.phase.deadlineAt)}`,
              'warn',
              { phase: event.phase.index },
            );
          for (const i of this.handled) if (i >= event.phase.index) this.handled.delete(i);
          timeline.forgetFrom(event.phase.index);
          timeline.viewing = null;
          timeline.justProcessed = null;
        }
        if (earlier || reopened) this.announcedDeadline = { phaseIndex: event.phase.index, deadlineAt: event.phase.deadlineAt };
        if (reopened) {
          notices.notify(`The game master re-opened the game at ${event.phase.name}: it goes on.${dueText(event.phase.deadlineAt)}`);
          // The game first: the order box is made for a game going on.
          await Promise.all([room.reloadGame(), room.ballot.load()]);
        }
        if (earlier || reopened)
          await Promise.all([timeline.loadCurrent(), timeline.loadPhases(), room.loanBook.load(), ...(reopened ? [] : [room.ballot.load()])]);
        return;
      }
      case 'deadline.changed': {
        const wasPaused = timeline.current?.paused ?? false;
        timeline.deadlineChanged(event.phaseIndex, event.deadlineAt, event.paused);
        // The deadline a roll-back set, which its notice gave already: not said twice.
        const announced = this.announcedDeadline;
        this.announcedDeadline = null;
        if (!event.paused && announced?.phaseIndex === event.phaseIndex && announced.deadlineAt === event.deadlineAt) return;
        const due = event.deadlineAt ? localTime(event.deadlineAt) : 'when the game master decides';
        notices.notify(
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
        await room.reloadGame();
        return;
      }
      case 'orders.status':
        timeline.heardStatus(event);
        if (event.power === room.myPower && timeline.open?.index === event.phaseIndex) await room.myOrders.refresh();
        return;
      case 'press.message':
        await room.inbox.load();
        return;
      case 'loan.changed': {
        // Each party hears what the other (or the adjustment) did; what I did myself, the supply panel said.
        const destroyed = !!timeline.current?.state.destroyed.includes(event.centre);
        const notice = room.myPower && event.by !== room.myPower ? loanNotice(room.variant, event, room.myPower, destroyed) : null;
        if (notice) notices.notify(notice.text, notice.kind, { phase: timeline.open?.index });
        await Promise.all([room.loanBook.load(), timeline.loadCurrent()]);
        return;
      }
      case 'votes.changed':
        await room.ballot.load();
        return;
      case 'player.status': {
        const before = room.myPower;
        await Promise.all([room.reloadGame(), timeline.loadCurrent()]);
        if (room.myPower === before) return;
        // The game master handed a seat over: my box goes (or comes), and I am told.
        await room.myOrders.load();
        if (before && !room.myPower) notices.notify(`The game master gave ${before}'s seat to another player: you no longer play in this game, and may watch it.`, 'warn');
        else if (room.myPower) notices.notify(`The game master gave you ${room.myPower}'s seat: its orders are yours to give.`, 'warn');
        return;
      }
      case 'gm.action': {
        // Orders the game master enters come with their orders.status event (MyOrders.refresh).
        const master = room.game.gameMaster;
        // Who runs the game, who is asked to, and whether the result is final are the game's own facts.
        const gameChanged = event.action === 'take-over' || event.action === 'invite-game-master' || event.action === 'finalize';
        await Promise.all([room.gm.loadLog(), gameChanged ? room.reloadGame() : null, event.action === 'finalize' ? room.inbox.load() : null]);
        if (event.action === 'take-over' && room.game.gameMaster.id !== master.id)
          notices.notify(room.isMaster ? "You run this game now: the game master's tools are under the Game tab." : `${room.game.gameMaster.username} is the game master now, taking over from ${master.username}.`);
        return;
      }
      case 'gm.invitation':
        await room.reloadGame();
        return;
      case 'gm.proposal': {
        await room.gm.loadProposals(true);
        const p = room.gm.proposals.find((q) => q.id === event.proposalId);
        if (p) await room.gm.tellOutcome(p);
        return;
      }
      case 'game.finished':
        notices.notify(`The game is over: ${outcomeText(event.outcome)}.`);
        await Promise.all([room.reloadGame(), timeline.loadCurrent(), timeline.loadPhases(), room.ballot.load(), room.inbox.load()]);
        return;
      default:
        return;
    }
  }

  // ── the phases (phases.svelte.ts) ──
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
  phaseName(index: number): string | null {
    return this.timeline.phaseName(index);
  }
  patchPower(power: string, patch: Partial<PhaseDetail['powers'][number]>): void {
    this.timeline.patchPower(power, patch);
  }
  loadCurrent(): Promise<void> {
    return this.timeline.loadCurrent();
  }
  view(index: number | null): Promise<void> {
    return this.timeline.view(index);
  }

  // ── my orders (orders.svelte.ts, deadline-guard.ts) ──
  get entry() {
    return this.myOrders.entry;
  }
  get saved() {
    return this.myOrders.saved;
  }
  get verdict() {
    return this.myOrders.verdict;
  }
  get draftRestored(): boolean {
    return this.myOrders.draftRestored;
  }
  get busy(): boolean {
    return this.myOrders.busy;
  }
  get dirty(): boolean {
    return this.myOrders.dirty;
  }
  keepDraft(): void {
    this.myOrders.keepDraft();
  }
  submit(ready?: boolean): Promise<boolean> {
    return this.myOrders.submit(ready);
  }
  setReady(ready: boolean): Promise<void> {
    return this.myOrders.setReady(ready);
  }
  discardDraft(): void {
    this.myOrders.discardDraft();
  }
  guardDeadline(now: number): void {
    this.deadlineGuard.check(now);
  }

  // ── notices (notices.svelte.ts) ──
  get notices(): Notice[] {
    return this.noticeBoard.shown;
  }
  notify(text: string, kind: Notice['kind'] = 'info', options: NoticeOptions = {}): void {
    this.noticeBoard.notify(text, kind, options);
  }
  dismiss(id: number): void {
    this.noticeBoard.dismiss(id);
  }

  // ── press (press.svelte.ts) ──
  get press() {
    return this.inbox.messages;
  }
  get conversations() {
    return this.inbox.conversations;
  }
  get unread(): number {
    return this.inbox.unread;
  }
  loadPress(): Promise<void> {
    return this.inbox.load();
  }
  markRead(conversation: string): void {
    this.inbox.markRead(conversation);
  }

  // ── loans and votes (loans.svelte.ts, votes.svelte.ts) ──
  get loans() {
    return this.loanBook.list;
  }
  loadLoans(): Promise<void> {
    return this.loanBook.load();
  }
  get votes() {
    return this.ballot.votes;
  }
  loadVotes(): Promise<void> {
    return this.ballot.load();
  }

  // ── the game master (gm.svelte.ts) ──
  get log() {
    return this.gm.log;
  }
  set log(actions: GmRecord['log']) {
    this.gm.log = actions;
  }
  get proposals(): GmProposal[] {
    return this.gm.proposals;
  }
  get openProposal(): GmProposal | null {
    return this.gm.openProposal;
  }
  get askedOfMe(): GmProposal | null {
    return this.gm.askedOfMe;
  }
  get answering(): boolean {
    return this.gm.answering;
  }
  get answerError(): string | null {
    return this.gm.answerError;
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
}

/** " Orders are due …" for a notice about a phase that has just opened ("" without a deadline). */
const dueText = (deadlineAt: string | null) => (deadlineAt ? ` Orders are due ${localTime(deadlineAt)}.` : '');
