/**
 * One battle as its page shows it: the battle as one's seat may see it, its whole log, and the calls that change
 * it (join, leave, act). Live events on `battle:<id>` make it read the battle again, and the log from the first
 * entry it may not have whole (a plot hidden until its turn resolved).
 */
import { ApiError, api } from '../lib/api.ts';
import { live } from '../lib/live.ts';
import { coalescedReload } from '../lib/reload.ts';
import type { BattleDetail, BattleLogEntry } from './types.ts';

/** The most log pages read in one go (500 entries each: a long Classis battle has a few thousand actions). */
const MOST_LOG_PAGES = 50;

export class BattleRoom {
  detail = $state<BattleDetail | null>(null);
  entries = $state<BattleLogEntry[]>([]);
  error = $state<string | null>(null);
  /** No such battle, or a private one opened without its code: the page asks for the code. */
  notFound = $state(false);
  busy = $state(false);
  /** What the last action or seat change said (a refusal, or that the battle moved on). */
  notice = $state<string | null>(null);

  constructor(
    readonly id: string,
    readonly inviteCode: string | undefined = undefined,
  ) {}

  async load(): Promise<void> {
    try {
      const detail = await api.battle(this.id, this.inviteCode);
      this.show(detail);
      this.notFound = false;
      this.error = null;
      await this.loadLog();
    } catch (e) {
      this.notFound = e instanceof ApiError && e.status === 404;
      // No longer ours to see (a private battle left): not left on screen as it was.
      if (this.notFound) this.detail = null;
      this.error = this.notFound
        ? this.inviteCode
          ? 'There is no such battle, or that is not its invitation code.'
          : 'There is no such battle, or it is private.'
        : e instanceof Error
          ? e.message
          : String(e);
    }
  }

  /**
   * Shows a reading of the battle unless it is older than the one held: a reading asked for before an action (one's
   * own, or the other side's told by a live event) can arrive after a newer one, and would put the battle back a
   * step (and the page's half-made choice with it) until the next live event.
   */
  private show(read: BattleDetail): void {
    const held = this.detail;
    if (held === null || held.id !== read.id || read.actionCount >= held.actionCount) this.detail = read;
  }

  /** The log's reads, one after another (see `loadLog`). */
  private logReads: Promise<void> = Promise.resolve();

  /**
   * Reads the log from the first entry not held whole, and merges it by index. Reads run one at a time, each from
   * the entries the last one left: two at once (a live event's and an action's) would each merge into the entries
   * as they were when it began, and the one answered last would drop what the other had read.
   */
  loadLog(): Promise<void> {
    const read = this.logReads.catch(() => {}).then(() => this.readLog());
    this.logReads = read;
    return read;
  }

  private async readLog(): Promise<void> {
    const firstHidden = this.entries.find((e) => e.hidden);
    const last = this.entries.at(-1)?.index ?? 0;
    let after = firstHidden ? Math.max(0, firstHidden.index - 1) : last;
    const byIndex = new Map(this.entries.map((e) => [e.index, e]));
    for (let page = 0; page < MOST_LOG_PAGES; page++) {
      const log = await api.battleLog(this.id, after, this.inviteCode);
      for (const e of log.entries) byIndex.set(e.index, e);
      if (log.next === null || log.entries.length === 0) break;
      after = log.next;
    }
    this.entries = [...byIndex.values()].sort((a, b) => a.index - b.index);
  }

  /** Takes an action for one's side; a battle that moved on since is read again and said so. */
  async act(action: unknown): Promise<boolean> {
    const detail = this.detail;
    if (!detail || this.busy) return false;
    this.busy = true;
    this.notice = null;
    try {
      this.show(await api.battleAct(this.id, { action, expected: detail.actionCount }));
      await this.loadLog();
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        this.notice = 'The battle moved on before your action arrived: here it is as it stands now.';
        await this.load();
      } else this.notice = e instanceof Error ? e.message : String(e);
      return false;
    } finally {
      this.busy = false;
    }
  }

  async join(seat: string, entropy?: string): Promise<void> {
    await this.seatChange(() =>
      api.joinBattle(this.id, { seat, ...(this.inviteCode ? { inviteCode: this.inviteCode } : {}), ...(entropy ? { entropy } : {}) }),
    );
  }

  async leave(): Promise<void> {
    await this.seatChange(() => api.leaveBattle(this.id));
  }

  /** The creator calls the battle off before it starts. */
  async cancel(): Promise<void> {
    await this.seatChange(() => api.cancelBattle(this.id));
  }

  private async seatChange(call: () => Promise<BattleDetail>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.notice = null;
    try {
      this.show(await call());
      await this.loadLog();
      // A private battle's channel is its members' only: listened to again now that this seat may (or may no longer).
      if (this.relisten) {
        this.relisten();
        await this.load();
      }
    } catch (e) {
      this.notice = e instanceof Error ? e.message : String(e);
    } finally {
      this.busy = false;
    }
  }

  /** Subscribes to the battle's channel afresh, while the page watches it (see `watch`). */
  private relisten: (() => void) | null = null;

  /**
   * Listens on the battle's channel (with the invitation code, when the page was opened by one: it lets a private
   * battle's visitor without a seat watch); returns the function that stops. A seat taken or left subscribes again
   * (`seatChange`), since who may watch changed.
   */
  watch(): () => void {
    const reloader = coalescedReload(() => this.load());
    const channel = `battle:${this.id}` as const;
    const inviteCode = this.inviteCode;
    let stop = (): void => {};
    const listen = () => {
      stop();
      stop = live.subscribe(channel, onNews, inviteCode);
    };
    function onNews(news: { type: string }) {
      reloader.ask();
      // The server ended the subscription (the battle can no longer be seen): read it again, and listen again if it can.
      if (news.type === 'unsubscribed') stop = live.subscribe(channel, onNews, inviteCode);
    }
    listen();
    this.relisten = listen;
    return () => {
      this.relisten = null;
      stop();
      reloader.stop();
    };
  }
}
