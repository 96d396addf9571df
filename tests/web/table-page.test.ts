/**
 * The table board on the battle page, against a scripted API answering as shared/api/battles.ts shapes it (the
 * battle made by the real engine): the deployment zone drawn, a ship placed by its typed numbers drawn at its new
 * place, the ship picked and its place kept when the battle is read again as it stands (a live event), and the plot
 * handed in as the engine's deploy action; the wheel zooming the table on the page.
 */
import { flushSync, mount, tick, unmount } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BattleDetail } from '../../shared/api/battles.ts';
import { diadochiNaval } from '../../shared/naval/diadochi-naval/engine.ts';
import type { BattleRecord } from '../../shared/naval/record.ts';
import BattlePage from '../../web/src/battles/BattlePage.svelte';
import { router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { fixtureId, json } from './api-fixtures.ts';
import { logEntries } from './battles-fixtures.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { tableDeployment } from './table-fixtures.ts';

const id = fixtureId(3);
let detail: BattleDetail;
let record: BattleRecord;
const posted: { path: string; body: unknown }[] = [];
let reads = 0;

beforeEach(() => {
  posted.length = 0;
  reads = 0;
  vi.stubGlobal('WebSocket', ScriptedSocket);
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'http://localhost');
    if (init?.method === 'POST') {
      posted.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
      return json(200, detail);
    }
    if (url.pathname === `/api/battles/${id}`) {
      reads++;
      return json(200, detail);
    }
    if (url.pathname === `/api/battles/${id}/log`) return json(200, { entries: logEntries(record), actionCount: record.actions.length, next: null });
    return json(404, { error: { code: 'not_found', message: 'no' } });
  });
  session.adopt({ user: { id: fixtureId(0), username: 'player0', isAdmin: false }, csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
});

let target: HTMLElement;
let page: ReturnType<typeof mount> | null = null;
afterEach(() => {
  if (page) unmount(page);
  page = null;
  target?.remove();
  vi.unstubAllGlobals();
});

async function settle() {
  for (let i = 0; i < 6; i++) {
    await tick();
    await new Promise((resolve) => setTimeout(resolve));
  }
  flushSync();
}
const button = (text: RegExp) => Array.from(target.querySelectorAll<HTMLButtonElement>('button')).find((b) => text.test(b.textContent ?? ''));
function type(label: RegExp, value: number) {
  const input = Array.from(target.querySelectorAll('.deployment .fields label'))
    .find((l) => label.test(l.textContent ?? ''))!
    .querySelector('input')!;
  input.value = String(value);
  input.dispatchEvent(new Event('change', { bubbles: true }));
  flushSync();
}

describe('the deployment on the battle page', () => {
  it('draws the zone, places a ship, keeps it through a read of the battle as it stands, and hands the plot in', async () => {
    ({ detail, record } = tableDeployment('diadochi-naval', 'squadron-clash', 'antigonids'));
    router.go(`/battles/${id}`, true);
    target = document.createElement('div');
    document.body.appendChild(target);
    page = mount(BattlePage, { target, props: { id } });
    flushSync();
    await vi.waitFor(() => expect(target.querySelector('.table-sea .zone rect')).not.toBeNull());
    await settle();
    const socket = ScriptedSocket.opened.at(-1)!;
    socket.accept();
    const zone = target.querySelector('.table-sea .zone rect')!;
    expect(Number(zone.getAttribute('height'))).toBe(4.5);
    const nike = Array.from(target.querySelectorAll<HTMLButtonElement>('[aria-label="What to place"] button')).find((b) => b.textContent === 'Demetrius’ 1')!;
    nike.click();
    flushSync();
    expect(target.querySelector('.table-sea g.ghost')).not.toBeNull();
    type(/^East/, 2);
    type(/^North/, 1.5);
    const drawn = () => target.querySelector('.table-sea g.piece[data-piece="demetrius-1"] polygon.base')!.getAttribute('points')!;
    const placed = drawn();
    // Drawn with its middle at x 2, 25 − 1.5 down the drawing.
    const corners = placed.split(' ').map((p) => p.split(',').map(Number));
    expect(corners.reduce((sum, c) => sum + c[0], 0) / 4).toBeCloseTo(2, 6);
    expect(corners.reduce((sum, c) => sum + c[1], 0) / 4).toBeCloseTo(23.5, 6);
    const before = reads;
    socket.onmessage?.({
      data: JSON.stringify({
        type: 'event',
        channel: `battle:${id}`,
        seq: 1,
        event: { type: 'battle.changed', battleId: id, what: 'joined', status: 'active', actionCount: detail.actionCount },
      }),
    });
    await vi.waitFor(() => expect(reads).toBe(before + 1));
    await settle();
    expect(nike.isConnected && nike.getAttribute('aria-pressed')).toBe('true');
    expect(target.querySelector('.table-sea g.ghost')).not.toBeNull();
    expect(drawn()).toBe(placed);
    button(/^Hand in: plots the positions of 8 ships/)!.click();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    const action = (posted[0].body as { action: { kind: string; placements: { ship: string; x: number; y: number; heading: number }[] } }).action;
    expect(action.placements[0]).toEqual({ ship: 'demetrius-1', x: 2, y: 1.5, heading: 0 });
    expect(diadochiNaval.check(detail.state as never, 'antigonids', action as never)).toBeNull();
  });
});
