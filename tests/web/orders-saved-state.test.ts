/**
 * My orders in one place: the order list marks each line saved on the server or not yet, and an accepted save is
 * not listed a second time under the box ("Saved on the server"); a refusal still is, with its reasons.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { OrderSubmission } from '../../shared/api/index.ts';
import OrderPanel from '../../web/src/orders/OrderPanel.svelte';
import { OrderEntry } from '../../web/src/orders/order-entry.svelte.ts';
import { GameRoom } from '../../web/src/game/room.svelte.ts';
import { fixtureId as id, gameDetail, json, openPhase } from './api-fixtures.ts';
import { start, variant } from './positions.ts';

afterEach(() => vi.unstubAllGlobals());

describe('the order list', () => {
  it('marks each accepted line saved, or not saved yet, against the orders on the server', () => {
    const entry = new OrderEntry(variant, start, ['Rome']);
    entry.setText('A Rav - Cis\nA Bru H', 'Rome');
    entry.savedText = 'A Rav - Cis';
    const target = document.createElement('div');
    document.body.appendChild(target);
    const panel = mount(OrderPanel, { target, props: { entry, variant } });
    flushSync();
    const rows = Array.from(target.querySelectorAll('.order-list li')).map((li) => [
      li.querySelector('code')?.textContent,
      li.querySelector('.saved-state')?.textContent,
    ]);
    expect(rows).toEqual([
      ['A Rav - Cis', 'saved'],
      ['A Bru H', 'not saved yet'],
    ]);
    // Where nothing is bound to a server (the sandbox), the list says nothing of it.
    entry.savedText = null;
    flushSync();
    expect(target.querySelector('.saved-state')).toBeNull();
    unmount(panel);
    target.remove();
  });
});

describe('a save the server accepts', () => {
  it('marks the lines saved, and leaves no second list of them; a refusal keeps its reasons', async () => {
    const GAME = id(1);
    const phase = openPhase(0, 'Spring 240 BC Movement');
    let saved: OrderSubmission | null = null;
    let refuse = false;
    vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
      const url = new URL(path, 'http://localhost').pathname;
      if (url === `/api/games/${GAME}/phases/current`) return json(200, phase);
      if (url === `/api/games/${GAME}/phases/0/orders` && init.method === 'PUT') {
        const { orders } = JSON.parse(String(init.body)) as { orders: string };
        if (refuse)
          return json(422, { error: { code: 'orders_rejected', message: 'refused' }, orders: [{ input: orders, accepted: false, reason: 'no unit there' }] });
        saved = {
          id: id(5),
          phaseIndex: 0,
          power: 'Rome',
          text: orders,
          orders: [],
          ready: false,
          byGameMaster: false,
          submittedAt: '2026-11-24T10:00:00.000Z',
        };
        return json(200, { submission: saved, checked: [{ input: orders, accepted: true, text: orders }], phaseProcessed: false });
      }
      if (url === `/api/games/${GAME}/phases/0/orders`)
        return json(200, {
          phase: { index: 0, name: phase.name, kind: 'movement', deadlineAt: null },
          power: 'Rome',
          mustOrder: true,
          current: saved,
          history: [],
        });
      return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
    });
    localStorage.clear();
    const room = new GameRoom(gameDetail('Rome', { currentPhase: { index: 0, name: phase.name, kind: 'movement', deadlineAt: phase.deadlineAt } }), () =>
      id(2),
    );
    await room.load();
    expect(room.entry?.savedText).toBe('');
    room.entry!.setText('A Rav - Cis', 'Rome');
    expect(room.entry!.isSaved('A Rav - Cis')).toBe(false);
    expect(await room.submit()).toBe(true);
    expect(room.entry!.isSaved('A Rav - Cis')).toBe(true);
    expect(room.verdict).toBeNull();

    refuse = true;
    room.entry!.setText('A Rav - Cis\nA Xyz H', 'Rome');
    expect(await room.submit()).toBe(false);
    expect(room.verdict).toMatchObject({ accepted: false, checked: [{ accepted: false, reason: 'no unit there' }] });
  });
});
