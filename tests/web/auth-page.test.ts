/**
 * The sign-up and log-in form, mounted with the server's real error answers:
 * each field says its most basic problem (required, too short) in words, and a
 * taken username is said once, under the field.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import Auth from '../../web/src/pages/Auth.svelte';
import { json } from './api-fixtures.ts';

/** A 400 exactly as server/errors.ts sends a schema failure. */
function validationFailed(issues: { path: string; message: string }[]): Response {
  const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return json(400, { error: { code: 'validation_failed', message, issues } });
}

let target: HTMLElement;
let component: ReturnType<typeof mount>;
let requests: { path: string; body: unknown }[];

function open(mode: 'login' | 'signup', answer: () => Response) {
  requests = [];
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    requests.push({ path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return answer();
  });
  component = mount(Auth, { target, props: { mode } });
  flushSync();
}

function fill(name: 'username' | 'password', value: string) {
  const input = target.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

async function submit() {
  target.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  await vi.waitFor(() => expect(target.querySelector('button[type="submit"]')!.getAttribute('aria-disabled')).not.toBe('true'));
  await new Promise((resolve) => setTimeout(resolve));
  flushSync();
}

const help = (name: 'username' | 'password') => target.querySelector(`#${name}-help`)!.textContent!.trim();
const alerts = () => Array.from(target.querySelectorAll('[role="alert"]'), (a) => a.textContent!.trim());
/** What a screen reader names the input: its label's text, which must not include the error. */
const labelOf = (name: string) => target.querySelector(`input[name="${name}"]`)!.closest('label')!.textContent!.replace(/\s+/g, ' ').trim();

beforeEach(() => {
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  unmount(component);
  target.remove();
  vi.unstubAllGlobals();
});

describe('sign-up page', () => {
  it('says empty fields are required, not that they break a rule about their form', async () => {
    open('signup', () =>
      validationFailed([
        { path: 'body.username', message: 'must be at least 3 characters' },
        { path: 'body.username', message: 'may contain only letters, digits, _ and -' },
        { path: 'body.password', message: 'must be at least 8 characters' },
        { path: 'body.password', message: 'must not be the username' },
      ]),
    );
    await submit();
    expect(help('username')).toBe('Username is required.');
    expect(help('password')).toBe('Password is required.');
    expect(alerts()).toEqual([]);
    // The first field in error has the focus, so its error is read out.
    expect(document.activeElement).toBe(target.querySelector('input[name="username"]'));
    expect(labelOf('username')).toBe('Username');
    expect(labelOf('password')).toBe('Password');
  });

  it('shows the first, most basic problem with a field: too short before equal to the username', async () => {
    open('signup', () =>
      validationFailed([
        { path: 'body.password', message: 'must be at least 8 characters' },
        { path: 'body.password', message: 'must not be the username' },
      ]),
    );
    fill('username', 'PWUSER');
    fill('password', 'pwuser');
    await submit();
    expect(requests).toEqual([{ path: '/api/auth/register', body: { username: 'PWUSER', password: 'pwuser' } }]);
    expect(help('password')).toBe('Password must be at least 8 characters.');
    expect(help('username')).toBe('3–24 letters, digits, _ or -');
    expect(alerts()).toEqual([]);
    expect(document.activeElement).toBe(target.querySelector('input[name="password"]'));
  });

  it("states the password policy under the field, and the server's reason when it refuses a password as too easy to guess", async () => {
    // Exactly as server/accounts/routes.ts refuses a weak password: the reason and zxcvbn's advice in the message.
    const reason = 'is too easy to guess: this is a heavily used password. Add more words that are less common.';
    open('signup', () =>
      json(400, { error: { code: 'validation_failed', message: `body.password: ${reason}`, issues: [{ path: 'body.password', message: reason }] } }),
    );
    expect(help('password')).toBe('At least 8 characters and hard to guess; a few uncommon words work best');
    fill('username', 'syria');
    fill('password', 'password');
    await submit();
    expect(help('password')).toBe('Password is too easy to guess: this is a heavily used password. Add more words that are less common.');
    expect(target.querySelector('input[name="password"]')!.getAttribute('aria-invalid')).toBe('true');
    expect(alerts()).toEqual([]);
  });

  it('says a taken username once, under the field', async () => {
    open('signup', () => json(409, { error: { code: 'username_taken', message: 'the username "syria" is taken' } }));
    fill('username', 'syria');
    fill('password', 'a long enough phrase');
    await submit();
    expect(help('username')).toBe('Username is taken; choose another.');
    expect(alerts()).toEqual([]);
    expect(target.textContent!.match(/taken/g)).toHaveLength(1);
    expect(target.querySelector('input[name="username"]')!.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(target.querySelector('input[name="username"]'));
  });

  it('sends one sign-up however often the button is pressed while the server answers', async () => {
    let answer!: (r: Response) => void;
    open('signup', () => new Promise<Response>((resolve) => (answer = resolve)) as unknown as Response);
    fill('username', 'syria');
    fill('password', 'a long enough phrase');
    const form = target.querySelector('form')!;
    for (let i = 0; i < 3; i++) form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    flushSync();
    expect(target.querySelector('button[type="submit"]')!.textContent).toBe('One moment…');
    answer(json(409, { error: { code: 'username_taken', message: 'the username "syria" is taken' } }));
    await submit();
    expect(requests).toHaveLength(1);
  });
});

describe('log-in page', () => {
  it('shows wrong credentials in the alert', async () => {
    open('login', () => json(401, { error: { code: 'invalid_credentials', message: 'wrong username or password' } }));
    fill('username', 'syria');
    fill('password', 'not the password');
    await submit();
    expect(alerts()).toEqual(['Wrong username or password.']);
  });
});

describe('someone already logged in', () => {
  it('is told so on the log-in page, with the way back to the lobby', async () => {
    const { session } = await import('../../web/src/lib/session.svelte.ts');
    session.adopt({ user: { id: '019a0000-0000-7000-8000-00000000000a', username: 'syria', isAdmin: false }, csrfToken: 'token' } as Parameters<
      typeof session.adopt
    >[0]);
    try {
      open('login', () => json(200, {}));
      const status = target.querySelector('.signed-in')!;
      expect(status.textContent!.replace(/\s+/g, ' ').trim()).toBe('You are logged in as syria. Go to the lobby, or log in below as someone else.');
      expect(status.querySelector('a')!.getAttribute('href')).toBe('/');
    } finally {
      session.adopt(null);
    }
  });
});
