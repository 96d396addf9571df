/**
 * Declared absences (vacations) of the logged-in user, and the sitter they name. The limits are VACATION_LIMITS
 * (shared/api/vacations.ts): each absence at most 30 days, at most 60 days in any 365, at most 10 not yet ended,
 * none overlapping another. Who may sit where is the access policy's (`sittingFor`); this module only says, per
 * game, what the policy will do, without telling anything an anonymous game hides.
 */
import { VACATION_LIMITS, type DeclareVacationRequest } from '../../shared/api/vacations.ts';
import type { FastifyInstance } from 'fastify';
import type { Db, Transaction } from '../db/database.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import type { Auth } from '../auth/caller.ts';
import { deferOpenDeadlines } from '../play/deadlines.ts';
import { vacationListView, type OwnGame, type VacationRow } from '../views/vacation.ts';

type User = Auth['user'];
const DAY_MS = 24 * 3600 * 1000;
const YEAR_MS = 365 * DAY_MS;

type Span = { start: number; end: number };

/** The part of an absence that counts: until it was cancelled, if it was (one cancelled before it began counts nothing). */
function spanOf(row: { startsAt: Date; endsAt: Date; cancelledAt: Date | null }): Span | null {
  const end = Math.min(row.endsAt.getTime(), row.cancelledAt?.getTime() ?? Number.POSITIVE_INFINITY);
  const start = row.startsAt.getTime();
  return end > start ? { start, end } : null;
}

/**
 * The most absence, in ms, inside any window of 365 days. The sum over a sliding window changes slope only where
 * one of its edges meets an absence's start or end, so the maximum is at a window starting or ending at one.
 */
export function mostInAYear(spans: Span[]): number {
  const edges = spans.flatMap(({ start, end }) => [start, end]);
  const windows = [...edges.map((at) => ({ from: at, to: at + YEAR_MS })), ...edges.map((at) => ({ from: at - YEAR_MS, to: at }))];
  let most = 0;
  for (const { from, to } of windows) {
    let sum = 0;
    for (const span of spans) sum += Math.max(0, Math.min(span.end, to) - Math.max(span.start, from));
    most = Math.max(most, sum);
  }
  return most;
}

const days = (ms: number) => Math.round((ms / DAY_MS) * 10) / 10;

const vacationInclude = { sitter: { select: { id: true, username: true } } } as const;

/** The user's seats in games not yet over, with what the views need to say whether a sitter may play there. */
async function ownGames(db: Db, userId: string): Promise<OwnGame[]> {
  const seats = await db.player.findMany({
    where: { userId, game: { status: { in: ['forming', 'active'] } } },
    select: {
      power: true,
      game: {
        select: {
          id: true,
          name: true,
          private: true,
          anonymous: true,
          status: true,
          gameMasterId: true,
          finalAt: true,
          players: { select: { userId: true, power: true } },
        },
      },
    },
    orderBy: { game: { createdAt: 'asc' } },
  });
  return seats.map((seat) => ({ power: seat.power, game: seat.game }));
}

async function listFor(db: Db, user: User, now = new Date()) {
  const rows: VacationRow[] = await db.vacation.findMany({
    where: { userId: user.id, cancelledAt: null, endsAt: { gt: now } },
    include: vacationInclude,
    orderBy: { startsAt: 'asc' },
  });
  const counted = await db.vacation.findMany({ where: { userId: user.id, endsAt: { gt: new Date(now.getTime() - YEAR_MS) } } });
  const sittingRows = await db.vacation.findMany({
    where: { sitterId: user.id, cancelledAt: null, endsAt: { gt: now } },
    include: { user: { select: { id: true, username: true } } },
    orderBy: { startsAt: 'asc' },
  });
  const sittingGames = new Map<string, OwnGame[]>();
  for (const row of sittingRows) if (!sittingGames.has(row.userId)) sittingGames.set(row.userId, await ownGames(db, row.userId));
  return vacationListView(user, {
    vacations: rows,
    games: rows.some((row) => row.sitter) ? await ownGames(db, user.id) : [],
    sitting: sittingRows.map((row) => ({ row, games: sittingGames.get(row.userId) ?? [] })),
    mostDaysInAYear: days(mostInAYear(counted.map(spanOf).filter((span) => span !== null))),
  });
}

export async function listVacations(db: Db, user: User) {
  return listFor(db, user);
}

/**
 * Declares an absence; every refusal is a 400 naming the field and the limit. An open phase whose deadline now falls
 * in it moves past it, in the same transaction (play/deadlines.ts: games that honour absences, no sitter named).
 */
export async function declareVacation(app: FastifyInstance, user: User, body: DeclareVacationRequest) {
  return app.prisma.$transaction(async (tx: Transaction) => {
    // One declaration at a time per user, so two at once cannot both fit the yearly budget.
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${user.id}::uuid FOR UPDATE`;
    const now = new Date();
    const startsAt = new Date(body.startsAt);
    const endsAt = new Date(body.endsAt);
    if (startsAt.getTime() < now.getTime() - VACATION_LIMITS.startToleranceMinutes * 60_000)
      throw invalid('body.startsAt', `is in the past (${body.startsAt}): an absence starts now or later`);
    const upcoming = await tx.vacation.findMany({ where: { userId: user.id, cancelledAt: null, endsAt: { gt: now } }, orderBy: { startsAt: 'asc' } });
    if (upcoming.length >= VACATION_LIMITS.maxUpcoming)
      throw invalid('body.startsAt', `you have ${upcoming.length} absences declared already, the most allowed (cancel one first)`);
    const overlapping = upcoming.find((row) => row.startsAt < endsAt && row.endsAt > startsAt);
    if (overlapping) throw invalid('body.startsAt', `overlaps your absence from ${overlapping.startsAt.toISOString()} to ${overlapping.endsAt.toISOString()}`);
    const counted = await tx.vacation.findMany({
      where: { userId: user.id, endsAt: { gt: new Date(startsAt.getTime() - YEAR_MS) }, startsAt: { lt: new Date(endsAt.getTime() + YEAR_MS) } },
    });
    const spans = [...counted.map(spanOf).filter((span) => span !== null), { start: startsAt.getTime(), end: endsAt.getTime() }];
    const most = mostInAYear(spans);
    if (most > VACATION_LIMITS.maxDaysPerYear * DAY_MS)
      throw invalid(
        'body.endsAt',
        `would make ${days(most)} days of absence within 365 days; at most ${VACATION_LIMITS.maxDaysPerYear} are allowed (shorten it or cancel another)`,
      );
    let sitterId: string | null = null;
    if (body.sitter !== undefined) {
      const sitter = await tx.user.findUnique({ where: { usernameKey: body.sitter.toLowerCase() }, select: { id: true } });
      if (!sitter) throw invalid('body.sitter', `there is no user named "${body.sitter}"`);
      if (sitter.id === user.id) throw invalid('body.sitter', 'name someone else: you cannot sit for yourself');
      sitterId = sitter.id;
    }
    await tx.vacation.create({ data: { userId: user.id, startsAt, endsAt, sitterId } });
    await deferOpenDeadlines(tx, app.bus, user.id, app.play.notify);
    return listFor(tx, user, now);
  });
}

/** Cancels an absence of yours: one in progress ends now (the days taken still count), one to come is dropped. */
export async function cancelVacation(db: Db, user: User, vacationId: string) {
  const now = new Date();
  const row = await db.vacation.findFirst({ where: { id: vacationId, userId: user.id } });
  if (!row) throw notFound('you have no absence with that id');
  if (row.cancelledAt) throw conflict('conflict', 'that absence was cancelled already');
  if (row.endsAt <= now) throw conflict('conflict', 'that absence is over already');
  await db.vacation.update({ where: { id: row.id }, data: { cancelledAt: now } });
  return listFor(db, user, now);
}
