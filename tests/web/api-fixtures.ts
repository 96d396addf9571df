import { CorrespondenceSettingsSchema } from '../../shared/api/games.ts';
/** Answers shaped as the server's, for web tests that script the API: JSON responses, ids, a game's summary and detail. */
import type { SeaBattle } from '../../shared/api/campaign.ts';
import type { GameDetail, GameSummary, GmProposal, PhaseDetail } from '../../shared/api/index.ts';
import { start } from './positions.ts';

/** A JSON answer with this status, as the server sends it. */
export const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A well-formed id (UUID v7 shape), distinct per n (0–9). */
export const fixtureId = (n: number) => `019a0000-0000-7000-8000-00000000000${n}`;

/** A five-seat Diadochi V game, full and started, mastered by "zeus"; override what a test is about. */
export function gameSummary(fields: Partial<GameSummary> = {}): GameSummary {
  return {
    id: fixtureId(1),
    name: 'Test',
    variant: 'diadochi-v',
    status: 'active',
    seats: 5,
    playerCount: 5,
    press: 'full',
    anonymous: false,
    private: false,
    deadlines: { movement: 86400, retreat: 43200, adjustment: 43200 },
    rules: 'datc',
    gameMaster: { id: fixtureId(9), username: 'zeus' },
    createdAt: '2026-01-01T00:00:00.000Z',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: null,
    joined: false,
    outcome: null,
    pausedAt: null,
    finalAt: null,
    imported: false,
    invitedYou: false,
    ...fields,
  };
}

/** Diadochi V's five powers, as the game's seats list them. */
export const POWERS = ['Carthage', 'Egypt', 'Macedonia', 'Rome', 'Syria'];

/** That game in detail, every power seated and active, `mine` the viewer's seat (null: none); override what a test is about. */
export function gameDetail(mine: string | null, fields: Partial<GameDetail> = {}): GameDetail {
  return {
    ...gameSummary({ joined: mine !== null }),
    maxMissedDeadlines: 2,
    powerAssignment: 'random',
    autoStart: true,
    correspondence: CorrespondenceSettingsSchema.parse({}),
    powers: POWERS.map((id) => ({ id, adjective: id, colour: '#888888' })),
    players: POWERS.map((power, i) => ({ id: fixtureId(i), user: null, power, status: 'active', missedDeadlines: 0, isYou: power === mine })),
    inviteCode: null,
    yourPowerPreferences: null,
    currentPhase: null,
    imported: false,
    gameMasterPlays: false,
    invitedGameMaster: null,
    campaign: null,
    ...fields,
  };
}

/** An open phase of that game at the start position (or another), every power to order; override what a test is about. */
export function openPhase(index: number, name: string, fields: Partial<PhaseDetail> = {}): PhaseDetail {
  return {
    index,
    name,
    kind: 'movement',
    deadlineAt: '2026-12-01T00:00:00.000Z',
    status: 'open',
    processedAt: null,
    engineVersion: null,
    paused: false,
    stateBefore: start,
    loanActions: [],
    state: start,
    supply: [],
    powers: POWERS.map((power) => ({ power, mustOrder: true, submitted: false, ready: false, playerStatus: 'active', missedDeadlines: 0 })),
    orders: null,
    results: null,
    events: null,
    disbanded: null,
    stateAfter: null,
    seas: [],
    ...fields,
  } as unknown as PhaseDetail;
}

/** A request of a game master who plays, as GET …/gm/proposals lists it: to process phase 2 now, asked of every other power. */
export function proposal(fields: Partial<GmProposal> = {}): GmProposal {
  return {
    id: fixtureId(7),
    action: 'process-now',
    request: {},
    phaseIndex: 2,
    needed: ['Carthage', 'Egypt', 'Macedonia', 'Syria'],
    agreed: [],
    status: 'open',
    refusedBy: null,
    note: null,
    createdAt: '2026-11-24T10:00:00.000Z',
    decidedAt: null,
    ...fields,
  };
}

/**
 * What a board reads besides its game, for that game in its first phase with nothing yet done: the open phase,
 * `power`'s orders (none yet), no earlier phases, no press, votes or loans, an empty GM log. Null for any other path,
 * for the test to answer.
 */
export function firstPhaseBoardRead(url: string, power: string): Response | null {
  if (url.endsWith('/phases/current') || url.endsWith('/phases/0')) return json(200, openPhase(0, 'Spring 240 BC Movement'));
  if (url.endsWith('/phases/0/orders'))
    return json(200, {
      phase: { index: 0, name: 'Spring 240 BC Movement', kind: 'movement', deadlineAt: null },
      power,
      mustOrder: true,
      current: null,
      history: [],
    });
  if (url.endsWith('/phases')) return json(200, { phases: [] });
  if (url.endsWith('/press')) return json(200, { messages: [], nextCursor: null });
  if (url.endsWith('/votes')) return json(200, { survivors: POWERS, draw: [], concessions: [], outcome: null });
  if (url.endsWith('/loans')) return json(200, { loans: [] });
  if (url.endsWith('/gm/log')) return json(200, { actions: [] });
  return null;
}

/** A held phase's contested sea as the server lists it: Rome holding the South Tyrrhenian Sea, Carthage attacking it from Africa. */
export function southTyrrhenianSea(fields: Partial<SeaBattle> = {}): SeaBattle {
  return {
    sea: 'STY',
    seaName: 'South Tyrrhenian Sea',
    status: 'undecided',
    powers: ['Rome', 'Carthage'],
    sides: [
      { id: 'rome', name: 'Rome', powers: ['Rome'], fleets: [{ power: 'Rome', unit: 'F STY', at: 'STY', role: 'defender' }] },
      { id: 'carthage', name: 'Carthage', powers: ['Carthage'], fleets: [{ power: 'Carthage', unit: 'F AFR', at: 'AFR', role: 'attacker' }] },
    ],
    battleId: null,
    outcome: null,
    decidedBy: null,
    deadlineAt: null,
    odds: null,
    agreed: [],
    ...fields,
  };
}
