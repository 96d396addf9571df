/**
 * What the game master did, as the board shows it: the GM's log, and the requests of a game master who also plays,
 * put to the players for their consent (answered, and told of, by consent.ts, loaded when there is one).
 */
import { ApiError, api, type GmLog, type GmProposal } from '../lib/api.ts';
import type { ConsentRoom } from './consent.ts';
import type { NoticeOptions } from './notices.svelte.ts';
import type { OrderEntry } from '../orders/order-entry.svelte.ts';

/** The orders the game master is entering for a power (GmTools): for which phase and power, and the entry itself. */
export interface GmOrders {
  /** "<phase index> <power>": a new entry for another power or phase. */
  readonly key: string;
  readonly power: string;
  readonly entry: OrderEntry;
}

/** What the game master's record needs of the game's store (room.svelte.ts). */
export interface GmRoom {
  readonly id: string;
  readonly game: { anonymous: boolean; gameMasterPlays: boolean };
  readonly myPower: string | null;
  readonly isMaster: boolean;
  phaseName(index: number): string | null;
  notify(text: string, kind?: 'info' | 'warn', options?: NoticeOptions): void;
  reloadGame(): Promise<void>;
  failed(e: unknown): void;
}

export class GmRecord implements ConsentRoom {
  log = $state.raw<GmLog['actions']>([]);
  /** A game master who also plays: the requests put to the players for their consent, oldest first. */
  proposals = $state.raw<GmProposal[]>([]);
  /** A player's answer to a request on its way, and what went wrong with the last one. */
  answering = $state(false);
  answerError = $state<string | null>(null);
  /**
   * The game master's order entry for a power, kept here rather than in the tools: the map is bound to it while the
   * tools show (as to a player's own orders), and what was typed survives a look at another tab.
   */
  orders = $state.raw<GmOrders | null>(null);
  /** Requests whose end was told already (by the answer to my own, or by an earlier event). */
  readonly toldProposals = new Set<string>();

  constructor(private readonly room: GmRoom) {}

  // What consent.ts asks of the room, besides the requests themselves.
  get id(): string {
    return this.room.id;
  }
  get game(): { anonymous: boolean } {
    return this.room.game;
  }
  get myPower(): string | null {
    return this.room.myPower;
  }
  get isMaster(): boolean {
    return this.room.isMaster;
  }
  phaseName(index: number): string | null {
    return this.room.phaseName(index);
  }
  notify(text: string, kind?: 'info' | 'warn', options?: NoticeOptions): void {
    this.room.notify(text, kind, options);
  }
  reloadGame(): Promise<void> {
    return this.room.reloadGame();
  }

  /** The request of a game master who plays that still waits for the players (one at a time). */
  get openProposal(): GmProposal | null {
    return this.proposals.find((p) => p.status === 'open') ?? null;
  }
  /** That request, when it waits for my power's answer. */
  get askedOfMe(): GmProposal | null {
    const p = this.openProposal;
    const me = this.room.myPower;
    return p && me && p.needed.includes(me) && !p.agreed.includes(me) ? p : null;
  }

  async loadLog(): Promise<void> {
    try {
      this.log = (await api.gmLog(this.room.id)).actions;
    } catch (e) {
      this.room.failed(e);
    }
  }

  /** Requests exist only where the game master plays (or played): other games are not asked. */
  async loadProposals(force = false): Promise<void> {
    if (!force && !this.room.game.gameMasterPlays && this.proposals.length === 0) return;
    try {
      this.proposals = (await api.gm.proposals(this.room.id)).proposals;
    } catch (e) {
      if (!(e instanceof ApiError && (e.status === 403 || e.status === 404))) this.room.failed(e);
    }
  }

  // The answers and their words load with the first request there is to answer or tell of (consent.ts): most
  // boards never need them, and the map does not wait for them.

  /** Tells the players who were asked, and the game master who asked, what became of a request. */
  async tellOutcome(p: GmProposal): Promise<void> {
    if (p.status !== 'open' && !this.toldProposals.has(p.id)) (await import('./consent.ts')).tellOutcome(this, p);
  }

  /** Agree to (or refuse) the game master's request; the last agreement carries it out. */
  async answerProposal(p: GmProposal, agree: boolean): Promise<void> {
    await (await import('./consent.ts')).answerProposal(this, p, agree);
  }
}
