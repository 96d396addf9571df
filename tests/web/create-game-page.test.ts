/**
 * The New game form, mounted with the server's real error answers: every
 * problem is said under its field in plain words (never a wire path such as
 * "body.gameMaster:"), and outside the field's label, tied to the input by
 * aria-describedby so the label still names the field alone.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import CreateGame from '../../web/src/pages/CreateGame.svelte';
import { session } from '../../web/src/lib/session.svelte.ts';
import { json } from './api-fixtures.ts';

const variants = {
  variants: [
    {
      id: 'diadochi-v',
      available: true,
      powers: ['Macedonia', 'Egypt', 'Rome', 'Carthage', 'Syria'].map((id) => ({ id, adjective: id, colour: '#888888' })),
    },
  ],
};

let target: HTMLElement;
let component: ReturnType<typeof mount>;
let created: unknown[];

function open(answer: () => Response) {
  created = [];
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    if (path === '/api/variants') return json(200, variants);
    created.push(JSON.parse(String(init?.body)));
    return answer();
  });
  component = mount(CreateGame, { target });
  flushSync();
}

function input(selector: string): HTMLInputElement {
  return target.querySelector<HTMLInputElement>(selector)!;
}
function fill(el: HTMLInputElement, value: string) {
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
}
const byLabel = (text: string) => Array.from(target.querySelectorAll('label')).find((l) => l.querySelector('span')?.textContent?.startsWith(text))!;
const inputOf = (label: string) => byLabel(label).querySelector('input')!;

async function submit() {
  target.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  await new Promise((resolve) => setTimeout(resolve));
  await vi.waitFor(() => expect(target.querySelector<HTMLButtonElement>('button[type="submit"]')!.disabled).toBe(false));
  flushSync();
}

/** The error an input points to with aria-describedby, if any. */
function describedError(el: HTMLInputElement): string | null {
  const id = el.getAttribute('aria-describedby');
  return id ? document.getElementById(id)!.textContent!.trim() : null;
}
const alerts = () => Array.from(target.querySelectorAll('[role="alert"]'), (a) => a.textContent!.trim());

beforeEach(() => {
  session.adopt({ user: { id: '019a0000-0000-7000-8000-00000000000a', username: 'syria', isAdmin: false }, csrfToken: 'token' } as Parameters<
    typeof session.adopt
  >[0]);
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  unmount(component);
  target.remove();
  vi.unstubAllGlobals();
});

describe('new game page', () => {
  it('says an unknown game master under the field, in words, and puts no wire path before the player', async () => {
    open(() =>
      json(400, {
        error: {
          code: 'validation_failed',
          message: 'body.gameMaster: there is no user named "nosuchuser"',
          issues: [{ path: 'body.gameMaster', message: 'there is no user named "nosuchuser"' }],
        },
      }),
    );
    fill(inputOf('Name'), 'A game');
    fill(inputOf('Ask someone else to be game master'), 'nosuchuser');
    await submit();
    expect(created).toHaveLength(1);
    const master = inputOf('Ask someone else to be game master');
    expect(describedError(master)).toBe('There is no user named “nosuchuser”.');
    expect(master.getAttribute('aria-invalid')).toBe('true');
    expect(alerts()).toEqual([]);
    expect(target.textContent).not.toMatch(/body\./);
  });

  it('makes each set of choices one Tab stop (its radios share a name), the arrow keys moving within it', () => {
    open(() => json(400, { error: { code: 'validation_failed', message: 'stop here' } }));
    const groups = Array.from(target.querySelectorAll('[role="radiogroup"]'), (g) => [
      g.getAttribute('aria-label'),
      [...new Set(Array.from(g.querySelectorAll('input'), (i) => i.name))],
    ]);
    expect(groups).toEqual([
      ['Rules', ['rules']],
      ['Press', ['press']],
      ['Power assignment', ['powerAssignment']],
      ['Votes to pause or extend', ['voteRule']],
    ]);
  });

  it('offers the rule sets, the DATC’s answers first, and sends the one chosen', async () => {
    open(() => json(400, { error: { code: 'validation_failed', message: 'stop here' } }));
    const choices = Array.from(target.querySelectorAll<HTMLInputElement>('[role="radiogroup"][aria-label="Rules"] input'));
    expect(choices.map((c) => [c.value, c.checked])).toEqual([
      ['datc', true],
      ['1971', false],
    ]);
    fill(inputOf('Name'), 'Old school');
    choices[1].click();
    flushSync();
    await submit();
    expect(created).toEqual([expect.objectContaining({ name: 'Old school', rules: '1971' })]);
  });

  it('says how the power preferences are picked (best first, numbered) as soon as they are offered', () => {
    open(() => json(400, { error: { code: 'validation_failed', message: 'stop here' } }));
    expect(target.querySelector('.prefs-caption')).toBeNull();
    target.querySelector<HTMLInputElement>('[role="radiogroup"][aria-label="Power assignment"] input[value="preferences"]')!.click();
    flushSync();
    expect(target.querySelector('.prefs-caption')!.textContent).toBe('Pick the powers you would like, best first (optional): each is numbered as you pick it.');
  });

  it('places the server’s schema issues under their fields, named and in words', async () => {
    open(() =>
      json(400, {
        error: {
          code: 'validation_failed',
          message: 'body.gameMaster: must be at least 3 characters; body.powerPreferences: "Gaul" not a power of diadochi-v (Macedonia, Egypt)',
          issues: [
            { path: 'body.gameMaster', message: 'must be at least 3 characters' },
            { path: 'body.gameMaster', message: 'may contain only letters, digits, _ and -' },
            { path: 'body.powerPreferences', message: '"Gaul" not a power of diadochi-v (Macedonia, Egypt)' },
          ],
        },
      }),
    );
    fill(inputOf('Name'), 'A game');
    await submit();
    expect(describedError(inputOf('Ask someone else to be game master'))).toBe('Game master must be at least 3 characters.');
    expect(alerts()).toEqual(['Power preferences: “Gaul” not a power of diadochi-v (Macedonia, Egypt).']);
    expect(target.textContent).not.toMatch(/body\./);
  });

  it('says an empty name, deadline or missed-deadline count is required, naming the field, outside its label', async () => {
    open(() => json(500, {}));
    fill(input('input[aria-label="Movement deadline amount"]'), '');
    fill(inputOf('Missed deadlines'), '');
    await submit();
    expect(created).toEqual([]);
    expect(describedError(inputOf('Name'))).toBe('Name is required.');
    // The first field in error takes the focus (and so comes into sight).
    expect(document.activeElement).toBe(inputOf('Name'));
    expect(describedError(input('input[aria-label="Movement deadline amount"]'))).toBe('Movement deadline is required.');
    expect(describedError(inputOf('Missed deadlines'))).toBe('Missed deadlines before civil disorder is required.');
    // The labels name their fields alone ("Name", not "Name Name is required").
    expect(byLabel('Name').textContent!.trim()).toBe('Name');
    expect(byLabel('Missed deadlines').textContent!.trim()).toBe('Missed deadlines before civil disorder');
  });

  it('says what is wrong with a missed-deadline count out of range, naming it', async () => {
    open(() => json(500, {}));
    fill(inputOf('Name'), 'A game');
    fill(inputOf('Missed deadlines'), '11');
    fill(input('input[aria-label="Retreats deadline amount"]'), '0');
    await submit();
    expect(created).toEqual([]);
    expect(describedError(inputOf('Missed deadlines'))).toBe('Missed deadlines before civil disorder must be a whole number from 1 to 10.');
    expect(describedError(input('input[aria-label="Retreats deadline amount"]'))).toBe('Retreats deadline must be at least 1 minute.');
  });

  it("takes a field's error away once the field is corrected, leaving the others until the next submit", async () => {
    open(() => json(500, {}));
    fill(inputOf('Missed deadlines'), '11');
    fill(input('input[aria-label="Retreats deadline amount"]'), '0');
    await submit();
    fill(input('input[aria-label="Retreats deadline amount"]'), '8');
    expect(describedError(input('input[aria-label="Retreats deadline amount"]'))).toBeNull();
    expect(target.textContent).not.toContain('Retreats deadline must be at least 1 minute.');
    expect(describedError(inputOf('Missed deadlines'))).toBe('Missed deadlines before civil disorder must be a whole number from 1 to 10.');
  });
});
