/**
 * Every route of the HTTP API in one table: its method, its path (Fastify's `:param` form), the names of its
 * request body and query, and what it answers (the names of the wire schemas, as the OpenAPI document names
 * them: `GET /api/docs/json`). The server's registered routes are checked against this table, both ways
 * (tests/server/api-routes.test.ts), and the web client builds each call from it (web/src/lib/api.ts), so neither
 * restates a URL the other could change alone.
 *
 * Free of zod, so that the client's first scripts can import it: the names map to types through wire.ts.
 */
import type { WireName } from './wire.ts';

/** What a 2xx answer carries: a wire schema by name, nothing (204), text, a picture, or something the table does not type. */
export type Answer = WireName | 'none' | 'text' | 'image' | 'websocket' | 'untyped';

export interface ApiRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: `/api/${string}`;
  /** The request body's wire schema. */
  readonly body?: WireName;
  /** The query parameters it reads. */
  readonly query?: readonly string[];
  /** Its 2xx answers by status. */
  readonly answers: Readonly<Partial<Record<200 | 201 | 202 | 204, Answer>>>;
}

/** A game master's tool that needs the others' consent when the game master plays: done (200), or put to them first (202). */
const tool = { 200: 'GmActionResponse', 202: 'GmProposalResponse' } as const;

export const API_ROUTES = {
  // Accounts
  register: { method: 'POST', path: '/api/auth/register', body: 'RegisterRequest', answers: { 201: 'SessionInfo' } },
  login: { method: 'POST', path: '/api/auth/login', body: 'LoginRequest', answers: { 200: 'SessionInfo' } },
  logout: { method: 'POST', path: '/api/auth/logout', answers: { 204: 'none' } },
  me: { method: 'GET', path: '/api/auth/me', answers: { 200: 'WhoAmI' } },
  changePassword: { method: 'POST', path: '/api/auth/password', body: 'ChangePasswordRequest', answers: { 200: 'PasswordChanged' } },
  createToken: { method: 'POST', path: '/api/auth/tokens', body: 'CreateApiTokenRequest', answers: { 201: 'CreatedApiToken' } },
  tokens: { method: 'GET', path: '/api/auth/tokens', answers: { 200: 'ApiTokenList' } },
  revokeToken: { method: 'DELETE', path: '/api/auth/tokens/:tokenId', answers: { 204: 'none' } },
  setPreferences: { method: 'PUT', path: '/api/auth/preferences', body: 'UpdatePreferencesRequest', answers: { 200: 'Preferences' } },
  // Account mail: the address, its verification, password reset, change of address
  emailStatus: { method: 'GET', path: '/api/auth/email', answers: { 200: 'EmailStatus' } },
  changeEmail: { method: 'PUT', path: '/api/auth/email', body: 'ChangeEmailRequest', answers: { 202: 'EmailStatus' } },
  resendVerification: { method: 'POST', path: '/api/auth/email/verification', answers: { 202: 'EmailStatus' } },
  verifyEmail: { method: 'POST', path: '/api/auth/email/verify', body: 'ConfirmEmailRequest', answers: { 200: 'EmailConfirmed' } },
  requestPasswordReset: { method: 'POST', path: '/api/auth/password-reset', body: 'PasswordResetRequest', answers: { 202: 'PasswordResetAccepted' } },
  confirmPasswordReset: {
    method: 'POST',
    path: '/api/auth/password-reset/confirm',
    body: 'ConfirmPasswordResetRequest',
    answers: { 200: 'PasswordResetDone' },
  },
  profile: { method: 'GET', path: '/api/users/:username', answers: { 200: 'UserProfile' } },
  vacations: { method: 'GET', path: '/api/vacations', answers: { 200: 'VacationList' } },
  declareVacation: { method: 'POST', path: '/api/vacations', body: 'DeclareVacationRequest', answers: { 201: 'VacationList' } },
  cancelVacation: { method: 'DELETE', path: '/api/vacations/:vacationId', answers: { 200: 'VacationList' } },
  clockVotes: { method: 'GET', path: '/api/games/:gameId/clock-votes', answers: { 200: 'ClockVotes' } },
  proposeClockVote: { method: 'POST', path: '/api/games/:gameId/clock-votes', body: 'ProposeClockVoteRequest', answers: { 201: 'ClockVotes' } },
  castClockBallot: { method: 'POST', path: '/api/games/:gameId/clock-votes/:voteId/ballot', body: 'ClockBallotRequest', answers: { 200: 'ClockVotes' } },
  withdrawClockVote: { method: 'DELETE', path: '/api/games/:gameId/clock-votes/:voteId', answers: { 200: 'ClockVotes' } },
  pushKey: { method: 'GET', path: '/api/push/key', answers: { 200: 'PushKey' } },
  pushSubscriptions: { method: 'GET', path: '/api/push/subscriptions', answers: { 200: 'PushSubscriptionList' } },
  subscribePush: {
    method: 'POST',
    path: '/api/push/subscriptions',
    body: 'PushSubscriptionRequest',
    answers: { 200: 'PushSubscription', 201: 'PushSubscription' },
  },
  unsubscribePush: { method: 'DELETE', path: '/api/push/subscriptions/:subscriptionId', answers: { 204: 'none' } },
  unsubscribePushEndpoint: { method: 'DELETE', path: '/api/push/subscriptions', query: ['endpoint'], answers: { 204: 'none' } },

  // The lobby
  variants: { method: 'GET', path: '/api/variants', answers: { 200: 'VariantList' } },
  createGame: { method: 'POST', path: '/api/games', body: 'CreateGameRequest', answers: { 201: 'GameDetail' } },
  games: { method: 'GET', path: '/api/games', query: ['filter', 'variant', 'limit', 'cursor'], answers: { 200: 'GameList' } },
  game: { method: 'GET', path: '/api/games/:gameId', query: ['inviteCode'], answers: { 200: 'GameDetail' } },
  join: { method: 'POST', path: '/api/games/:gameId/join', body: 'JoinGameRequest', answers: { 200: 'GameDetail' } },
  leave: { method: 'POST', path: '/api/games/:gameId/leave', answers: { 200: 'GameDetail' } },
  start: { method: 'POST', path: '/api/games/:gameId/start', answers: { 200: 'GameDetail' } },

  // Seats offered to new players
  openSeats: { method: 'GET', path: '/api/seats/open', query: ['limit', 'cursor', 'inviteCode'], answers: { 200: 'OpenSeatList' } },
  gameSeats: { method: 'GET', path: '/api/games/:gameId/seats', query: ['inviteCode'], answers: { 200: 'GameSeatOffers' } },
  offerSeat: { method: 'POST', path: '/api/games/:gameId/seats/:power/offer', answers: { 200: 'GameSeatOffers' } },
  withdrawSeatOffer: { method: 'DELETE', path: '/api/games/:gameId/seats/:power/offer', answers: { 200: 'GameSeatOffers' } },
  requestSeat: { method: 'POST', path: '/api/games/:gameId/seats/:power/requests', body: 'TakeSeatRequest', answers: { 201: 'SeatRequestOutcome' } },
  approveSeatRequest: { method: 'POST', path: '/api/games/:gameId/seats/:power/requests/:requestId/approve', answers: { 200: 'SeatRequestOutcome' } },
  declineSeatRequest: { method: 'POST', path: '/api/games/:gameId/seats/:power/requests/:requestId/decline', answers: { 200: 'SeatRequestOutcome' } },
  withdrawSeatRequest: { method: 'DELETE', path: '/api/games/:gameId/seats/:power/requests/:requestId', answers: { 200: 'SeatRequestOutcome' } },

  // Game play
  phases: { method: 'GET', path: '/api/games/:gameId/phases', answers: { 200: 'PhaseList' } },
  currentPhase: { method: 'GET', path: '/api/games/:gameId/phases/current', answers: { 200: 'PhaseDetail' } },
  phase: { method: 'GET', path: '/api/games/:gameId/phases/:index', answers: { 200: 'PhaseDetail' } },
  myOrders: { method: 'GET', path: '/api/games/:gameId/phases/:index/orders', answers: { 200: 'MyOrders' } },
  submitOrders: { method: 'PUT', path: '/api/games/:gameId/phases/:index/orders', body: 'SubmitOrdersRequest', answers: { 200: 'SubmitOrdersResponse' } },
  setReady: { method: 'POST', path: '/api/games/:gameId/phases/:index/ready', body: 'SetReadyRequest', answers: { 200: 'ReadyResponse' } },
  press: { method: 'GET', path: '/api/games/:gameId/press', query: ['limit', 'cursor'], answers: { 200: 'PressList' } },
  sendPress: { method: 'POST', path: '/api/games/:gameId/press', body: 'SendPressRequest', answers: { 201: 'PressMessage' } },
  pressRead: { method: 'GET', path: '/api/games/:gameId/press/read', answers: { 200: 'PressReadMarks' } },
  markPressRead: { method: 'PUT', path: '/api/games/:gameId/press/read', body: 'MarkPressReadRequest', answers: { 200: 'PressReadMarks' } },
  loans: { method: 'GET', path: '/api/games/:gameId/loans', answers: { 200: 'LoanList' } },
  lend: { method: 'POST', path: '/api/games/:gameId/loans', body: 'CreateLoanRequest', answers: { 201: 'LoanRecord' } },
  endLoan: { method: 'POST', path: '/api/games/:gameId/loans/:loanId/end', answers: { 200: 'LoanRecord' } },
  votes: { method: 'GET', path: '/api/games/:gameId/votes', answers: { 200: 'Votes' } },
  vote: { method: 'POST', path: '/api/games/:gameId/votes', body: 'CastVoteRequest', answers: { 200: 'Votes' } },
  withdrawVote: { method: 'DELETE', path: '/api/games/:gameId/votes/:kind', answers: { 200: 'Votes' } },

  // The game master
  gmLog: { method: 'GET', path: '/api/games/:gameId/gm/log', answers: { 200: 'GmLog' } },
  processNow: { method: 'POST', path: '/api/games/:gameId/gm/process', answers: tool },
  changeDeadline: { method: 'POST', path: '/api/games/:gameId/gm/deadline', body: 'ChangeDeadlineRequest', answers: { 200: 'GmActionResponse' } },
  pause: { method: 'POST', path: '/api/games/:gameId/gm/pause', answers: { 200: 'GmActionResponse' } },
  resume: { method: 'POST', path: '/api/games/:gameId/gm/resume', answers: { 200: 'GmActionResponse' } },
  replacePlayer: { method: 'POST', path: '/api/games/:gameId/gm/replace', body: 'ReplacePlayerRequest', answers: tool },
  civilDisorder: { method: 'POST', path: '/api/games/:gameId/gm/civil-disorder', body: 'PowerRequest', answers: tool },
  rollback: { method: 'POST', path: '/api/games/:gameId/gm/rollback', body: 'RollbackRequest', answers: tool },
  endGame: { method: 'POST', path: '/api/games/:gameId/gm/end', body: 'EndGameRequest', answers: tool },
  finalize: { method: 'POST', path: '/api/games/:gameId/gm/finalize', answers: tool },
  inviteGameMaster: { method: 'POST', path: '/api/games/:gameId/gm/invite', body: 'InviteGameMasterRequest', answers: tool },
  enterOrders: {
    method: 'PUT',
    path: '/api/games/:gameId/gm/phases/:index/orders/:power',
    body: 'SubmitOrdersRequest',
    answers: { 200: 'SubmitOrdersResponse' },
  },
  proposals: { method: 'GET', path: '/api/games/:gameId/gm/proposals', answers: { 200: 'GmProposalList' } },
  answerProposal: {
    method: 'POST',
    path: '/api/games/:gameId/gm/proposals/:proposalId/answer',
    body: 'AnswerProposalRequest',
    answers: { 200: 'ProposalAnswered' },
  },
  withdrawProposal: { method: 'DELETE', path: '/api/games/:gameId/gm/proposals/:proposalId', answers: { 200: 'GmProposalResponse' } },
  acceptInvitation: { method: 'POST', path: '/api/games/:gameId/gm/invitation/accept', answers: { 200: 'GmActionResponse' } },
  dropInvitation: { method: 'DELETE', path: '/api/games/:gameId/gm/invitation', answers: { 204: 'none' } },

  // The archive
  exportGame: { method: 'GET', path: '/api/games/:gameId/export', answers: { 200: 'ExportedGame' } },
  exportDatc: { method: 'GET', path: '/api/games/:gameId/export/datc', answers: { 200: 'text' } },
  importGame: { method: 'POST', path: '/api/games/import', body: 'ImportGameRequest', answers: { 201: 'GameDetail' } },

  // Naval battles
  battleRulesets: { method: 'GET', path: '/api/battle-rulesets', answers: { 200: 'BattleRulesetList' } },
  createBattle: { method: 'POST', path: '/api/battles', body: 'CreateBattleRequest', answers: { 201: 'BattleDetail' } },
  battles: { method: 'GET', path: '/api/battles', query: ['filter', 'ruleset', 'limit', 'cursor'], answers: { 200: 'BattleList' } },
  battle: { method: 'GET', path: '/api/battles/:battleId', query: ['inviteCode', 'legalActions'], answers: { 200: 'BattleDetail' } },
  joinBattle: { method: 'POST', path: '/api/battles/:battleId/join', body: 'JoinBattleRequest', answers: { 200: 'BattleDetail' } },
  leaveBattle: { method: 'POST', path: '/api/battles/:battleId/leave', answers: { 200: 'BattleDetail' } },
  cancelBattle: { method: 'POST', path: '/api/battles/:battleId/cancel', answers: { 200: 'BattleDetail' } },
  battleLog: { method: 'GET', path: '/api/battles/:battleId/log', query: ['after', 'limit', 'inviteCode'], answers: { 200: 'BattleLog' } },
  battleAct: { method: 'POST', path: '/api/battles/:battleId/actions', body: 'BattleActionRequest', answers: { 200: 'BattleDetail' } },
  battleNotes: { method: 'GET', path: '/api/battles/:battleId/notes', answers: { 200: 'BattleNotes' } },
  addBattleNote: { method: 'POST', path: '/api/battles/:battleId/notes', body: 'BattleNoteRequest', answers: { 201: 'BattleNote' } },
  exportBattle: { method: 'GET', path: '/api/battles/:battleId/export', query: ['inviteCode'], answers: { 200: 'ExportedBattle' } },
  verifyBattle: { method: 'GET', path: '/api/battles/:battleId/verification', answers: { 200: 'BattleVerification' } },
  importBattle: { method: 'POST', path: '/api/battles/import', body: 'ImportBattleRequest', answers: { 201: 'BattleDetail' } },
  // Campaign play: a game's contested seas (shared/api/campaign.ts)
  setCampaign: { method: 'PUT', path: '/api/games/:gameId/campaign', body: 'CampaignSettings', answers: { 200: 'GameDetail' } },
  seaBattles: { method: 'GET', path: '/api/games/:gameId/phases/:index/seas', answers: { 200: 'SeaBattleList' } },
  setSeaSides: { method: 'PUT', path: '/api/games/:gameId/phases/:index/seas/:sea/sides', body: 'SeaSidesRequest', answers: { 200: 'SeaBattle' } },
  decideSea: { method: 'POST', path: '/api/games/:gameId/phases/:index/seas/:sea/decide', body: 'DecideSeaRequest', answers: { 200: 'SeaBattle' } },
  waiveSea: { method: 'POST', path: '/api/games/:gameId/phases/:index/seas/:sea/waive', answers: { 200: 'SeaBattle' } },
  fightSea: { method: 'POST', path: '/api/games/:gameId/phases/:index/seas/:sea/battle', body: 'FightSeaRequest', answers: { 200: 'SeaBattle' } },
  autoResolveSea: { method: 'POST', path: '/api/games/:gameId/phases/:index/seas/:sea/auto-resolve', answers: { 200: 'SeaBattle' } },
  estimateSeaOdds: { method: 'POST', path: '/api/games/:gameId/phases/:index/seas/:sea/odds', answers: { 202: 'SeaBattle' } },
  abandonSea: { method: 'POST', path: '/api/games/:gameId/phases/:index/seas/:sea/abandon', answers: { 200: 'SeaBattle' } },
  agreeToAutoResolve: { method: 'POST', path: '/api/games/:gameId/phases/:index/seas/:sea/agreement', answers: { 200: 'SeaBattle' } },
  withdrawAgreement: { method: 'DELETE', path: '/api/games/:gameId/phases/:index/seas/:sea/agreement', answers: { 200: 'SeaBattle' } },

  // A game's webhooks (its game master's setting)
  webhooks: { method: 'GET', path: '/api/games/:gameId/webhooks', answers: { 200: 'WebhookList' } },
  createWebhook: { method: 'POST', path: '/api/games/:gameId/webhooks', body: 'CreateWebhookRequest', answers: { 201: 'CreatedWebhook' } },
  deleteWebhook: { method: 'DELETE', path: '/api/games/:gameId/webhooks/:webhookId', answers: { 204: 'none' } },
  enableWebhook: { method: 'POST', path: '/api/games/:gameId/webhooks/:webhookId/enable', answers: { 200: 'Webhook' } },
  testWebhook: { method: 'POST', path: '/api/games/:gameId/webhooks/:webhookId/test', answers: { 200: 'WebhookTestResult' } },

  // The map as a picture: the current position, or any phase (its orders drawn once processed)
  mapSvg: { method: 'GET', path: '/api/games/:gameId/map.svg', answers: { 200: 'image' } },
  mapPng: { method: 'GET', path: '/api/games/:gameId/map.png', answers: { 200: 'image' } },
  phaseMapSvg: { method: 'GET', path: '/api/games/:gameId/phases/:index/map.svg', answers: { 200: 'image' } },
  phaseMapPng: { method: 'GET', path: '/api/games/:gameId/phases/:index/map.png', answers: { 200: 'image' } },

  // The calendar feed
  calendarFeed: { method: 'GET', path: '/api/calendar/:token.ics', answers: { 200: 'text' } },
  calendarToken: { method: 'GET', path: '/api/calendar/token', answers: { 200: 'CalendarFeed' } },
  createCalendarToken: { method: 'POST', path: '/api/calendar/token', answers: { 200: 'CalendarFeed' } },
  deleteCalendarToken: { method: 'DELETE', path: '/api/calendar/token', answers: { 204: 'none' } },

  // Notification choices, and the one-click unsubscribe link of game mail
  notificationSettings: { method: 'GET', path: '/api/notifications/settings', answers: { 200: 'NotificationChoices' } },
  setNotificationSettings: { method: 'PUT', path: '/api/notifications/settings', body: 'NotificationSettings', answers: { 200: 'NotificationChoices' } },
  gameNotifications: { method: 'GET', path: '/api/games/:gameId/notifications', answers: { 200: 'NotificationChoices' } },
  setGameNotifications: { method: 'PUT', path: '/api/games/:gameId/notifications', body: 'NotificationSettings', answers: { 200: 'NotificationChoices' } },
  unsubscribePage: { method: 'GET', path: '/api/notifications/unsubscribe', query: ['token', 'done'], answers: { 200: 'text' } },
  unsubscribe: { method: 'POST', path: '/api/notifications/unsubscribe', query: ['token'], answers: { 200: 'UnsubscribeResult' } },

  // The site
  audit: { method: 'GET', path: '/api/admin/audit', query: ['limit', 'cursor'], answers: { 200: 'AuditLog' } },
  live: { method: 'GET', path: '/api/live', answers: { 200: 'websocket' } },
  health: { method: 'GET', path: '/api/health', answers: { 200: 'untyped' } },
} as const satisfies Record<string, ApiRoute>;

export type RouteName = keyof typeof API_ROUTES;

/** The path parameters of a path: `/api/games/:gameId/phases/:index` → `{ gameId; index }`. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string | number } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string | number }
    : Record<never, never>;

/** A route's path with its parameters filled in (each URI-encoded). */
export function pathOf<N extends RouteName>(name: N, params: PathParams<(typeof API_ROUTES)[N]['path']>): string {
  const values = params as Record<string, string | number>;
  return API_ROUTES[name].path.replace(/:(\w+)/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`${name}: no value for :${key}`);
    return encodeURIComponent(String(values[key]));
  });
}
