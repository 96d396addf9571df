/**
 * Unsaved changes as the deadline nears: the player is warned ten minutes before it, and a minute before it they
 * are saved if the engine accepts every line (else the warning says why they cannot be). The deadline does not
 * wait: what is not saved then does not count. Changes that orders saved since from elsewhere overtook are not
 * saved over those orders: the player is told instead.
 */
import type { PhaseDetail } from '../../../shared/api/index.ts';
import type { OrderEntry } from '../orders/order-entry.svelte.ts';
import { plural } from '../lib/format.ts';
import type { NoticeOptions } from './notices.svelte.ts';

/** How long before the deadline unsaved changes are first warned of, and then saved. */
const DEADLINE_WARNING_MS = 10 * 60_000;
const DEADLINE_SAVE_MS = 60_000;

/** What the guard needs of the game's store (room.svelte.ts). */
export interface GuardRoom {
  readonly open: PhaseDetail | null;
  readonly myPower: string | null;
  notify(text: string, kind: 'warn', options: NoticeOptions): void;
}

/** What the guard needs of my orders (orders.svelte.ts). */
export interface GuardedOrders {
  readonly entry: OrderEntry | null;
  readonly dirty: boolean;
  readonly busy: boolean;
  /** Who saved newer orders over these unsaved changes (null: nobody). */
  readonly overtaken: string | null;
  submit(): Promise<boolean>;
}

export class DeadlineGuard {
  /** What the guard did for a phase and deadline. */
  private readonly guarded = new Map<string, 'warned' | 'saved'>();

  constructor(
    private readonly room: GuardRoom,
    private readonly orders: GuardedOrders,
  ) {}

  /** The page calls this every second. */
  check(now: number): void {
    const { open, myPower: power } = this.room;
    const orders = this.orders;
    if (!open || !power || !orders.entry || open.paused || !open.deadlineAt || !orders.dirty || orders.busy) return;
    const left = new Date(open.deadlineAt).getTime() - now;
    const key = `${open.index} ${open.deadlineAt}`;
    if (left <= 0 || left > DEADLINE_WARNING_MS || this.guarded.get(key) === 'saved') return;
    const minutes = Math.max(1, Math.round(left / 60_000));
    const refused = orders.entry.refusedLines(power);
    // A warning goes once the changes are saved or discarded.
    const warning = { deadlineOf: open.index, until: () => !orders.dirty };
    const due = `Orders are due in ${plural(minutes, 'minute')} and your changes are not saved`;
    const overtaken = `Orders are due in ${plural(minutes, 'minute')}, and your changes here are not saved for you: ${orders.overtaken} after you began them.`;
    if (left <= DEADLINE_SAVE_MS) {
      this.guarded.set(key, 'saved');
      if (orders.overtaken) {
        this.room.notify(`${overtaken} Save them to replace those orders.`, 'warn', warning);
        return;
      }
      if (refused > 0) {
        this.room.notify(
          `${due}: ${plural(refused, 'line')} would be refused. Correct or delete ${refused === 1 ? 'it' : 'them'}, then save.`,
          'warn',
          warning,
        );
        return;
      }
      void orders.submit().then((saved) => {
        if (saved) this.room.notify('A minute before the deadline, your unsaved changes were saved for you.', 'warn', { deadlineOf: open.index });
      });
      return;
    }
    if (this.guarded.has(key)) return;
    this.guarded.set(key, 'warned');
    this.room.notify(
      orders.overtaken
        ? `${overtaken} Save them to replace those orders, or discard them.`
        : `${due}. Save them: a minute before the deadline they are saved for you, if every line is accepted.`,
      'warn',
      warning,
    );
  }
}
