/**
 * The side panel as a phone shows it: a sheet over the map (BottomSheet.svelte draws it), raised or lowered by
 * the order entry's steps and by its handle. On a wider screen the panel is a column and none of this shows.
 */
import { untrack } from 'svelte';
import type { OrderEntry } from '../orders/order-entry.svelte.ts';

/** How far a finger moves on the handle before it is a swipe rather than a tap. */
export const SWIPE_PX = 24;

export class Sheet {
  open = $state(false);
  /** Raised for a unit's choices: the sheet stops at two thirds, so the unit stays in sight above it. */
  #forSelection = $state(false);
  #swipeFrom: number | null = null;
  #swiped = false;

  /**
   * Follows the order entry (none: nothing to order on the page's phase): raised when the selection asks
   * something of the player here (the action, a coast, army or fleet), lowered when the next tap is on the
   * map (a target), and lowered again once the order is given, for the next unit. Made while the page is set up.
   */
  constructor(entry: () => Pick<OrderEntry, 'selection' | 'targets'> | null | undefined) {
    $effect(() => {
      const e = entry();
      const s = e?.selection;
      if (!s) {
        // A sheet the player raised by hand (or a tab, a refusal) is left up.
        if (untrack(() => this.#forSelection)) this.lower();
        return;
      }
      this.open = this.#forSelection = !(s.action && !s.choices && (e?.targets.length ?? 0) > 0);
    });
  }

  /** Part way up, for the selection. */
  get peek(): boolean {
    return this.open && this.#forSelection;
  }

  /** The whole way up: the player is to read the panel (a tab, a refusal, a result). */
  raise(): void {
    this.#place(true);
  }

  lower(): void {
    this.#place(false);
  }

  #place(open: boolean): void {
    this.open = open;
    this.#forSelection = false;
  }

  // The handle is tapped, or swiped up or down (the click that ends a swipe is not also a tap).
  // Moved by hand, the sheet goes the whole way.
  tap(): void {
    if (!this.#swiped) this.#place(!this.open);
    this.#swiped = false;
  }

  press(y: number): void {
    this.#swipeFrom = y;
    this.#swiped = false;
  }

  move(y: number): void {
    if (this.#swipeFrom === null || Math.abs(y - this.#swipeFrom) < SWIPE_PX) return;
    this.#place(y < this.#swipeFrom);
    this.#swiped = true;
    this.#swipeFrom = null;
  }

  release(): void {
    this.#swipeFrom = null;
  }
}
