/**
 * Deadlines at a clock time and moved by absences (shared/clock/deadline.ts):
 * properties over random openings, clocks and zones, and fixed cases across
 * Europe/Amsterdam's daylight-saving changes of 2027 and a zone without any.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { dueAt, MAX_VACATION_MOVE_MS, phaseDeadline, vacationDeadline, type Clock } from '../../shared/clock/deadline.ts';

const HOUR = 3600;
const DAY = 24 * HOUR;
const ZONES = ['Europe/Amsterdam', 'America/New_York', 'Asia/Tokyo', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC'];

const clockArb: fc.Arbitrary<Clock> = fc.record({
  time: fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  timeZone: fc.constantFrom(...ZONES),
  daysOff: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 5 }),
});
// 2026 to 2030: several daylight-saving changes in every zone that has them.
const instantArb = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2030, 0, 1) }).map((ms) => new Date(ms));
const durationArb = fc.integer({ min: 60, max: 14 * DAY });

function local(at: Date, zone: string) {
  return DateTime.fromJSDate(at, { zone });
}

/** Whether the clock's time exists on that local day (not in the hour skipped when clocks go forward). */
function timeExists(day: DateTime, time: string): boolean {
  const [hour, minute] = time.split(':').map(Number);
  const at = DateTime.fromObject({ year: day.year, month: day.month, day: day.day, hour, minute }, { zone: day.zone });
  return at.hour === hour && at.minute === minute;
}

describe('dueAt', () => {
  it('is never before the duration has passed, nor a week and a day after it', () => {
    fc.assert(
      fc.property(instantArb, durationArb, clockArb, (opened, duration, clock) => {
        const due = dueAt(opened, duration, clock).getTime();
        const earliest = opened.getTime() + duration * 1000;
        expect(due).toBeGreaterThanOrEqual(earliest);
        expect(due - earliest).toBeLessThan(8 * DAY * 1000);
      }),
      { numRuns: 500 },
    );
  });

  it("is always at the clock's time of day in its zone, on a day that is not off", () => {
    fc.assert(
      fc.property(instantArb, durationArb, clockArb, (opened, duration, clock) => {
        const due = local(dueAt(opened, duration, clock), clock.timeZone);
        expect(clock.daysOff).not.toContain(due.weekday);
        if (timeExists(due, clock.time)) expect(due.toFormat('HH:mm')).toBe(clock.time);
        // On the day clocks go forward over the time, it is that wall time shifted by the gap.
        else expect(due.toFormat('HH:mm') > clock.time).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('never falls earlier for a phase that opened later', () => {
    fc.assert(
      fc.property(instantArb, fc.integer({ min: 0, max: 10 * DAY * 1000 }), durationArb, clockArb, (opened, later, duration, clock) => {
        const after = new Date(opened.getTime() + later);
        expect(dueAt(after, duration, clock).getTime()).toBeGreaterThanOrEqual(dueAt(opened, duration, clock).getTime());
      }),
      { numRuns: 500 },
    );
  });

  it('is the first such moment: no earlier clock time on a day not off would do', () => {
    fc.assert(
      fc.property(instantArb, durationArb, clockArb, (opened, duration, clock) => {
        const due = dueAt(opened, duration, clock);
        const dayBefore = local(due, clock.timeZone).minus({ days: 1 });
        // The previous day's clock time, were it not off, was too early.
        const [hour, minute] = clock.time.split(':').map(Number);
        const previous = dayBefore.set({ hour, minute, second: 0, millisecond: 0 });
        if (!clock.daysOff.includes(previous.weekday)) expect(previous.toMillis()).toBeLessThan(opened.getTime() + duration * 1000);
      }),
      { numRuns: 500 },
    );
  });

  it('is the duration alone without a clock', () => {
    fc.assert(
      fc.property(instantArb, durationArb, (opened, duration) => {
        expect(dueAt(opened, duration, null).getTime()).toBe(opened.getTime() + duration * 1000);
      }),
    );
  });

  const amsterdam: Clock = { time: '20:00', timeZone: 'Europe/Amsterdam', daysOff: [6, 7] };

  it('keeps 20:00 in Amsterdam across the spring-forward change (2027-03-28): 19:00 UTC before, 18:00 UTC after', () => {
    // Thursday 25 March 2027, 21:00 local (20:00 UTC), 3 days: Sunday 28th at 21:00 is off, Monday at 20:00 CEST.
    expect(dueAt(new Date('2027-03-25T20:00:00Z'), 3 * DAY, amsterdam).toISOString()).toBe('2027-03-29T18:00:00.000Z');
    // Friday 26 March 12:00 CET, 2 hours: 20:00 CET that day.
    expect(dueAt(new Date('2027-03-26T11:00:00Z'), 2 * HOUR, amsterdam).toISOString()).toBe('2027-03-26T19:00:00.000Z');
    // With every day on: Sunday the 28th, already summer time.
    expect(dueAt(new Date('2027-03-27T12:00:00Z'), DAY, { ...amsterdam, daysOff: [] }).toISOString()).toBe('2027-03-28T18:00:00.000Z');
  });

  it('keeps 20:00 in Amsterdam across the fall-back change (2027-10-31): 18:00 UTC before, 19:00 UTC after', () => {
    expect(dueAt(new Date('2027-10-29T10:00:00Z'), HOUR, amsterdam).toISOString()).toBe('2027-10-29T18:00:00.000Z');
    // Friday evening after 20:00, a day: Saturday and Sunday off, Monday 1 November at 20:00 CET.
    expect(dueAt(new Date('2027-10-29T19:30:00Z'), DAY, amsterdam).toISOString()).toBe('2027-11-01T19:00:00.000Z');
    expect(dueAt(new Date('2027-10-30T12:00:00Z'), DAY, { ...amsterdam, daysOff: [] }).toISOString()).toBe('2027-10-31T19:00:00.000Z');
  });

  it('resolves a time the spring-forward change skips (02:30 on 2027-03-28) to 03:30 summer time, and a repeated one to its second occurrence', () => {
    const skipped: Clock = { time: '02:30', timeZone: 'Europe/Amsterdam', daysOff: [] };
    // 03:30 CEST = 01:30 UTC: the wall clock put forward by the hour it skips.
    expect(dueAt(new Date('2027-03-27T12:00:00Z'), HOUR, skipped).toISOString()).toBe('2027-03-28T01:30:00.000Z');
    // 02:30 happens twice on 2027-10-31; the deadline is the second, in winter time (01:30 UTC, not 00:30).
    expect(dueAt(new Date('2027-10-30T12:00:00Z'), HOUR, skipped).toISOString()).toBe('2027-10-31T01:30:00.000Z');
    // The day after a change, the usual time again.
    expect(dueAt(new Date('2027-03-28T12:00:00Z'), HOUR, skipped).toISOString()).toBe('2027-03-29T00:30:00.000Z');
  });

  it('keeps the same UTC time all year in a zone without daylight saving (Asia/Tokyo)', () => {
    const tokyo: Clock = { time: '09:00', timeZone: 'Asia/Tokyo', daysOff: [] };
    for (const opened of ['2027-03-27T12:00:00Z', '2027-10-30T12:00:00Z', '2027-07-01T12:00:00Z']) {
      expect(dueAt(new Date(opened), HOUR, tokyo).toISOString().slice(11)).toBe('00:00:00.000Z');
    }
    // Days off are Tokyo's weekdays: Friday 2027-07-02 20:00 UTC is Saturday 05:00 in Tokyo; Monday 09:00 JST.
    expect(dueAt(new Date('2027-07-02T20:00:00Z'), HOUR, { ...tokyo, daysOff: [6, 7] }).toISOString()).toBe('2027-07-05T00:00:00.000Z');
  });
});

describe('vacationDeadline', () => {
  const at = (iso: string) => new Date(iso);

  it('moves a deadline inside an absence to its end, and leaves one outside it alone', () => {
    const absences = [{ startsAt: at('2027-05-01T00:00:00Z'), endsAt: at('2027-05-08T00:00:00Z') }];
    expect(vacationDeadline(at('2027-05-03T18:00:00Z'), absences).toISOString()).toBe('2027-05-08T00:00:00.000Z');
    expect(vacationDeadline(at('2027-05-08T00:00:00Z'), absences).toISOString()).toBe('2027-05-08T00:00:00.000Z');
    expect(vacationDeadline(at('2027-04-30T23:59:00Z'), absences).toISOString()).toBe('2027-04-30T23:59:00.000Z');
  });

  it('chains overlapping absences, in any order given', () => {
    const absences = [
      { startsAt: at('2027-05-07T00:00:00Z'), endsAt: at('2027-05-10T00:00:00Z') },
      { startsAt: at('2027-05-01T00:00:00Z'), endsAt: at('2027-05-08T00:00:00Z') },
      { startsAt: at('2027-05-10T00:00:00Z'), endsAt: at('2027-05-11T00:00:00Z') },
    ];
    expect(vacationDeadline(at('2027-05-02T00:00:00Z'), absences).toISOString()).toBe('2027-05-11T00:00:00.000Z');
  });

  it('moves by 14 days at most, however long the absences', () => {
    const absences = [
      { startsAt: at('2027-05-01T00:00:00Z'), endsAt: at('2027-05-12T00:00:00Z') },
      { startsAt: at('2027-05-11T00:00:00Z'), endsAt: at('2027-06-30T00:00:00Z') },
    ];
    expect(vacationDeadline(at('2027-05-02T00:00:00Z'), absences).toISOString()).toBe('2027-05-16T00:00:00.000Z');
  });

  it('never moves a deadline earlier, nor more than the cap, and leaves it out of every absence below the cap', () => {
    const absenceArb = fc
      .tuple(instantArb, fc.integer({ min: 1, max: 20 * DAY * 1000 }))
      .map(([start, length]) => ({ startsAt: start, endsAt: new Date(start.getTime() + length) }));
    fc.assert(
      fc.property(instantArb, fc.array(absenceArb, { maxLength: 6 }), (deadline, absences) => {
        const moved = vacationDeadline(deadline, absences).getTime();
        expect(moved).toBeGreaterThanOrEqual(deadline.getTime());
        expect(moved - deadline.getTime()).toBeLessThanOrEqual(MAX_VACATION_MOVE_MS);
        if (moved - deadline.getTime() < MAX_VACATION_MOVE_MS) {
          for (const a of absences) expect(moved >= a.startsAt.getTime() && moved < a.endsAt.getTime()).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('phaseDeadline', () => {
  const clock: Clock = { time: '20:00', timeZone: 'Europe/Amsterdam', daysOff: [6, 7] };

  it("puts a deadline moved to an absence's end back on the clock", () => {
    // Due Monday 2027-05-03 20:00 CEST; the absence ends Wednesday 10:00 UTC: Wednesday 20:00 CEST.
    const absences = [{ startsAt: new Date('2027-05-02T00:00:00Z'), endsAt: new Date('2027-05-05T10:00:00Z') }];
    expect(phaseDeadline(new Date('2027-05-02T12:00:00Z'), DAY, clock, absences).toISOString()).toBe('2027-05-05T18:00:00.000Z');
    expect(phaseDeadline(new Date('2027-05-02T12:00:00Z'), DAY, clock, []).toISOString()).toBe('2027-05-03T18:00:00.000Z');
  });

  it('is on the clock and never earlier than without absences', () => {
    const absenceArb = fc
      .tuple(instantArb, fc.integer({ min: 1, max: 20 * DAY * 1000 }))
      .map(([start, length]) => ({ startsAt: start, endsAt: new Date(start.getTime() + length) }));
    fc.assert(
      fc.property(instantArb, durationArb, clockArb, fc.array(absenceArb, { maxLength: 4 }), (opened, duration, clock, absences) => {
        const plain = dueAt(opened, duration, clock).getTime();
        const moved = phaseDeadline(opened, duration, clock, absences);
        expect(moved.getTime()).toBeGreaterThanOrEqual(plain);
        // Within the cap, put on the clock from there.
        expect(moved.getTime()).toBeLessThanOrEqual(dueAt(new Date(plain + MAX_VACATION_MOVE_MS), 0, clock).getTime());
        expect(clock.daysOff).not.toContain(local(moved, clock.timeZone).weekday);
      }),
      { numRuns: 300 },
    );
  });
});
