/**
 * One game as a player (or the game master, or a spectator) sees it, kept current by the live websocket. Components
 * read this store; every change goes through the server and comes back. It holds the game itself (who I am in it)
 * and wires the stores of each concept, which own their state and methods:
 *
 * - phases.svelte.ts: the phases, the one open, the one on screen;
 * - orders.svelte.ts: my orders for the open phase, bound to the server (drafts, save, Ready, the verdict);
 * - deadline-guard.ts: unsaved changes as the deadline nears;
 * - notices.svelte.ts: what the page says above the panel;
 * - press.svelte.ts: press and what is unread;
 * - loans.svelte.ts, votes.svelte.ts: the loans of centres, the draw votes and concessions;
 * - gm.svelte.ts (and consent.ts): the game master's log, and the requests of a game master who plays;
 * - live-events.ts: the live events, and a phase's processing.
 *
 * The members after the stores keep the one surface the board's components read: each hands on to its store.
 */
import { getVariant, rulebookOptions, type Variant } from '../../../shared/index.ts';
import type { GameDetail, PhaseDetail, PhaseSummary } from '../../../shared/api/index.ts';
import { api, type GmProposal } from '../lib/api.ts';
import type { LiveNews } from '../lib/live.ts';
import { Drafts, ReadMarks, browserStore } from './logic.ts';
import { PhaseTimeline } from './phases.svelte.ts';
import { MyOrders } from './orders.svelte.ts';
import { DeadlineGuard } from './deadline-guard.ts';
import { NoticeBoard, type Notice, type NoticeOptions } from './notices.svelte.ts';
import { PressInbox } from './press.svelte.ts';
import { LoanBook } from './loans.svelte.ts';
import { Ballot } from './votes.svelte.ts';
import { ClockVoteBook } from './clock-votes.svelte.ts';
import { GmRecord } from './gm.svelte.ts';
import { LiveEvents } from './live-events.ts';

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
  /**
   * Whether load() has asked for what it reads after the map (history, press, loans, votes, the log): a read asked
   * for once the server listens for the page sees every event up to then, one asked for before may miss some.
   */
  laterReadsSent = false;
  /**
   * What the later reads wait for: the board's map up (GameView sets it), so that they do not compete with its first
   * paint; and what the catch-up once the server listens waits for: the tabs' code loaded too. Nothing to wait for
   * without a board.
   */
  mapUp: Promise<void> = Promise.resolve();
  tabsLoaded: Promise<void> = Promise.resolve();

  readonly timeline: PhaseTimeline = new PhaseTimeline(this);
  readonly noticeBoard = new NoticeBoard();
  readonly myOrders: MyOrders;
  readonly deadlineGuard: DeadlineGuard;
  readonly inbox: PressInbox;
  readonly loanBook: LoanBook = new LoanBook(this);
  readonly ballot: Ballot = new Ballot(this);
  readonly clockVotes: ClockVoteBook = new ClockVoteBook(this);
  readonly gm: GmRecord = new GmRecord(this);
  private readonly live: LiveEvents = new LiveEvents(this);

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
    // A sitter plays the absent player's power for now (shared/api/vacations.ts): its orders and its press are theirs.
    return this.game.players.find((p) => p.isYou)?.power ?? this.game.sittingFor?.power ?? null;
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
    if (this.timeline.current) await this.mapUp;
    this.laterReadsSent = true;
    await Promise.all([
      this.timeline.loadPhases(),
      this.inbox.load(),
      this.loanBook.load(),
      this.ballot.load(),
      this.clockVotes.load(),
      this.gm.loadLog(),
      this.gm.loadProposals(),
    ]);
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
  /** The answer to my save or Ready says it processed the phase. */
  phaseProcessed(index: number): Promise<void> {
    return this.live.phaseProcessed(index);
  }
  onEvent(event: LiveNews): Promise<void> {
    return this.live.handle(event);
  }
  /** The server listens on the game's channel for this page (first, and after each reconnect): catch up. */
  onListening(): Promise<void> {
    return this.live.listening();
  }
  /** The server listens on the user's own channel (private press) for this page: catch up with the press. */
  onPressListening(): Promise<void> {
    return this.live.pressListening();
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
