/** The sandbox page mounted in a DOM afresh for each test (from the initial position), and the lookups its tests use. */
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import Sandbox from '../../web/src/pages/Sandbox.svelte';

export function sandboxPageEachTest() {
  let target: HTMLElement;
  let page: ReturnType<typeof mount>;
  /** Until the page has read what it was given (a kept sandbox, a pasted position) and drawn its map: it says so with aria-busy. */
  const settled = () => vi.waitFor(() => expect(target.querySelector('[aria-busy="true"]')).toBeNull(), { timeout: 5_000, interval: 5 });
  beforeEach(async () => {
    // Each test starts from the initial position, not from what the previous one left in storage.
    localStorage.clear();
    target = document.createElement('div');
    document.body.appendChild(target);
    page = mount(Sandbox, { target });
    flushSync();
    // The map's drawing is its own chunk, loaded once (later mounts draw it at once).
    await settled();
  });
  afterEach(() => {
    unmount(page);
    target.remove();
  });

  const $ = <T extends Element = HTMLElement>(selector: string) => target.querySelector<T>(selector);
  const $$ = (selector: string) => Array.from(target.querySelectorAll(selector));
  return {
    $,
    $$,
    /** The page's whole text. */
    pageText: () => target.textContent ?? '',
    click(el: Element | null) {
      if (!el) throw new Error('nothing to click');
      el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      flushSync();
    },
    button: (name: RegExp) => $$('button').find((b) => name.test(b.textContent ?? '')) ?? null,
    /** What the order text box holds. */
    text: () => $<HTMLTextAreaElement>('#orders-text')!.value,
    /** The page mounted again, as a reload would (what it keeps in storage stays), once it has read it back. */
    async remount() {
      unmount(page);
      page = mount(Sandbox, { target });
      flushSync();
      await settled();
    },
    settled,
  };
}
