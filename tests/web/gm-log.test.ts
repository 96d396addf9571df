/**
 * The game master's log in words: one sentence per kind of action, times in
 * the reader's own time zone, and nothing (JSON, ISO times) too long to wrap.
 */
import { describe, expect, it } from 'vitest';
import { GM_ACTIONS } from '../../shared/api/gm-actions.ts';
import { describeGmAction, importedFrom } from '../../web/src/game/gm-words.ts';
import { spanInWords } from '../../web/src/lib/format.ts';
import { localTime } from '../../web/src/game/logic.ts';

const time = (iso: string) => `<${iso.slice(11, 16)}>`;
const say = (action: string, details: Record<string, unknown>) => describeGmAction({ action, details }, time);

describe('the log in words', () => {
  it('says what each action did, in a sentence', () => {
    expect(say('process-now', { phase: 0, phaseName: 'Spring 240 BC Movement', next: 'Fall 240 BC Movement' })).toBe(
      'Processed Spring 240 BC Movement before its deadline; Fall 240 BC Movement began.',
    );
    expect(say('change-deadline', { phase: 0, phaseName: 'Spring 240 BC Movement', from: '2026-11-30T20:00:00.000Z', to: '2026-11-30T23:00:00.000Z' })).toBe(
      'Moved the deadline of Spring 240 BC Movement 3 hours later, from <20:00> to <23:00>.',
    );
    expect(say('change-deadline', { phaseName: 'X', from: '2026-11-30T20:00:00.000Z', to: '2026-11-30T18:30:00.000Z' })).toBe(
      'Moved the deadline of X 1 hour 30 minutes earlier, from <20:00> to <18:30>.',
    );
    expect(say('pause', { phase: 2, phaseName: 'Fall 240 BC Movement' })).toBe('Paused the clock in Fall 240 BC Movement.');
    expect(say('resume', { phaseName: 'X', pausedSeconds: 7200, deadlineAt: '2026-12-01T12:00:00.000Z' })).toBe(
      'Resumed the clock in X; the deadline moved 2 hours later, to <12:00>.',
    );
    expect(say('resume', { phaseName: 'X', pausedSeconds: 0, deadlineAt: '2026-12-01T12:00:00.000Z' })).toBe(
      'Resumed the clock in X; the deadline stays <12:00>.',
    );
    expect(say('replace-player', { power: 'Egypt', users: { from: 'alice', to: 'bob' } })).toBe("Gave Egypt's seat to bob, replacing alice.");
    // Anonymous games: no names.
    expect(say('replace-player', { power: 'Egypt' })).toBe("Gave Egypt's seat to another player.");
    expect(say('civil-disorder', { power: 'Syria' })).toBe('Put Syria in civil disorder: phases no longer wait for its orders.');
    expect(say('enter-orders', { power: 'Syria', phase: 1, phaseName: 'X', orders: 1, ready: false })).toBe(
      'Entered 1 order for Syria in X, replacing its saved orders.',
    );
    // Only where orders were saved (entries logged before that was kept say it as they did).
    expect(say('enter-orders', { power: 'Syria', phaseName: 'X', orders: 2, ready: false, replaced: false })).toBe('Entered 2 orders for Syria in X.');
    expect(say('enter-orders', { power: 'Syria', phaseName: 'X', orders: 2, ready: false, replaced: true })).toBe(
      'Entered 2 orders for Syria in X, replacing its saved orders.',
    );
    expect(say('enter-orders', { power: 'Syria', phaseName: 'X', orders: 0, ready: true })).toBe(
      "Cleared Syria's orders in X (its units hold), and marked it ready.",
    );
    expect(say('rollback', { phase: 1, phaseName: 'B', discarded: ['B', 'C', 'D'], powersWithOrders: 4 })).toBe(
      "Rolled back to B, which is open again; 2 later phases (C and D) were discarded; 4 powers' orders stay to be adjudicated again.",
    );
    expect(say('rollback', { phase: 1, phaseName: 'B', discarded: ['B'], powersWithOrders: 1 })).toBe(
      "Rolled back to B, which is open again; 1 power's orders stay to be adjudicated again.",
    );
    // A game that had ended: re-opened where it ended, or rolled back further.
    expect(say('rollback', { phase: 4, phaseName: 'E', discarded: [], powersWithOrders: 2, gameHadEnded: true })).toBe(
      'Re-opened the game, which had ended, at E.',
    );
    expect(say('rollback', { phase: 3, phaseName: 'D', discarded: ['D', 'E'], powersWithOrders: 0, gameHadEnded: true })).toBe(
      'Rolled back to D, which is open again, and the game, which had ended, goes on; the later phase (E) was discarded; no orders had been saved for it.',
    );
    expect(say('end-game', { phase: 4, phaseName: 'Spring 238 BC Movement', outcome: { kind: 'draw', powers: ['Egypt', 'Rome', 'Syria'] } })).toBe(
      'Ended the game in Spring 238 BC Movement as a draw between Egypt, Rome and Syria.',
    );
    expect(say('end-game', { phaseName: 'X', outcome: { kind: 'concession', powers: ['Rome'] } })).toBe('Ended the game in X with a concession to Rome.');
  });

  it("summarises an import instead of printing its JSON, naming the exported game's game master as that game's", () => {
    const players = Object.fromEntries(['Egypt', 'Macedon', 'Syria', 'Thrace', 'Rome'].map((p) => [p, `a-rather-long-user-name-for-${p}`]));
    const details = {
      exportedAt: '2026-11-30T23:00:00.000Z',
      complete: true,
      phases: 12,
      engineVersions: { server: 2, exporter: 1, rechecked: [{ phase: 3, recordedVersion: 1 }] },
    };
    const imported = say('import', { ...details, exported: { actor: null, users: { gameMaster: 'zeus', players } } });
    expect(imported).toBe(
      'Imported the game from a file exported <23:00>, with 12 phases; its game master in the exported game was zeus; 1 phase recorded under another engine version adjudicated the same here.',
    );
    expect(imported).not.toMatch(/[{}"]/);
    // Entries logged before the names were kept apart had them under `users`: the exported game's all the same.
    expect(say('import', { ...details, users: { gameMaster: 'zeus', players } })).toBe(imported);
    // Where the game hides names, the server leaves them out.
    expect(say('import', details)).toBe(
      'Imported the game from a file exported <23:00>, with 12 phases; 1 phase recorded under another engine version adjudicated the same here.',
    );
  });

  it('says entries copied from an exported game were done there, by whom there, with the names there', () => {
    const copied = (action: string, details: Record<string, unknown>) => describeGmAction({ action, details }, time);
    expect(copied('pause', { phaseName: 'X', imported: true, exported: { actor: 'zeus', users: null } })).toBe(
      'Paused the clock in X. (Imported: done in the exported game, by zeus, before it came here.)',
    );
    expect(copied('replace-player', { power: 'Egypt', imported: true, exported: { actor: 'zeus', users: { from: 'alice', to: 'bob' } } })).toBe(
      "Gave Egypt's seat to bob, replacing alice. (Imported: done in the exported game, by zeus, before it came here.)",
    );
    // A copied entry's `users` would be this server's: none are shown for it, only the exported game's.
    expect(copied('replace-player', { power: 'Egypt', imported: true, users: { from: 'mallory', to: 'eve' } })).toBe(
      "Gave Egypt's seat to another player. (Imported: done in the exported game, before it came here.)",
    );
    // Names hidden (an anonymous game): still marked imported.
    expect(copied('pause', { phaseName: 'X', imported: true })).toBe('Paused the clock in X. (Imported: done in the exported game, before it came here.)');
    // Entries imported before `exported` was kept: the actor was `importedActor`.
    expect(copied('pause', { phaseName: 'X', importedActor: 'zeus' })).toBe(
      'Paused the clock in X. (Imported: done in the exported game, by zeus, before it came here.)',
    );
    expect(importedFrom({ action: 'pause', details: { phaseName: 'X' } })).toBeNull();
    expect(importedFrom({ action: 'pause', details: { imported: true, exported: { actor: 'zeus' } } })).toEqual({ actor: 'zeus' });
    // An unknown action copied from an export: its origin is no fact of the action's.
    expect(copied('force-draw', { imported: true, exported: { actor: 'zeus' }, phase: 3 })).toBe(
      'Force draw (phase 3). (Imported: done in the exported game, by zeus, before it came here.)',
    );
  });

  it('reads any other action without JSON or words too long to wrap', () => {
    const other = say('force-draw', { reason: 'x'.repeat(300), powers: { Egypt: 1 }, phase: 3 });
    expect(other.startsWith('Force draw (')).toBe(true);
    expect(other).not.toMatch(/[{}"]/);
    expect(Math.max(...other.split(/\s+/).map((w) => w.length))).toBeLessThanOrEqual(45);
  });

  it('knows every action the server logs', () => {
    // An action without a sentence of its own reads as its name ("Process now."): every logged one has one.
    const named = (action: string) => `${action.charAt(0).toUpperCase()}${action.slice(1).replace(/-/g, ' ')}.`;
    expect(say('force-draw', {})).toBe('Force draw.');
    for (const action of GM_ACTIONS) expect(say(action, {}), action).not.toBe(named(action));
  });

  it('writes times in local time, not ISO UTC', () => {
    const at = '2026-11-30T23:00:00.000Z';
    expect(describeGmAction({ action: 'change-deadline', details: { phaseName: 'X', from: '2026-11-30T22:00:00.000Z', to: at } })).toContain(localTime(at));
    expect(describeGmAction({ action: 'change-deadline', details: { phaseName: 'X', from: '2026-11-30T22:00:00.000Z', to: at } })).not.toContain('T23:00');
    expect(spanInWords(3600)).toBe('1 hour');
    expect(spanInWords(-90 * 60)).toBe('1 hour 30 minutes');
    expect(spanInWords(2 * 86400 + 6 * 3600)).toBe('2 days 6 hours');
    // The two largest units, rounded: what a game master reads, not a stopwatch.
    expect(spanInWords(86400 + 8 * 3600 + 10 * 60 + 19)).toBe('1 day 8 hours');
    expect(spanInWords(3600 + 59 * 60 + 45)).toBe('2 hours');
    expect(spanInWords(45)).toBe('45 seconds');
    expect(spanInWords(0.2)).toBe('0 seconds');
  });
});

describe("a campaign's entries in words", () => {
  it('says the sea battles set, the sides, a sea decided or waived, and the seas given more time', () => {
    expect(say('campaign', { ruleset: 'oi-navarcoi', battleHours: 48 })).toBe(
      "Set the campaign's sea battles: fought under Oi Navarcoi!, 48 hours for a phase's battles before the seas still waiting are auto-resolved.",
    );
    expect(say('sea-sides', { phase: 1, sea: 'STY', seaName: 'Sea of Sicily', sides: [['Rome'], ['Carthage', 'Macedonia']] })).toBe(
      'Set the sides in Sea of Sicily (phase 1): Rome against Carthage and Macedonia.',
    );
    expect(say('decide-sea', { phase: 0, sea: 'ION', seaName: 'Ionian Sea', outcome: { winner: 'Rome' } })).toBe(
      'Decided Ionian Sea in phase 0: Rome won the sea.',
    );
    expect(say('decide-sea', { phase: 0, sea: 'ION', seaName: 'Ionian Sea', outcome: { standoff: true } })).toBe(
      'Decided Ionian Sea in phase 0: nobody won it, a standoff.',
    );
    expect(say('waive-sea', { phase: 0, sea: 'ION', seaName: 'Ionian Sea' })).toBe(
      'Waived the battle for Ionian Sea in phase 0: the ordinary rules decide it.',
    );
    expect(say('fight-sea', { phase: 0, sea: 'ION', seaName: 'Ionian Sea', battleId: 'b' })).toBe(
      'Opened the battle for Ionian Sea in phase 0: its outcome decides the sea.',
    );
    expect(say('auto-resolve-sea', { phase: 0, sea: 'ION', seaName: 'Ionian Sea', battleId: 'b' })).toBe(
      "Had the computer fight Ionian Sea in phase 0 out on the server's dice.",
    );
    expect(say('auto-resolve-sea', { phase: 0, sea: 'ION', seaName: 'Ionian Sea', battleId: 'b', expired: true })).toBe(
      "The battles' time ran out: the computer fought Ionian Sea in phase 0 out on the server's dice.",
    );
    const seas = [{ sea: 'ION', from: '2026-11-30T20:00:00.000Z', to: '2026-12-01T20:00:00.000Z' }];
    expect(say('change-deadline', { phase: 0, phaseName: 'X', seas, from: seas[0].from, to: seas[0].to })).toBe(
      'Moved the time ION has to be fought in X 1 day later: it is auto-resolved at <20:00> if not decided by then.',
    );
  });
});
