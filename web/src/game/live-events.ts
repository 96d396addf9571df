/**
 * How the board follows the game as it moves on: the live events of its channels (`game:<id>`, and `user:<id>` for
 * private press), each brought to the stores it concerns with what the player is told of it, and a phase's
 * processing, heard live or answered to the player's own save or Ready: its results are shown, then the next phase.
 */
import type { Variant } from '../../../shared/index.ts';
import type { GameDetail } from '../../../shared/api/index.ts';
import { ApiError, api } from '../lib/api.ts';
import type { LiveNews } from '../lib/live.ts';
import { listInWords, outcomeText } from '../lib/format.ts';
import { localTime } from './logic.ts';
import type { PhaseTimeline } from './phases.svelte.ts';
import type { MyOrders } from './orders.svelte.ts';
import type { NoticeBoard } from './notices.svelte.ts';
import type { PressInbox } from './press.svelte.ts';
import { loanNotice, type LoanBook } from './loans.svelte.ts';
import type { Ballot } from './votes.svelte.ts';
import type { GmRecord } from './gm.svelte.ts';
import { withSea } from './campaign-seas.ts';

/** What following the game needs of its store (room.svelte.ts): the game, and the stores the events change. */
export interface LiveRoom {
  game: GameDetail;
  readonly id: string;
  readonly variant: Variant;
  readonly myPower: string | null;
  readonly isMaster: boolean;
  readonly finished: boolean;
  lost: string | null;
  listening: number;
  readonly laterReadsSent: boolean;
  readonly tabsLoaded: Promise<void>;
  error: string | null;
  failed(e: unknown): void;
  reloadGame(): Promise<void>;
  load(): Promise<void>;
  readonly timeline: PhaseTimeline;
  readonly myOrders: MyOrders;
  readonly noticeBoard: NoticeBoard;
  readonly inbox: PressInbox;
  readonly loanBook: LoanBook;
  readonly ballot: Ballot;
  readonly clockVotes: { load(): Promise<void> };
  readonly gm: GmRecord;
}

export class LiveEvents {
  /** The phases whose processing this page has handled (shown their results): once each. */
  private readonly handled = new Set<number>();
  /** The deadline a roll-back's notice gave, until the deadline.changed that follows it. */
  private announcedDeadline: { phaseIndex: number; deadlineAt: string | null } | null = null;

  constructor(private readonly room: LiveRoom) {}

  /** A phase was adjudicated (by us, the clock, or the game master): show its results, then the next phase. */
  async phaseProcessed(index: number): Promise<void> {
    const room = this.room;
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
      room.clockVotes.load(),
    ]);
    if (processed) timeline.keep(processed);
    if (processed && timeline.current && timeline.current.index !== index && watching) {
      timeline.justProcessed = index;
      timeline.viewing = index;
    }
    if (timeline.current?.status === 'processed' || room.game.status !== 'active') await room.reloadGame();
    if (unsaved)
      room.noticeBoard.notify(`${unsaved} was processed with the orders saved on the server: your unsaved changes were not used.`, 'warn', {
        phase: timeline.current?.index,
      });
  }

  /**
   * The server listens on the game's channel for this page (`subscribed`: the first time, and after a reconnect).
   * What was read before may predate an event between that read and the subscription, told to nobody here (a phase
   * processed, a deadline moved, a message): it is read again. On opening the board, while its later reads (history,
   * press, loans, votes, log) are not yet asked for, they will see the game as it is: the game and its open phase
   * (with my orders) are read again once the map is up and the tabs' code loaded (not to slow the first paint), and a
   * phase processed meanwhile shows its results; else everything is.
   */
  async listening(): Promise<void> {
    const room = this.room;
    if (room.laterReadsSent) return this.handle({ type: 'resync' });
    await room.tabsLoaded;
    const timeline = room.timeline;
    const before = timeline.open?.index;
    await Promise.all([room.reloadGame(), timeline.loadCurrent()]);
    if (before !== undefined && timeline.current && timeline.current.index > before) await this.phaseProcessed(before);
    else if (timeline.open && timeline.open.index === before) await room.myOrders.refresh();
  }

  /** The server listens on the user's own channel: private press sent before then, after the press was read, is read. */
  async pressListening(): Promise<void> {
    if (this.room.laterReadsSent) await this.room.inbox.load();
  }

  async handle(event: LiveNews): Promise<void> {
    const room = this.room;
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
        await this.handle({ type: 'resync' });
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
          notices.notify(event.next ? `${name} was processed: ${event.next.name} is open for orders.` : `${name} was processed: the game is over.`, 'info', {
            phase: event.next?.index,
          });
        return;
      }
      case 'phase.held': {
        // Campaign play: the orders are final, the results wait for the contested seas' battles (SeaBattles.svelte).
        await timeline.loadCurrent();
        const n = event.seas.length;
        notices.notify(
          `The orders of ${event.phase.name} are final: its results wait for the battle${n === 1 ? '' : 's'} in ${n} contested sea${n === 1 ? '' : 's'}.`,
          'info',
          {
            phase: event.phase.index,
          },
        );
        return;
      }
      case 'sea.changed':
        if (timeline.current?.index === event.phaseIndex) timeline.current = withSea(timeline.current, event.sea);
        return;
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
          event.reason === 'grace'
            ? graceText(event.powers ?? [], due)
            : event.reason === 'vacation'
              ? `The deadline fell in a player's declared absence, so it moved: orders are now due ${due}.`
              : event.paused && !wasPaused
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
      case 'clock-vote.changed':
        await room.clockVotes.load();
        return;
      case 'player.status': {
        const before = room.myPower;
        await Promise.all([room.reloadGame(), timeline.loadCurrent()]);
        if (room.myPower === before) return;
        // The game master handed a seat over: my box goes (or comes), and I am told.
        await room.myOrders.load();
        if (before && !room.myPower)
          notices.notify(`The game master gave ${before}'s seat to another player: you no longer play in this game, and may watch it.`, 'warn');
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
          notices.notify(
            room.isMaster
              ? "You run this game now: the game master's tools are under the Game tab."
              : `${room.game.gameMaster.username} is the game master now, taking over from ${master.username}.`,
          );
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
}

/** Why a deadline moved by itself: grace for powers that sent no orders (server/play/grace.ts). */
export function graceText(powers: readonly string[], due: string): string {
  const who = powers.length > 0 ? listInWords(powers) : 'A power';
  return `${who} sent no orders by the deadline, so the game gave ${powers.length > 1 ? 'them' : 'it'} grace: orders are now due ${due}.`;
}

/** " Orders are due …" for a notice about a phase that has just opened ("" without a deadline). */
const dueText = (deadlineAt: string | null) => (deadlineAt ? ` Orders are due ${localTime(deadlineAt)}.` : '');
