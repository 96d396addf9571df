/**
 * A battle page never steps back: a reading of the battle asked for before one's own action (a live event's reload
 * still under way) that arrives after the action's answer is older than what the page holds, and is not shown;
 * the page's choice in progress stays with the battle as it now stands.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BattleRoom } from '../../web/src/battles/battle-room.svelte.ts';
import { json } from './api-fixtures.ts';
import { battleDetail, logEntries, playScenario } from './battles-fixtures.ts';

const before = playScenario('classis', 'training-duel', 5);
const after = playScenario('classis', 'training-duel', 6);
const side = (before.record.actions[5] ?? after.record.actions[5]).side;
const later = playScenario('classis', 'training-duel', 7);
const older = battleDetail('classis', before, side);
const newer = battleDetail('classis', after, side);
const latest = battleDetail('classis', later, side);

afterEach(() => vi.unstubAllGlobals());

describe('a battle page reading the battle while acting', () => {
  it('keeps the action’s answer when an older reading arrives after it', async () => {
    let releaseSlowRead: () => void = () => {};
    let reads = 0;
    vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
      const url = new URL(path, 'http://localhost');
      if (url.pathname.endsWith('/log')) return json(200, { entries: logEntries(after.record), next: null });
      if (init?.method === 'POST') return json(200, newer);
      reads++;
      // The second reading is the slow one: asked for before the action, answered after it.
      if (reads === 2) await new Promise<void>((resolve) => (releaseSlowRead = resolve));
      return json(200, older);
    });
    const room = new BattleRoom(older.id);
    await room.load();
    expect(room.detail?.actionCount).toBe(5);

    const slowRead = room.load();
    await vi.waitFor(() => expect(reads).toBe(2));
    expect(await room.act(after.record.actions[5].action)).toBe(true);
    expect(room.detail?.actionCount).toBe(6);
    releaseSlowRead();
    await slowRead;
    expect(room.detail?.actionCount).toBe(6);
    expect(room.entries.at(-1)?.index).toBe(6);
  });

  it('keeps every log entry when two reads of the log overlap and the earlier one is answered last', async () => {
    const five = logEntries(before.record);
    const seven = logEntries(later.record);
    let releaseFirst: () => void = () => {};
    const asked: number[] = [];
    vi.stubGlobal('fetch', async (path: string) => {
      const url = new URL(path, 'http://localhost');
      if (!url.pathname.endsWith('/log')) return json(200, older);
      const after = Number(url.searchParams.get('after') ?? 0);
      asked.push(after);
      if (asked.length === 1) return json(200, { entries: five, next: null });
      if (asked.length === 2) {
        // The first of the two overlapping reads: answered only after the second was asked for.
        await new Promise<void>((resolve) => (releaseFirst = resolve));
        return json(200, { entries: five.filter((e) => e.index > after), next: null });
      }
      return json(200, { entries: seven.filter((e) => e.index > after), next: null });
    });
    const room = new BattleRoom(older.id);
    await room.load();
    expect(room.entries.at(-1)?.index).toBe(5);

    const first = room.loadLog();
    const second = room.loadLog();
    await vi.waitFor(() => expect(asked.length).toBeGreaterThanOrEqual(2));
    releaseFirst();
    await Promise.all([first, second]);
    expect(room.entries.map((e) => e.index)).toEqual(seven.map((e) => e.index));
    // The second read began where the first one left the log, not where the log stood when it was asked for.
    expect(asked.at(-1)).toBe(5);
  });

  it('keeps a newer reading when the action’s own answer arrives after it', async () => {
    let releaseAnswer: () => void = () => {};
    let reads = 0;
    vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
      const url = new URL(path, 'http://localhost');
      if (url.pathname.endsWith('/log')) return json(200, { entries: logEntries(later.record), next: null });
      if (init?.method === 'POST') {
        // Answered after the other side's move, which a live event's reading brings first.
        await new Promise<void>((resolve) => (releaseAnswer = resolve));
        return json(200, newer);
      }
      reads++;
      return json(200, reads === 1 ? older : latest);
    });
    const room = new BattleRoom(older.id);
    await room.load();
    const acting = room.act(after.record.actions[5].action);
    await room.load();
    expect(room.detail?.actionCount).toBe(7);
    releaseAnswer();
    expect(await acting).toBe(true);
    expect(room.detail?.actionCount).toBe(7);
  });
});
