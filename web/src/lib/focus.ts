import { tick } from 'svelte';

/** The focus has been lost to the page: the control that had it was removed (or disabled). */
export function focusLost(): boolean {
  return document.activeElement === null || document.activeElement === document.body;
}

/**
 * Where the focus goes once the page has been updated. An action that removes
 * the control it was started from (a deleted line, a closed question) would
 * otherwise drop the focus to the page, and a keyboard player starts again
 * from the top.
 *
 * After a request, pass the element that had the focus when the action began
 * (`from`): the focus then moves only if it is still there or was lost, so a
 * player who went on elsewhere while the server answered keeps their place.
 */
export async function focusAfterUpdate(find: () => HTMLElement | SVGElement | null | undefined, from?: Element | null): Promise<void> {
  await tick();
  if (from !== undefined && !focusLost() && document.activeElement !== from) return;
  find()?.focus();
}

/** After a refusal, the first field in error takes the focus (which scrolls it into sight, and reads out its error). */
export function focusFirstInvalid(form: HTMLElement | undefined, from?: Element | null): Promise<void> {
  return focusAfterUpdate(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]'), from);
}

/**
 * The piece on the map the player orders at a location: a unit (the dislodged one in a retreat, where the attacker
 * stands beside it) or a build site. Only those take the focus, so another power's unit there is never the one found.
 */
export function orderablePieceAt(location: string): HTMLElement | SVGElement | null {
  return document.querySelector<SVGElement>(`svg [data-unit="${CSS.escape(location)}"][tabindex="0"]`);
}
