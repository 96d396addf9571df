/**
 * The HTTP API, typed by the server's own zod schemas (z.infer/z.input), so a
 * change on the wire is a type error here. Cookie sessions send the CSRF token
 * on every write, as server/README.md asks.
 */
import type { z } from 'zod';
import type {
  ApiError as ApiErrorBody,
  ApiTokenListSchema,
  ChangePasswordRequest,
  CreatedApiTokenSchema,
  CastVoteRequest,
  ChangeDeadlineRequestSchema,
  CheckedOrder,
  CreateGameRequest,
  CreateLoanRequestSchema,
  EndGameRequest,
  GmAction,
  GmActionResponseSchema,
  GmLogSchema,
  GmProposal,
  GmProposalListSchema,
  ProposalAnsweredSchema,
  LoanListSchema,
  MyOrdersSchema,
  PhaseListSchema,
  PressListSchema,
  ReadyResponseSchema,
  ReplacePlayerRequestSchema,
  SendPressRequest,
  SubmitOrdersRequest,
  SubmitOrdersResponseSchema,
  VotesSchema,
  GameListSchema,
  JoinGameRequest,
  ListGamesQuery,
  LoginRequest,
  RegisterRequest,
  UserProfileSchema,
  VariantListSchema,
} from '../../../shared/api/index.ts';
import type { BattleActionRequest, CreateBattleRequest, JoinBattleRequest, ListBattlesQuery } from '../../../shared/api/battles.ts';
import { API_ROUTES, pathOf, type PathParams, type RouteName } from '../../../shared/api/routes.ts';
import type { WireInput, WireName, WireOutput } from '../../../shared/api/wire.ts';
import { EARLY_READ_INIT, takeEarlyRead } from './early-reads.ts';

export type GameList = z.infer<typeof GameListSchema>;
export type VariantList = z.infer<typeof VariantListSchema>;
export type PhaseList = z.infer<typeof PhaseListSchema>;
export type MyOrders = z.infer<typeof MyOrdersSchema>;
export type SubmitOrdersResponse = z.infer<typeof SubmitOrdersResponseSchema>;
export type ReadyResponse = z.infer<typeof ReadyResponseSchema>;
export type PressList = z.infer<typeof PressListSchema>;
export type LoanList = z.infer<typeof LoanListSchema>;
export type Votes = z.infer<typeof VotesSchema>;
export type GmLog = z.infer<typeof GmLogSchema>;
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;
export type GmActionResponse = z.infer<typeof GmActionResponseSchema>;
/**
 * What a game master's tool answers: 200 with the action done, or (a game master who also plays, using a tool
 * that needs the others' consent) 202 with the request put to the players.
 */
export type GmToolOutcome = { action: GmAction; proposal?: undefined } | { proposal: GmProposal; action?: undefined };
export type GmProposalList = z.infer<typeof GmProposalListSchema>;
export type ProposalAnswered = z.infer<typeof ProposalAnsweredSchema>;
export type { GmProposal };
export type UserProfile = z.infer<typeof UserProfileSchema>;
export type ChangeDeadlineRequest = z.input<typeof ChangeDeadlineRequestSchema>;
export type ReplacePlayerRequest = z.input<typeof ReplacePlayerRequestSchema>;
export type CreateLoanRequest = z.input<typeof CreateLoanRequestSchema>;
export type { EndGameRequest };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: { path: string; message: string }[] = [],
    /** For 422 `orders_rejected`: the verdict on every order given. */
    readonly orders: CheckedOrder[] = [],
  ) {
    super(message);
  }
}

/** The field an issue is about: `body.gameMaster` → `gameMaster`, `query.cursor` → `cursor`. */
export function issueField(path: string): string {
  return path.replace(/^(body|query|params)(\.|$)/, '');
}

/** A field's name in words: `gameMaster` → "Game master", `deadlines.movement` → "Movement". */
function fieldLabel(path: string): string {
  const last =
    issueField(path)
      .split('.')
      .filter((s) => s && !/^\d+$/.test(s))
      .at(-1) ?? '';
  const words = last.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * One issue as a sentence a player can read, never a wire path: `body.gameMaster` with
 * `must be at least 3 characters` → "Game master must be at least 3 characters.";
 * `there is no user named "bob"` → "There is no user named “bob”." A page may name the field itself (`label`).
 */
export function plainIssue(path: string, message: string, label = fieldLabel(path)): string {
  const text = message
    .trim()
    .replace(/"([^"]*)"/g, '“$1”')
    .replace(/[.;\s]+$/, '');
  const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  if (!label || /^there\b/i.test(text)) return `${capital(text)}.`;
  if (/^(is|are|must|may|should|cannot|does|do|has|have|not)\b/.test(text)) return `${label} ${text}.`;
  return `${label}: ${text}.`;
}

let csrfToken: string | null = null;
/** Remembered from log-in, sign-up and who-am-I; sent with every write. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { ...EARLY_READ_INIT.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    const early = method === 'GET' ? await takeEarlyRead(path) : null;
    response = early ?? (await fetch(path, { ...EARLY_READ_INIT, method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) {
    const body = data as (ApiErrorBody & { orders?: CheckedOrder[] }) | undefined;
    const e = body?.error;
    const code = e?.code ?? 'http_error';
    let message = e?.message ?? `The server answered ${response.status}.`;
    const issues = e?.issues ?? [];
    // Validation errors name wire paths ("body.name: is required") and say each in `issues`: give players sentences
    // instead, keeping the issues for forms.
    if (code === 'validation_failed' && issues.length > 0) message = issues.map((i) => plainIssue(i.path, i.message)).join(' ');
    throw new ApiError(response.status, code, message, issues, body?.orders ?? []);
  }
  return data as T;
}

/**
 * Games known to have phases: listed as in progress or finished, or read with a phase (a game that has started
 * never loses them). A game's page asks for the open phase of such a game beside the game itself; of another, only
 * once the game's answer says it has one, since a game still forming has none (the server would answer 404).
 */
const startedGames = new Set<string>();
export const knownStarted = (id: string): boolean => startedGames.has(id);
function noteStarted<T extends { id: string; status: string; currentPhase?: unknown }>(game: T): T {
  if (game.status === 'active' || game.status === 'finished' || game.currentPhase) startedGames.add(game.id);
  return game;
}

type Routes = typeof API_ROUTES;
/** What a route answers, by the wire names in its table entry (a tool's 200 or 202; nothing for 204). */
type AnswerOf<N extends RouteName> = {
  [S in keyof Routes[N]['answers']]: Routes[N]['answers'][S] extends WireName ? WireOutput<Routes[N]['answers'][S]> : undefined;
}[keyof Routes[N]['answers']];
type BodyOf<N extends RouteName> = Routes[N] extends { body: infer B extends WireName } ? WireInput<B> : undefined;
type Query = Record<string, unknown>;

/** Calls a route of the table (shared/api/routes.ts): its method, its path with `params` filled in, and `query`. */
function call<N extends RouteName>(
  name: N,
  params: PathParams<Routes[N]['path']>,
  ...[body, query]: BodyOf<N> extends undefined ? [body?: undefined, query?: Query] : [body: BodyOf<N>, query?: Query]
): Promise<AnswerOf<N>> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value));
  const path = pathOf(name, params);
  return request<AnswerOf<N>>(API_ROUTES[name].method, search.size ? `${path}?${search}` : path, body);
}

export const api = {
  /** Who is logged in: `user` is null for a visitor (an answer, not an error). */
  me: () => call('me', {}),
  register: (body: RegisterRequest) => call('register', {}, body),
  login: (body: LoginRequest) => call('login', {}, body),
  logout: () => call('logout', {}),
  changePassword: (body: ChangePasswordRequest) => call('changePassword', {}, body),
  tokens: () => call('tokens', {}),
  createToken: (name: string) => call('createToken', {}, { name }),
  revokeToken: (tokenId: string) => call('revokeToken', { tokenId }),
  /** Your preferences: the time zone times are shown in (null: the browser's own). */
  setPreferences: (body: WireInput<'UpdatePreferencesRequest'>) => call('setPreferences', {}, body),
  /** The calendar feed's address (null: none); make or change it (the old one stops working); turn it off. */
  calendarFeed: () => call('calendarToken', {}),
  rotateCalendarFeed: () => call('createCalendarToken', {}),
  deleteCalendarFeed: () => call('deleteCalendarToken', {}),
  notificationSettings: () => call('notificationSettings', {}),
  setNotificationSettings: (body: WireInput<'NotificationSettings'>) => call('setNotificationSettings', {}, body),
  gameNotifications: (gameId: string) => call('gameNotifications', { gameId }),
  setGameNotifications: (gameId: string, body: WireInput<'NotificationSettings'>) => call('setGameNotifications', { gameId }, body),
  pushKey: () => call('pushKey', {}),
  pushSubscriptions: () => call('pushSubscriptions', {}),
  subscribePush: (body: WireInput<'PushSubscriptionRequest'>) => call('subscribePush', {}, body),
  unsubscribePushEndpoint: (endpoint: string) => call('unsubscribePushEndpoint', {}, undefined, { endpoint }),
  unsubscribePush: (subscriptionId: string) => call('unsubscribePush', { subscriptionId }),
  /** Account mail: the address, its verification, a change of address, password reset (shared/api/account-mail.ts). */
  email: {
    status: () => call('emailStatus', {}),
    change: (body: WireInput<'ChangeEmailRequest'>) => call('changeEmail', {}, body),
    resendVerification: () => call('resendVerification', {}),
    verify: (token: string) => call('verifyEmail', {}, { token }),
    requestReset: (body: WireInput<'PasswordResetRequest'>) => call('requestPasswordReset', {}, body),
    confirmReset: (body: WireInput<'ConfirmPasswordResetRequest'>) => call('confirmPasswordReset', {}, body),
  },
  variants: () => call('variants', {}),
  games: (query: ListGamesQuery) => call('games', {}, undefined, query).then((list) => (list.games.forEach(noteStarted), list)),
  game: (id: string, inviteCode?: string) => call('game', { gameId: id }, undefined, { inviteCode }).then(noteStarted),
  createGame: (body: CreateGameRequest) => call('createGame', {}, body),
  join: (id: string, body: JoinGameRequest) => call('join', { gameId: id }, body),
  leave: (id: string) => call('leave', { gameId: id }),
  start: (id: string) => call('start', { gameId: id }),
  /** A player's public page: their games (those the viewer may know of), totals and deadlines kept. 404 for no such user. */
  profile: (username: string) => call('profile', { username }),

  // Game play
  phases: (id: string) => call('phases', { gameId: id }),
  phase: (id: string, index: number | 'current') => (index === 'current' ? call('currentPhase', { gameId: id }) : call('phase', { gameId: id, index })),
  myOrders: (id: string, index: number) => call('myOrders', { gameId: id, index }),
  submitOrders: (id: string, index: number, body: SubmitOrdersRequest) => call('submitOrders', { gameId: id, index }, body),
  setReady: (id: string, index: number, ready: boolean) => call('setReady', { gameId: id, index }, { ready }),

  press: (id: string, cursor?: string) => call('press', { gameId: id }, undefined, { limit: 200, cursor }),
  sendPress: (id: string, body: SendPressRequest) => call('sendPress', { gameId: id }, body),
  /** How far I have read each conversation (kept per user on the server: every device agrees). */
  pressRead: (id: string) => call('pressRead', { gameId: id }),
  markPressRead: (id: string, conversation: string, until: string) => call('markPressRead', { gameId: id }, { conversation, until }),

  loans: (id: string) => call('loans', { gameId: id }),
  lend: (id: string, body: CreateLoanRequest) => call('lend', { gameId: id }, body),
  endLoan: (id: string, loanId: string) => call('endLoan', { gameId: id, loanId }),

  votes: (id: string) => call('votes', { gameId: id }),
  vote: (id: string, body: CastVoteRequest) => call('vote', { gameId: id }, body),
  withdrawVote: (id: string, kind: 'draw' | 'concede') => call('withdrawVote', { gameId: id, kind }),
  /** Votes on the clock: pause, resume, extend (shared/api/clock-votes.ts). */
  clockVotes: {
    list: (id: string) => call('clockVotes', { gameId: id }),
    propose: (id: string, body: WireInput<'ProposeClockVoteRequest'>) => call('proposeClockVote', { gameId: id }, body),
    ballot: (id: string, voteId: string, agree: boolean) => call('castClockBallot', { gameId: id, voteId }, { agree }),
    withdraw: (id: string, voteId: string) => call('withdrawClockVote', { gameId: id, voteId }),
  },
  /** Your absences and the sitter who plays your seats meanwhile (shared/api/vacations.ts). */
  vacations: {
    list: () => call('vacations', {}),
    declare: (body: WireInput<'DeclareVacationRequest'>) => call('declareVacation', {}, body),
    cancel: (vacationId: string) => call('cancelVacation', { vacationId }),
  },

  gmLog: (id: string) => call('gmLog', { gameId: id }),
  /** A game's webhooks (its game master's): the secret comes once, in what `createWebhook` answers. */
  webhooks: {
    list: (id: string) => call('webhooks', { gameId: id }),
    create: (id: string, body: WireInput<'CreateWebhookRequest'>) => call('createWebhook', { gameId: id }, body),
    remove: (id: string, webhookId: string) => call('deleteWebhook', { gameId: id, webhookId }),
    enable: (id: string, webhookId: string) => call('enableWebhook', { gameId: id, webhookId }),
    test: (id: string, webhookId: string) => call('testWebhook', { gameId: id, webhookId }),
  },
  /** A game master's tools: 200 with the action, or 202 with the request put to the players (a game master who plays). */
  gm: {
    process: (id: string) => call('processNow', { gameId: id }),
    deadline: (id: string, body: ChangeDeadlineRequest) => call('changeDeadline', { gameId: id }, body),
    pause: (id: string) => call('pause', { gameId: id }),
    resume: (id: string) => call('resume', { gameId: id }),
    replace: (id: string, body: ReplacePlayerRequest) => call('replacePlayer', { gameId: id }, body),
    civilDisorder: (id: string, power: string) => call('civilDisorder', { gameId: id }, { power }),
    enterOrders: (id: string, index: number, power: string, body: SubmitOrdersRequest) => call('enterOrders', { gameId: id, index, power }, body),
    rollback: (id: string, phase: number) => call('rollback', { gameId: id }, { phase }),
    endGame: (id: string, body: EndGameRequest) => call('endGame', { gameId: id }, body),
    /** An ended game's result made final now: its secrets become public, and it can no longer be re-opened. */
    finalize: (id: string) => call('finalize', { gameId: id }),
    /** Ask another user to take over as game master (they must accept). */
    invite: (id: string, username: string) => call('inviteGameMaster', { gameId: id }, { username }),
    /** A game master who plays: the requests put to the players, oldest first. */
    proposals: (id: string) => call('proposals', { gameId: id }),
    /** A player asked for consent agrees or refuses; the last agreement carries the tool out. */
    answer: (id: string, proposalId: string, agree: boolean) => call('answerProposal', { gameId: id, proposalId }, { agree }),
    /** The game master withdraws a request before everyone has answered. */
    withdraw: (id: string, proposalId: string) => call('withdrawProposal', { gameId: id, proposalId }),
    /** The one asked to run the game accepts: they are its game master from now on. */
    acceptInvitation: (id: string) => call('acceptInvitation', { gameId: id }),
    /** The one asked declines, or the game master withdraws the invitation. */
    dropInvitation: (id: string) => call('dropInvitation', { gameId: id }),
  },

  /** Seats offered to new players: the lobby's list, a game's offers and requests, and taking one (shared/api/seats.ts). */
  seats: {
    open: (query: { limit?: number; cursor?: string; inviteCode?: string } = {}) => call('openSeats', {}, undefined, query),
    ofGame: (id: string, inviteCode?: string) => call('gameSeats', { gameId: id }, undefined, { inviteCode }),
    offer: (id: string, power: string) => call('offerSeat', { gameId: id, power }),
    withdrawOffer: (id: string, power: string) => call('withdrawSeatOffer', { gameId: id, power }),
    request: (id: string, power: string, inviteCode?: string) => call('requestSeat', { gameId: id, power }, inviteCode ? { inviteCode } : {}),
    approve: (id: string, power: string, requestId: string) => call('approveSeatRequest', { gameId: id, power, requestId }),
    decline: (id: string, power: string, requestId: string) => call('declineSeatRequest', { gameId: id, power, requestId }),
    withdraw: (id: string, power: string, requestId: string) => call('withdrawSeatRequest', { gameId: id, power, requestId }),
  },

  // Naval battles
  battleRulesets: () => call('battleRulesets', {}),
  battles: (query: ListBattlesQuery) => call('battles', {}, undefined, query),
  battle: (id: string, inviteCode?: string) => call('battle', { battleId: id }, undefined, { inviteCode }),
  createBattle: (body: CreateBattleRequest) => call('createBattle', {}, body),
  joinBattle: (id: string, body: JoinBattleRequest) => call('joinBattle', { battleId: id }, body),
  leaveBattle: (id: string) => call('leaveBattle', { battleId: id }),
  cancelBattle: (id: string) => call('cancelBattle', { battleId: id }),
  /** The log's entries after action `after` (0: from the start, entry 0), a page at a time (`next`). */
  battleLog: (id: string, after: number, inviteCode?: string) => call('battleLog', { battleId: id }, undefined, { after, limit: 500, inviteCode }),
  /** 409 when the battle moved on since `expected` actions. */
  battleAct: (id: string, body: BattleActionRequest) => call('battleAct', { battleId: id }, body),
  /** A battle's record: the seed only once it is over. */
  exportBattle: (id: string, inviteCode?: string) => call('exportBattle', { battleId: id }, undefined, { inviteCode }),
  battleExportUrl: (id: string) => pathOf('exportBattle', { battleId: id }),

  /** Campaign play (shared/api/campaign.ts): the game's campaign, and a held phase's contested seas. */
  campaign: {
    /** The game master changes the campaign of a game still forming. */
    set: (id: string, body: WireInput<'CampaignSettings'>) => call('setCampaign', { gameId: id }, body),
    seas: (id: string, index: number) => call('seaBattles', { gameId: id, index }),
    sides: (id: string, index: number, sea: string, sides: string[][]) => call('setSeaSides', { gameId: id, index, sea }, { sides }),
    /** `winner` null: a standoff. */
    decide: (id: string, index: number, sea: string, winner: string | null) => call('decideSea', { gameId: id, index, sea }, { winner }),
    waive: (id: string, index: number, sea: string) => call('waiveSea', { gameId: id, index, sea }),
    fight: (id: string, index: number, sea: string, body: WireInput<'FightSeaRequest'>) => call('fightSea', { gameId: id, index, sea }, body),
    autoResolve: (id: string, index: number, sea: string) => call('autoResolveSea', { gameId: id, index, sea }),
    /** 202: the estimate runs; its progress comes as sea.changed events (and in the answer's odds so far). */
    estimate: (id: string, index: number, sea: string) => call('estimateSeaOdds', { gameId: id, index, sea }),
    /** The game master ends the battle being fought for the sea: nobody won it, and the sea is undecided again. */
    abandon: (id: string, index: number, sea: string) => call('abandonSea', { gameId: id, index, sea }),
    /** The player of a power fighting there agrees to auto-resolve the sea (auto-resolved once every such power has). */
    agree: (id: string, index: number, sea: string) => call('agreeToAutoResolve', { gameId: id, index, sea }),
    withdraw: (id: string, index: number, sea: string) => call('withdrawAgreement', { gameId: id, index, sea }),
  },

  /** Links, not fetches: the browser downloads them (the server sends content-disposition). */
  exportUrl: (id: string) => pathOf('exportGame', { gameId: id }),
  datcUrl: (id: string) => pathOf('exportDatc', { gameId: id }),
};
