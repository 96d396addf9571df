/**
 * Loans of supply centres (a variant's rule: `loans` in its data): the game's list, and what a party to a loan is told of a
 * change it did not make itself.
 */
import type { Variant } from '../../../shared/index.ts';
import type { LiveEvent } from '../../../shared/api/index.ts';
import { api, type LoanList } from '../lib/api.ts';
import { locationName } from '../../../shared/drawing/overlay.ts';
import type { Notice, NoticeOptions } from './notices.svelte.ts';

/** What the loans need of the game's store (room.svelte.ts). */
export interface LoansRoom {
  readonly id: string;
  readonly variant: Variant;
  readonly myPower: string | null;
  /** The phase being played, if any. */
  readonly open: { index: number } | null;
  failed(e: unknown): void;
  notify(text: string, kind?: Notice['kind'], options?: NoticeOptions): void;
}

export class LoanBook {
  list = $state.raw<LoanList | null>(null);
  /** The loans made to me in this phase have been told once, as the board opened. */
  private toldOnOpening = false;

  constructor(private readonly room: LoansRoom) {}

  async load(): Promise<void> {
    if (!this.room.variant.data.rules.loans) return;
    try {
      this.list = await api.loans(this.room.id);
    } catch (e) {
      this.room.failed(e);
      return;
    }
    if (!this.toldOnOpening) {
      this.toldOnOpening = true;
      this.tellBorrower();
    }
  }

  /**
   * A borrower who was away when a loan was made to them learns of it on opening the board, as they would have live
   * (the same words, so the live event after it says it once): the loans to them made in the phase being played.
   */
  private tellBorrower(): void {
    const { myPower: me, open, variant } = this.room;
    if (!me || !open || !this.list) return;
    for (const loan of this.list.loans) {
      if (loan.borrower !== me || loan.status !== 'active' || loan.startedInPhase !== open.index) continue;
      const event = {
        type: 'loan.changed',
        gameId: this.room.id,
        action: 'lend',
        centre: loan.centre,
        lender: loan.lender,
        borrower: me,
        by: loan.lender,
      } as const;
      const notice = loanNotice(variant, event, me, false);
      if (notice) this.room.notify(notice.text, notice.kind, { phase: open.index });
    }
  }
}

/** What a party to a loan is told of a change it did not make itself (null: not a party). */
export function loanNotice(
  variant: Variant,
  event: Extract<LiveEvent, { type: 'loan.changed' }>,
  me: string,
  destroyed: boolean,
): Pick<Notice, 'text' | 'kind'> | null {
  const { lender, borrower, by } = event;
  const centre = locationName(variant, event.centre);
  const ended = (loan: string) =>
    by === null ? `${loan[0].toUpperCase()}${loan.slice(1)} ended at the adjustment (a capture or a rebellion)` : `${by} ended ${loan}`;
  if (borrower === me) {
    if (event.action === 'lend') return { text: `${lender} lent you ${centre}: it supports one of your units while the loan lasts.`, kind: 'info' };
    const loan = by === lender ? `its loan of ${centre} to you` : `${lender}'s loan of ${centre} to you`;
    return { text: `${ended(loan)}: your units need other support by the next adjustment.`, kind: 'warn' };
  }
  if (lender === me && event.action === 'end') {
    const loan = by === borrower ? `your loan of ${centre}` : `your loan of ${centre} to ${borrower}`;
    return {
      text: `${ended(loan)}: ${destroyed ? 'it is yours again, and supplies nobody until it is rebuilt' : 'it supplies your own units again'}.`,
      kind: 'info',
    };
  }
  return null;
}
