import { tick } from 'svelte';

/**
 * Where the focus goes once the page has been updated. An action that removes
 * the control it was started from (a deleted line, a closed question) would
 * otherwise drop the focus to the page, and a keyboard player starts again
 * from the top.
 */
export async function focusAfterUpdate(find: () => HTMLElement | SVGElement | null | undefined): Promise<void> {
  await tick();
  find()?.focus();
}

/** After a refusal, the first field in error takes the focus (which scrolls it into sight, and reads out its error). */
export function focusFirstInvalid(form: HTMLElement | undefined): Promise<void> {
  return focusAfterUpdate(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]'));
}
