/**
 * The account page's API tokens, mounted with a stubbed server: a token needs a
 * name, and the field says so, in error and focused, with the error read with it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import Account from '../../web/src/pages/Account.svelte';
import { session } from '../../web/src/lib/session.svelte.ts';
import { fixtureId as id, json } from './api-fixtures.ts';

let target: HTMLElement;
let page: ReturnType<typeof mount>;
let created: unknown[];

beforeEach(() => {
  created = [];
  session.adopt({
    user: { id: id(2), username: 'egypt', isAdmin: false, createdAt: '2026-01-01T00:00:00.000Z' },
    authenticatedBy: 'cookie',
    csrfToken: 'token',
  } as Parameters<typeof session.adopt>[0]);
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    // Exactly as server/accounts/routes.ts refuses a new password that is easy to guess.
    if (path === '/api/auth/password')
      return json(400, {
        error: {
          code: 'validation_failed',
          message: 'body.newPassword: must not be built from the username: what is left without it is too easy to guess',
          issues: [{ path: 'body.newPassword', message: 'must not be built from the username: what is left without it is too easy to guess' }],
        },
      });
    if (path === '/api/auth/tokens' && init?.method === 'POST') {
      created.push(JSON.parse(String(init.body)));
      return json(400, {
        error: {
          code: 'validation_failed',
          message: 'body.name: must be at most 64 characters',
          issues: [{ path: 'body.name', message: 'must be at most 64 characters' }],
        },
      });
    }
    if (path === '/api/auth/tokens') return json(200, { tokens: [] });
    return json(404, { error: { code: 'not_found', message: `no route ${path}` } });
  });
  target = document.createElement('div');
  document.body.appendChild(target);
  page = mount(Account, { target });
  flushSync();
});
afterEach(() => {
  unmount(page);
  target.remove();
  session.adopt(null);
  vi.unstubAllGlobals();
});

const nameField = () => target.querySelector<HTMLInputElement>('input[name="token-name"]')!;
const create = () => target.querySelector<HTMLFormElement>('form.new-token')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));

describe('a new API token', () => {
  it('needs a name: the field is marked in error, described by the error, and focused; nothing is sent', async () => {
    create();
    await vi.waitFor(() => expect(document.activeElement).toBe(nameField()));
    expect(nameField().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(nameField().getAttribute('aria-describedby')!)?.textContent).toBe(
      'Give the token a name, such as the bot that will use it.',
    );
    expect(created).toEqual([]);
  });

  it('puts what the server refuses about the name under the field, and the error goes once the name is changed', async () => {
    nameField().value = 'a bot';
    nameField().dispatchEvent(new Event('input', { bubbles: true }));
    create();
    await vi.waitFor(() => expect(nameField().getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(nameField().getAttribute('aria-describedby')!)?.textContent).toBe('The name must be at most 64 characters.');
    nameField().dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    expect(nameField().hasAttribute('aria-invalid')).toBe(false);
  });
});

describe('changing the password', () => {
  const field = (name: string) => target.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
  const help = (name: string) => document.getElementById(`${name}-help`)!.textContent!.trim();

  it("states the policy under the new password, and the server's reason when it refuses one", async () => {
    expect(help('newPassword')).toBe('At least 8 characters and hard to guess; a few uncommon words work best');
    for (const [name, value] of [
      ['currentPassword', 'correct horse battery'],
      ['newPassword', 'egypt egypt egypt'],
      ['repeated', 'egypt egypt egypt'],
    ]) {
      field(name).value = value;
      field(name).dispatchEvent(new Event('input', { bubbles: true }));
    }
    target.querySelector<HTMLFormElement>('form:not(.new-token)')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await vi.waitFor(() => expect(field('newPassword').getAttribute('aria-invalid')).toBe('true'));
    expect(help('newPassword')).toBe('New password must not be built from the username: what is left without it is too easy to guess.');
  });
});
