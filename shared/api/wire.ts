/**
 * The wire schemas the route table (routes.ts) names, by the name the OpenAPI document gives each: what a route's
 * body and answers are, as types for the client (`import type`, so no zod reaches its scripts) and as schemas for
 * the test that checks the table against the server (tests/server/api-routes.test.ts checks each name here is the
 * schema's own id).
 */
import type { z } from 'zod';
import {
  AnswerProposalRequestSchema, ApiTokenListSchema, AuditLogSchema, CastVoteRequestSchema, ChangeDeadlineRequestSchema, ChangePasswordRequestSchema, CreateApiTokenRequestSchema, CreateGameRequestSchema, CreateLoanRequestSchema, CreatedApiTokenSchema, EndGameRequestSchema, ExportedGameSchema, GameDetailSchema, GameListSchema, GmActionResponseSchema, GmLogSchema, GmProposalListSchema, GmProposalResponseSchema, ImportGameRequestSchema, InviteGameMasterRequestSchema, JoinGameRequestSchema, LoanListSchema, LoanRecordSchema, LoginRequestSchema, MyOrdersSchema, PasswordChangedSchema, PhaseDetailSchema, PhaseListSchema, PowerRequestSchema, PressListSchema, PressMessageSchema, ProposalAnsweredSchema, ReadyResponseSchema, RegisterRequestSchema, ReplacePlayerRequestSchema, RollbackRequestSchema, SendPressRequestSchema, SessionInfoSchema, SetReadyRequestSchema, SubmitOrdersRequestSchema, SubmitOrdersResponseSchema, UserProfileSchema, VariantListSchema, VotesSchema, WhoAmISchema,
} from './index.ts';

export const WIRE_SCHEMAS = {
  SessionInfo: SessionInfoSchema,
  WhoAmI: WhoAmISchema,
  PasswordChanged: PasswordChangedSchema,
  CreatedApiToken: CreatedApiTokenSchema,
  ApiTokenList: ApiTokenListSchema,
  VariantList: VariantListSchema,
  GameDetail: GameDetailSchema,
  GameList: GameListSchema,
  PhaseList: PhaseListSchema,
  PhaseDetail: PhaseDetailSchema,
  MyOrders: MyOrdersSchema,
  SubmitOrdersResponse: SubmitOrdersResponseSchema,
  ReadyResponse: ReadyResponseSchema,
  PressList: PressListSchema,
  PressMessage: PressMessageSchema,
  LoanList: LoanListSchema,
  LoanRecord: LoanRecordSchema,
  Votes: VotesSchema,
  GmLog: GmLogSchema,
  GmActionResponse: GmActionResponseSchema,
  GmProposalResponse: GmProposalResponseSchema,
  GmProposalList: GmProposalListSchema,
  ProposalAnswered: ProposalAnsweredSchema,
  ExportedGame: ExportedGameSchema,
  AuditLog: AuditLogSchema,
  UserProfile: UserProfileSchema,
  RegisterRequest: RegisterRequestSchema,
  LoginRequest: LoginRequestSchema,
  ChangePasswordRequest: ChangePasswordRequestSchema,
  CreateApiTokenRequest: CreateApiTokenRequestSchema,
  CreateGameRequest: CreateGameRequestSchema,
  JoinGameRequest: JoinGameRequestSchema,
  SubmitOrdersRequest: SubmitOrdersRequestSchema,
  SetReadyRequest: SetReadyRequestSchema,
  SendPressRequest: SendPressRequestSchema,
  CreateLoanRequest: CreateLoanRequestSchema,
  CastVoteRequest: CastVoteRequestSchema,
  ChangeDeadlineRequest: ChangeDeadlineRequestSchema,
  ReplacePlayerRequest: ReplacePlayerRequestSchema,
  PowerRequest: PowerRequestSchema,
  RollbackRequest: RollbackRequestSchema,
  EndGameRequest: EndGameRequestSchema,
  InviteGameMasterRequest: InviteGameMasterRequestSchema,
  AnswerProposalRequest: AnswerProposalRequestSchema,
  ImportGameRequest: ImportGameRequestSchema,
} as const;

export type WireName = keyof typeof WIRE_SCHEMAS;
/** What a wire schema carries as the server sends it (answers). */
export type WireOutput<N extends WireName> = z.output<(typeof WIRE_SCHEMAS)[N]>;
/** What a wire schema accepts as a client writes it (request bodies, before defaults). */
export type WireInput<N extends WireName> = z.input<(typeof WIRE_SCHEMAS)[N]>;
