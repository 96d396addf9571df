/**
 * The game master's tables: the audit log (`game_master_actions.details`, what an action did: powers, phases,
 * deadlines, and user names under `users`) and the requests put to the players (`gm_proposals.request`, the tool's
 * request as the game master sent it). Both are JSON objects whatever the action: read as the wire's records of
 * JSON values.
 */
import { z } from 'zod';
import type { Prisma } from '../database.ts';
import { parser, storedRows, storedValues, type Parsed } from './stored.ts';

/** A JSON object: what a log entry's details and a request are. */
export const JsonObjectSchema = z.record(z.string(), z.json());
export type JsonObject = z.output<typeof JsonObjectSchema>;

const actionColumns = { details: parser(JsonObjectSchema) };
const proposalColumns = { request: parser(JsonObjectSchema) };

/** A row of `game_master_actions` (any selection with its id), its details parsed. */
export const gmActionOf = storedRows('game_master_actions', actionColumns);
// Written as built (a JSON object, which may leave out a field: `undefined`), read as stored.
export const gmActionValues = storedValues<{ details: Prisma.InputJsonObject }>();

/** A row of `gm_proposals`, its request parsed. */
export const gmProposalOf = storedRows('gm_proposals', proposalColumns);
export const gmProposalValues = storedValues<{ request: Prisma.InputJsonObject }>();

export type GmActionRow = Parsed<Prisma.GameMasterActionGetPayload<{ include: { actor: { select: { id: true; username: true } } } }>, typeof actionColumns>;
export type GmProposalRow = Parsed<Prisma.GmProposalGetPayload<object>, typeof proposalColumns>;
