/**
 * The Press tab from the keyboard, mounted on a scripted game where Egypt is mine:
 * opening a conversation takes the focus to where its message is written, as the
 * picker or the button it came from goes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import PressPanel from '../../web/src/game/PressPanel.svelte';
import { GameRoom } from '../../web/src/game/room.svelte.ts';
import { fixtureId as id, gameDetail, json } from './api-fixtures.ts';

const GAME = id(1);

let sent: unknown[];
let target: HTMLElement;
let panel: ReturnType<typeof mount>;

beforeEach(() => {
  sent = [];
  localStorage.clear();
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'http://localhost').pathname;
    if (url === `/api/games/${GAME}/press` && init?.method === 'POST') {
      sent.push(JSON.parse(String(init.body)));
      return json(201, {});
    }
    if (url === `/api/games/${GAME}/press`) return json(200, { messages: [], nextCursor: null });
    return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
  });
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  unmount(panel);
  target.remove();
  vi.unstubAllGlobals();
});

async function open(press: 'full' | 'public') {
  const room = new GameRoom(gameDetail('Egypt', { press }), () => id(2));
  await room.loadPress();
  panel = mount(PressPanel, { target, props: { room } });
  flushSync();
}
const button = (name: string) => Array.from(target.querySelectorAll('button')).find((b) => b.textContent?.trim() === name);
const box = () => target.querySelector<HTMLTextAreaElement>('#press-body');
const current = () => target.querySelector('.conversations [aria-current="true"]')?.textContent?.trim();
/** A message written in the box and sent with the Send button, which takes the focus as a press would give it. */
function writeAndSend(text: string): HTMLButtonElement {
  box()!.value = text;
  box()!.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
  const send = button('Send')!;
  send.focus();
  send.click();
  return send;
}

describe('sending from the keyboard', () => {
  it('gives the focus back to the message box once sent, where the emptied box left Send unavailable', async () => {
    await open('full');
    writeAndSend('Greetings from Egypt');
    await vi.waitFor(() => expect(sent).toEqual([{ to: 'all', body: 'Greetings from Egypt', asGameMaster: false }]));
    await vi.waitFor(() => expect(document.activeElement).toBe(box()));
    expect(box()!.value).toBe('');
  });
});

describe('a player who goes elsewhere while the server answers', () => {
  it('keeps their place: the focus is not pulled back to the message box', async () => {
    await open('full');
    let answer!: () => void;
    vi.stubGlobal('fetch', async (_path: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        await new Promise<void>((resolve) => (answer = resolve));
        sent.push(JSON.parse(String(init.body)));
        return json(201, {});
      }
      return json(200, { messages: [], nextCursor: null });
    });
    const send = writeAndSend('Slowly sent');
    await vi.waitFor(() => expect(answer).toBeDefined());
    // Pressed again while it goes, it sends nothing more.
    send.click();
    // Meanwhile the player goes on to the conversations.
    const elsewhere = button('+ New conversation')!;
    elsewhere.focus();
    answer();
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).toBe(elsewhere);
  });
});

describe('opening a conversation from the keyboard', () => {
  it('"+ New conversation" takes the focus to the first power to choose; Open, to the new message', async () => {
    await open('full');
    button('+ New conversation')!.click();
    await vi.waitFor(() => expect(document.activeElement).toBe(target.querySelector('.picker input')));
    const rome = Array.from(target.querySelectorAll('.picker label'))
      .find((l) => l.textContent?.trim() === 'Rome')!
      .querySelector('input')!;
    rome.checked = true;
    rome.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    button('Open')!.click();
    await vi.waitFor(() => expect(document.activeElement).toBe(box()));
    expect(target.querySelector('.picker')).toBeNull();
    expect(current()).toBe('Rome');
    expect(box()!.placeholder).toBe('Write to Rome…');
  });

  it('Escape closes the picker, giving the focus back to "+ New conversation"', async () => {
    await open('full');
    button('+ New conversation')!.click();
    await vi.waitFor(() => expect(document.activeElement).toBe(target.querySelector('.picker input')));
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    flushSync();
    expect(target.querySelector('.picker')).toBeNull();
    await vi.waitFor(() => expect(document.activeElement).toBe(button('+ New conversation')));
    expect(button('+ New conversation')!.getAttribute('aria-expanded')).toBe('false');
  });

  it('on a touch screen leaves the message box unfocused, so the keyboard does not rise over the conversation', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(pointer: coarse)', media: query }));
    await open('public');
    button('+ Write to the game master')!.click();
    await vi.waitFor(() => expect(box()!.placeholder).toBe('Write to Game master…'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).not.toBe(box());
  });

  it('"+ Write to the game master" (public press) takes the focus to the message to the game master', async () => {
    await open('public');
    button('+ Write to the game master')!.click();
    await vi.waitFor(() => expect(document.activeElement).toBe(box()));
    expect(current()).toBe('Game master');
  });
});

describe('a game master who also plays a power', () => {
  const ME = id(2);
  const question = {
    id: id(30),
    phase: 'Spring 240 BC Movement',
    from: { power: 'Egypt', gameMaster: false, user: { id: id(31), username: 'carol' } },
    to: ['@gm'],
    body: 'May I lend a centre I borrowed?',
    sentAt: '2026-11-25T08:00:00.000Z',
  };
  async function openAsMasterOfRome() {
    vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
      const url = new URL(path, 'http://localhost').pathname;
      if (url === `/api/games/${GAME}/press` && init?.method === 'POST') {
        sent.push(JSON.parse(String(init.body)));
        return json(201, {});
      }
      if (url === `/api/games/${GAME}/press`) return json(200, { messages: [question], nextCursor: null });
      return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
    });
    const room = new GameRoom(gameDetail('Rome', { press: 'full', gameMaster: { id: ME, username: 'alice' } }), () => ME);
    await room.loadPress();
    panel = mount(PressPanel, { target, props: { room } });
    flushSync();
  }

  it("answers a player's question to the game master as the game master, in the same conversation", async () => {
    await openAsMasterOfRome();
    // The question is unread: the tab opens on it.
    expect(current()).toMatch(/^Egypt \(as game master\)/);
    expect(target.querySelector('.send-row')!.textContent).toContain('As the game master');
    writeAndSend('Yes: rule 9 lets a borrower lend it on.');
    await vi.waitFor(() => expect(sent).toEqual([{ to: ['Egypt'], body: 'Yes: rule 9 lets a borrower lend it on.', asGameMaster: true }]));
  });

  it('chooses its voice in public: as its power by default, or as the game master', async () => {
    await openAsMasterOfRome();
    button('Public: everyone')!.click();
    flushSync();
    writeAndSend('Rome greets the world.');
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    // Sent and answered: the box has the focus back.
    await vi.waitFor(() => expect(document.activeElement).toBe(box()));
    const voices = Array.from(target.querySelectorAll<HTMLInputElement>('.send-row [role="radiogroup"] input[type="radio"]'));
    expect(voices.map((radio) => [radio.parentElement!.textContent!.trim(), radio.checked])).toEqual([
      ['Rome', true],
      ['the game master', false],
    ]);
    voices[1].click();
    flushSync();
    writeAndSend('The deadline moves to Friday.');
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent).toEqual([
      { to: 'all', body: 'Rome greets the world.', asGameMaster: false },
      { to: 'all', body: 'The deadline moves to Friday.', asGameMaster: true },
    ]);
  });
});

describe('writing to a game master who also plays a power', () => {
  async function openWith(gameMasterPlays: boolean) {
    const room = new GameRoom(gameDetail('Egypt', { press: 'public', gameMasterPlays }), () => id(2));
    await room.loadPress();
    panel = mount(PressPanel, { target, props: { room } });
    flushSync();
  }
  const note = () => target.querySelector('#gm-plays-note')?.textContent ?? null;

  it('notes, in the conversation with the game master only, that the game master also plays', async () => {
    await openWith(true);
    // In public, nothing: everyone reads it.
    expect(note()).toBeNull();
    button('+ Write to the game master')!.click();
    await vi.waitFor(() => expect(current()).toBe('Game master'));
    expect(note()).toBe('The game master also plays a power in this game.');
    // Read with the message box.
    expect(box()!.getAttribute('aria-describedby')).toBe('gm-plays-note');
  });

  it('says nothing of it where the game master does not play', async () => {
    await openWith(false);
    button('+ Write to the game master')!.click();
    await vi.waitFor(() => expect(current()).toBe('Game master'));
    expect(note()).toBeNull();
    expect(box()!.hasAttribute('aria-describedby')).toBe(false);
  });
});

describe('where the Press tab opens', () => {
  const message = (n: number, from: string, to: 'all' | string[], sentAt: string) => ({
    id: id(n),
    phase: 'Spring 240 BC Movement',
    from: { power: from, gameMaster: false, user: null },
    to,
    body: `message ${n}`,
    sentAt,
  });

  it('on the private conversation with the unread message, not on Public; reading it marks it read on the server', async () => {
    const marks: { conversation: string; until: string }[] = [];
    vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
      const url = new URL(path, 'http://localhost').pathname;
      if (url === `/api/games/${GAME}/press/read` && init?.method === 'PUT') {
        marks.push(JSON.parse(String(init.body)));
        return json(200, { readUntil: {} });
      }
      // Public was read (on another device, maybe) up to its last message; Syria's private one came after.
      if (url === `/api/games/${GAME}/press/read`) return json(200, { readUntil: { public: '2026-11-24T10:00:00.000Z' } });
      if (url === `/api/games/${GAME}/press`)
        return json(200, {
          messages: [message(4, 'Syria', ['Egypt'], '2026-11-24T09:00:00.000Z'), message(3, 'Rome', 'all', '2026-11-24T10:00:00.000Z')],
          nextCursor: null,
        });
      return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
    });
    await open('full');
    expect(current()).toMatch(/^Syria/);
    expect(target.textContent).toContain('message 4');
    await vi.waitFor(() => expect(marks).toEqual([{ conversation: 'Egypt+Syria', until: '2026-11-24T09:00:00.000Z' }]));
  });

  it('on Public when nothing is unread', async () => {
    await open('full');
    expect(current()).toMatch(/^Public/);
  });
});
