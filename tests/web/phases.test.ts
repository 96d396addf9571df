/**
 * The board's phases (PhaseTimeline), on their own: the last phase is read again whenever the game moves on, and
 * answers may come back out of order or after live events newer than them. The board shows the newest word on
 * who has ordered and who is ready, whatever the order the network delivers them in.
 */
import { describe, expect, it } from 'vitest';
import type { PhaseDetail } from '../../shared/api/index.ts';
import { PhaseTimeline, type PhasesRoom } from '../../web/src/game/phases.svelte.ts';
import { fixtureId, openPhase } from './api-fixtures.ts';

/** A phase read from the server, answered when the test says. */
function answer() {
  let resolve!: (phase: PhaseDetail) => void;
  const promise = new Promise<PhaseDetail>((r) => (resolve = r));
  return { promise, resolve };
}

/** Egypt's board, whose order box follows the last phase read (counted). */
function timeline() {
  const followed: number[] = [];
  const room: PhasesRoom = {
    id: fixtureId(1),
    finished: false,
    myPower: 'Egypt',
    failed: (e) => {
      throw e;
    },
    followCurrent: (detail) => {
      followed.push(detail.index);
      return null;
    },
  };
  return { timeline: new PhaseTimeline(room), followed };
}

const rome = (t: PhaseTimeline) => t.current?.powers.find((p) => p.power === 'Rome');
const withRome = (phase: PhaseDetail, ready: boolean): PhaseDetail => ({
  ...phase,
  powers: phase.powers.map((p) => (p.power === 'Rome' ? { ...p, submitted: ready, ready } : p)),
});

describe("the board's last phase", () => {
  it('keeps the answer to the latest read when an older one comes back after it', async () => {
    const { timeline: t, followed } = timeline();
    const older = answer();
    const newer = answer();
    const first = t.loadCurrent(older.promise);
    const second = t.loadCurrent(newer.promise);
    newer.resolve(openPhase(1, 'Fall 240 BC Movement'));
    await second;
    older.resolve(openPhase(0, 'Spring 240 BC Movement'));
    await first;
    expect(t.current?.name).toBe('Fall 240 BC Movement');
    expect(t.open?.index).toBe(1);
    expect(followed).toEqual([1]);
  });

  it('keeps who got ready while the phase was being read, over the answer read before it', async () => {
    const { timeline: t } = timeline();
    const read = answer();
    const loading = t.loadCurrent(read.promise);
    t.heardStatus({ phaseIndex: 0, power: 'Rome', submitted: true, ready: true });
    read.resolve(withRome(openPhase(0, 'Spring 240 BC Movement'), false));
    await loading;
    expect(rome(t)).toMatchObject({ submitted: true, ready: true });
  });

  it('takes a later read over what a live event said before it was asked for', async () => {
    const { timeline: t } = timeline();
    await t.loadCurrent(Promise.resolve(openPhase(0, 'Spring 240 BC Movement')));
    t.heardStatus({ phaseIndex: 0, power: 'Rome', submitted: true, ready: true });
    expect(rome(t)).toMatchObject({ ready: true });
    // Rome took its Ready back (its event lost); the server's newer answer says so.
    await t.loadCurrent(Promise.resolve(withRome(openPhase(0, 'Spring 240 BC Movement'), false)));
    expect(rome(t)).toMatchObject({ submitted: false, ready: false });
  });
});
