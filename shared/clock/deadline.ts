/**
 * When a phase falls due: its duration, put on the game's clock (a time of day
 * in a time zone, with days off), then moved past the declared absences of its
 * players. Pure: runs in Node and in the browser. Zones and daylight-saving
 * changes are luxon's (the IANA database the runtime ships), never offsets
 * worked out here.
 */
import { DateTime } from 'luxon';

/** A game's deadline clock (shared/api/games.ts DeadlineClock): "HH:MM" in an IANA zone, ISO weekdays off. */
export type Clock = { time: string; timeZone: string; daysOff: readonly number[] };

/** A declared absence: deadlines that fall from `startsAt` up to (not including) `endsAt` move to `endsAt`. */
export type Absence = { startsAt: Date; endsAt: Date };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The longest a phase's deadline is moved by absences: 14 days, the longest
 * duration a phase may have. Without a cap, absences declared back to back (by
 * one player, or by several whose dates overlap) would hold a game for ever;
 * with it, the others wait at most two weeks more, then the usual grace,
 * no-orders hold and civil disorder apply.
 */
export const MAX_VACATION_MOVE_MS = 14 * DAY_MS;

/**
 * The moment at `clock.time` in `clock.timeZone` on the local date `day`.
 * A time that does not exist that day (the hour skipped when clocks go
 * forward: 02:30 on 2027-03-28 in Europe/Amsterdam) becomes the same wall
 * time shifted by the gap, as a clock put forward shows it (03:30 CEST, one
 * hour after 01:30 CET). A time that happens twice (the hour repeated when clocks go
 * back) is its second occurrence, in standard time: the later one, so nobody
 * loses the repeated hour.
 */
function atClockTime(day: DateTime, clock: Clock): DateTime {
  const [hour, minute] = clock.time.split(':').map(Number);
  return DateTime.fromObject({ year: day.year, month: day.month, day: day.day, hour, minute }, { zone: clock.timeZone });
}

/**
 * When a phase opened at `openedAt` with `durationSeconds` falls due. Without
 * a clock: exactly the duration later. With one: the first moment at the
 * clock's time of day in its zone, on a weekday not off, that is at least the
 * duration after opening (the duration is a minimum, never shortened).
 */
export function dueAt(openedAt: Date, durationSeconds: number, clock: Clock | null): Date {
  const earliest = openedAt.getTime() + durationSeconds * 1000;
  if (!clock) return new Date(earliest);
  const daysOff = new Set(clock.daysOff);
  let day = DateTime.fromMillis(earliest, { zone: clock.timeZone }).startOf('day');
  if (!day.isValid) throw new Error(`unknown time zone ${clock.timeZone}`);
  // At most five days are off (DeadlineClockSchema), so a week and a day always finds one.
  for (let step = 0; step < 9; step += 1, day = day.plus({ days: 1 })) {
    if (daysOff.has(day.weekday)) continue;
    const candidate = atClockTime(day, clock);
    if (candidate.toMillis() >= earliest) return candidate.toJSDate();
  }
  throw new Error(`no day in the week is free for deadlines (days off: ${[...daysOff].join(', ')})`);
}

/**
 * The deadline moved to the end of the absence it falls in, and again while
 * that moment falls in another (overlapping or adjoining absences chain), by
 * at most MAX_VACATION_MOVE_MS in all.
 */
export function vacationDeadline(deadline: Date, absences: readonly Absence[]): Date {
  const cap = deadline.getTime() + MAX_VACATION_MOVE_MS;
  let at = deadline.getTime();
  // Each pass moves strictly later, to the end of an absence: at most one pass per absence.
  for (let pass = 0; pass <= absences.length; pass += 1) {
    const within = absences.find((absence) => absence.startsAt.getTime() <= at && at < absence.endsAt.getTime());
    if (!within) break;
    at = within.endsAt.getTime();
  }
  return new Date(Math.min(at, cap));
}

/**
 * A phase's deadline with everything applied: its duration on the clock, then
 * moved out of absences; a deadline moved to an absence's end goes on to the
 * next clock time (which may fall in another absence, and so on). Absences
 * move it at most MAX_VACATION_MOVE_MS past the clock's deadline; at that cap
 * it takes the next clock time from there.
 */
export function phaseDeadline(openedAt: Date, durationSeconds: number, clock: Clock | null, absences: readonly Absence[]): Date {
  const onClock = dueAt(openedAt, durationSeconds, clock);
  const cap = onClock.getTime() + MAX_VACATION_MOVE_MS;
  let at = onClock;
  // Each round moves later by at least one absence's end: bounded by the number of absences.
  for (let round = 0; round <= absences.length; round += 1) {
    const moved = vacationDeadline(at, absences);
    if (moved.getTime() === at.getTime()) return at;
    if (moved.getTime() >= cap) return dueAt(new Date(cap), 0, clock);
    at = dueAt(moved, 0, clock);
  }
  return at;
}
