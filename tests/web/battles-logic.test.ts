/**
 * The battle screens' pure logic against the real engines: the replay gives the board as it was after each
 * action, the browser's check passes a true record and fails a changed die or seed, Classis choices are grouped
 * by ship and hex, and ship-to-ship plotting offers exactly the steps some legal plot continues with.
 */
import { describe, expect, it } from 'vitest';
import { RULESETS } from '../../shared/naval/index.ts';
import { classisChoices } from '../../web/src/battles/classis-choices.ts';
import { isWholePlot, nextHexes, nextSteps, walkPlot } from '../../web/src/battles/plot-steps.ts';
import { replayBattle } from '../../web/src/battles/replay.ts';
import { checkBattle } from '../../web/src/battles/verification.ts';
import { parseRoute } from '../../web/src/lib/router.svelte.ts';
import { logEntries, playScenario } from './battles-fixtures.ts';
import type { ClassisAction } from '../../shared/naval/classis/index.ts';

const finished = playScenario('ship-to-ship', 'duel', 400);

describe('the replay', () => {
  it('gives, after each action, the board the engine reached then', () => {
    const played = playScenario('classis', 'training-duel', 25);
    const r = RULESETS.classis;
    const replay = replayBattle(r, played.record.setup, logEntries(played.record));
    expect(replay.stopped).toBeNull();
    expect(played.states.length).toBeGreaterThan(5);
    expect(replay.boards).toHaveLength(played.states.length);
    for (const i of [0, 5, played.states.length - 1]) expect(replay.boards[i]).toEqual(r.board(played.states[i]));
  });

  it('stops at an action not yet shown (another side’s plot), with the boards before it', () => {
    const entries = logEntries(finished.record).slice(0, 5);
    entries[4] = { ...entries[4], hidden: true, action: null, text: null };
    const replay = replayBattle(RULESETS['ship-to-ship'], finished.record.setup, entries);
    expect(replay.boards).toHaveLength(4);
    expect(replay.stopped).toBe('action 4 is not shown yet');
  });
});

describe('the check of a finished battle', () => {
  it('passes its true record: the seed matches the commitment, every die the seed’s, the replay the log', () => {
    expect(finished.record.seed).toBeDefined();
    const check = checkBattle(RULESETS['ship-to-ship'], finished.record);
    expect(check.rolls.length).toBeGreaterThan(5);
    expect([check.seedMatches, check.rollsOk, check.replayOk, check.ok]).toEqual([true, true, true, true]);
  });

  it('fails when one logged die is changed, naming that roll', () => {
    const record = structuredClone(finished.record);
    const line = record.actions.flatMap((a) => a.log).find((l) => l.rolls.length > 0)!;
    const roll = line.rolls[0];
    roll.value = (roll.value % roll.sides) + 1;
    const check = checkBattle(RULESETS['ship-to-ship'], record);
    expect(check.ok).toBe(false);
    expect(check.rollsOk).toBe(false);
    expect(check.rolls.filter((r) => !r.ok).map((r) => r.index)).toEqual([roll.index]);
  });

  it('fails when the seed is not the one committed to at creation', () => {
    const check = checkBattle(RULESETS['ship-to-ship'], finished.record, 'f'.repeat(64));
    expect([check.seedMatches, check.ok]).toEqual([false, false]);
    expect(check.rollsOk).toBe(true);
  });
});

describe('Classis choices', () => {
  it('groups moves by ship and destination hex, each facing once, and keeps the other actions as buttons', () => {
    const played = playScenario('classis', 'training-duel', 0);
    const r = RULESETS.classis;
    const turn = r.turn(played.state);
    if (turn.kind !== 'side') throw new Error('a side acts first');
    const legal = r.legalActions(played.state, turn.side).map((action: ClassisAction) => ({ action, text: r.describe(played.state, action) }));
    const board = r.board(played.state);
    const choices = classisChoices(legal, (id) => board.counters.find((c) => c.id === id)?.hex);
    expect(choices.end?.text).toBe('End the activation');
    const moves = legal.filter((l) => l.action.kind === 'move');
    const ship = [...choices.ships.values()][0];
    const ends = new Set(
      moves
        .filter((l) => l.action.kind === 'move' && l.action.ship === ship.ship)
        .map((l) => JSON.stringify(l.action.kind === 'move' ? (l.action.path.at(-1) ?? null) : null)),
    );
    // Every hex a legal move ends in is one destination (a turn in place ends in its own hex).
    expect(ship.destinations.length).toBe(ends.size);
    for (const d of ship.destinations) expect(new Set(d.options.map((o) => o.facing)).size).toBe(d.options.length);
  });
});

describe('ship-to-ship plotting a step at a time', () => {
  const legal = [
    { steps: 'FF', pivot: 0 },
    { steps: 'FR', pivot: 0 },
    { steps: 'F', pivot: 0 },
    { steps: 'B', pivot: 0 },
    { steps: 'LF', pivot: 1 },
  ];
  it('offers only the steps some legal plot goes on with', () => {
    expect(nextSteps(legal, 0, '')).toEqual(['F', 'B']);
    expect(nextSteps(legal, 0, 'F')).toEqual(['F', 'R']);
    expect(nextSteps(legal, 0, 'FF')).toEqual([]);
    expect(nextSteps(legal, 1, '')).toEqual(['L']);
  });
  it('says whether the steps so far are a whole plot', () => {
    expect([isWholePlot(legal, 0, 'F'), isWholePlot(legal, 0, ''), isWholePlot(legal, 1, 'L')]).toEqual([true, false, false]);
  });
  it('walks the steps over the hexes, turning before each L or R step', () => {
    // Facing south-east (2) from 2,4: F goes to 3,4; R turns to south (3) and goes to 3,5.
    const walked = walkPlot({ hex: { q: 2, r: 4 }, facing: 2 }, 0, 'FR');
    expect(walked.hexes).toEqual([
      { q: 2, r: 4 },
      { q: 3, r: 4 },
      { q: 3, r: 5 },
    ]);
    expect(walked.end.facing).toBe(3);
    expect(nextHexes({ hex: { q: 2, r: 4 }, facing: 2 }, legal, 0, 'F')).toEqual([
      { step: 'F', hex: { q: 4, r: 4 } },
      { step: 'R', hex: { q: 3, r: 5 } },
    ]);
  });
});

describe('the battle routes', () => {
  it('take the list, the set-up form, a battle and its check to their pages', () => {
    const uuid = '019a0000-0000-7000-8000-000000000003';
    expect(parseRoute('/battles')).toEqual({ name: 'battles' });
    expect(parseRoute('/battles/new/')).toEqual({ name: 'battle-create' });
    expect(parseRoute(`/battles/${uuid}`)).toEqual({ name: 'battle', id: uuid });
    expect(parseRoute(`/battles/${uuid}/verify`)).toEqual({ name: 'battle-verify', id: uuid });
    expect(parseRoute('/battles/nope').name).toBe('not-found');
  });
});
