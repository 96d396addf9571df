/**
 * A Classis battle as it stands: every ship (where, which way, crippled, captured, sunk), the contacts and
 * grapples between ships, the chit cup, the squadron activated and its initiative points left, and the outcome.
 * Plain JSON, checked by its schema; the helpers below read a ship's factors as its state makes them.
 */
import { z } from 'zod';
import { type Facing, FacingSchema, HexSchema, type Hex, hexKey } from '../hex.ts';
import { SeaSchema } from '../sea.ts';
import { AspectSchema, CrewSchema, RULES, type Crew, type ShipType, crewAt, crewLevel, enginePointsPerEngine, shipType } from './rules.ts';

const Id = z.string().min(1).max(40);
/** A facing, 0 to 5, typed as one (the framework's schema checks the range). */
export const FacingField = FacingSchema as unknown as z.ZodType<Facing>;
const MAX_SHIPS = 2 * 8 * RULES.squadronShips.max;

export const ShipStateSchema = z
  .object({
    id: Id,
    name: z.string().max(60),
    type: z.string().max(40),
    /** The side that holds it now (the captor's, once captured). */
    side: Id,
    originalSide: Id,
    squadron: Id,
    originalSquadron: Id,
    hex: HexSchema,
    facing: FacingField,
    /** Its crew before any cripple or capture. */
    crew: CrewSchema,
    towers: z.number().int().min(0).max(2),
    engines: z.number().int().min(0).max(2),
    ironHands: z.boolean(),
    crippled: z.boolean(),
    /** A repair rolled 2: crippled for good, no more repairs. */
    permanentlyCrippled: z.boolean(),
    /** Ever captured: its speed, turning, crew and marines stay reduced even when recaptured. */
    captured: z.boolean(),
    sunk: z.boolean(),
  })
  .strict();
export type ShipState = z.infer<typeof ShipStateSchema>;

export const SquadronStateSchema = z
  .object({
    id: Id,
    side: Id,
    name: z.string().max(60),
    commander: z.string().max(60),
    rating: z.number().int().min(1).max(6),
    flagship: Id,
  })
  .strict();
export type SquadronState = z.infer<typeof SquadronStateSchema>;

/** One ship's bow in another's hex (3.1.4); after a ram it records the ram, which follow-up rams repeat. */
export const ContactSchema = z
  .object({
    attacker: Id,
    target: Id,
    ram: z
      .object({ turn: z.number().int().min(1), aspect: AspectSchema })
      .strict()
      .nullable(),
  })
  .strict();
export type Contact = z.infer<typeof ContactSchema>;

export const GrappleSchema = z.object({ a: Id, b: Id }).strict();
export type Grapple = z.infer<typeof GrappleSchema>;

export const ChitSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('squadron'), squadron: Id }).strict(),
  z.object({ kind: z.literal('end-of-turn') }).strict(),
  z.object({ kind: z.literal('morale'), side: Id }).strict(),
]);
export type Chit = z.infer<typeof ChitSchema>;

export const ACTION_KINDS = ['move', 'backwater', 'ram', 'follow-up-ram', 'rake', 'grapple', 'degrapple', 'board', 'repair'] as const;
export const ActionKindSchema = z.enum(ACTION_KINDS);
export type ActionKind = z.infer<typeof ActionKindSchema>;

export const ActivationSchema = z
  .object({
    squadron: Id,
    points: z.number().int().min(0).max(20),
    /** What each ship has done this activation: no ship repeats an action (3.2.11). */
    used: z.record(Id, z.array(ActionKindSchema).max(ACTION_KINDS.length)),
  })
  .strict();
export type Activation = z.infer<typeof ActivationSchema>;

export const StateSchema = z
  .object({
    ruleset: z.literal('classis'),
    title: z.string().max(120),
    sea: SeaSchema,
    /** The facing the wind blows from, if rolled or given; it has no effect in Classis. */
    wind: FacingField.nullable(),
    turn: z.number().int().min(1),
    turnLimit: z.number().int().min(1).max(200),
    sides: z.array(z.object({ id: Id, name: z.string().max(60), admiralSquadron: Id }).strict()).length(2),
    squadrons: z.array(SquadronStateSchema).max(16),
    ships: z.array(ShipStateSchema).max(MAX_SHIPS),
    contacts: z.array(ContactSchema).max(MAX_SHIPS * 6),
    grapples: z.array(GrappleSchema).max(MAX_SHIPS * 6),
    /** The chits still in the cup this turn, in a fixed order: a draw is a die of as many faces. */
    cup: z.array(ChitSchema).max(200),
    /** Sides that have lost a ship: each has a morale check chit from the next turn on. */
    moraleChits: z.array(Id).max(2),
    activation: ActivationSchema.nullable(),
    outcome: z
      .object({ winner: Id.nullable(), reason: z.string().max(300) })
      .strict()
      .nullable(),
  })
  .strict();
export type State = z.infer<typeof StateSchema>;

// ── Reading a ship ──────────────────────────────────────────────────────────

export function typeOf(ship: ShipState): ShipType {
  const t = shipType(ship.type);
  if (!t) throw new Error(`unknown ship type ${ship.type}`);
  return t;
}

export const shipById = (s: State, id: string): ShipState | undefined => s.ships.find((x) => x.id === id);
export const squadronById = (s: State, id: string): SquadronState | undefined => s.squadrons.find((x) => x.id === id);

/** Whether the ship is in enemy hands (captured and not recaptured). */
export const heldByEnemy = (ship: ShipState): boolean => ship.side !== ship.originalSide;

export const afloat = (ship: ShipState): boolean => !ship.sunk;

/** Speed and turning: 1 when crippled (3.1.6) or ever captured (3.1.7). */
export function speedOf(ship: ShipState): number {
  return ship.crippled || ship.captured ? 1 : typeOf(ship).speed;
}
export function turningOf(ship: ShipState): number {
  return ship.crippled || ship.captured ? 1 : typeOf(ship).turning;
}

/** Current boarding factor: 0 once captured; halved (rounded down, at least 1) while crippled. */
export function boardingOf(ship: ShipState): number {
  if (ship.captured) return 0;
  const b = typeOf(ship).boarding;
  return ship.crippled ? Math.max(1, Math.floor(b / 2)) : b;
}

/** Crew now: Green once captured; one level down while crippled. */
export function crewOf(ship: ShipState): Crew {
  if (ship.captured) return 'green';
  return crewAt(crewLevel(ship.crew) - (ship.crippled ? 1 : 0));
}

/** Tower points: a captured ship has lost the marines who man them. */
export const towerPointsOf = (ship: ShipState): number => (ship.captured ? 0 : ship.towers * RULES.towerPoints);

export const enginePointsOf = (ship: ShipState): number => (ship.captured ? 0 : ship.engines * enginePointsPerEngine(typeOf(ship)));

/** Levels of crew quality by which `a` is better than `b` (0 if not better). */
export const crewEdge = (a: ShipState, b: ShipState): number => Math.max(0, crewLevel(crewOf(a)) - crewLevel(crewOf(b)));

export const label = (ship: ShipState): string => `${typeOf(ship).name} ${ship.name}`;

// ── Relations between ships ─────────────────────────────────────────────────

export const contactsOf = (s: State, id: string): Contact[] => s.contacts.filter((c) => c.attacker === id || c.target === id);
export const grapplesOf = (s: State, id: string): Grapple[] => s.grapples.filter((g) => g.a === id || g.b === id);
export const isGrappled = (s: State, id: string): boolean => s.grapples.some((g) => g.a === id || g.b === id);
export const grappledTogether = (s: State, a: string, b: string): boolean => s.grapples.some((g) => (g.a === a && g.b === b) || (g.a === b && g.b === a));
/** In a ram's contact (either ship): it can only break off by backing water (3.2.2). */
export const inRamContact = (s: State, id: string): boolean => s.contacts.some((c) => c.ram !== null && (c.attacker === id || c.target === id));
/** Engaged: in contact with an enemy or grappled (3.1.4). */
export const engaged = (s: State, id: string): boolean => contactsOf(s, id).length > 0 || isGrappled(s, id);

/** Where ships are: hex key to ship, afloat ones only. */
export function occupancy(s: State): Map<string, ShipState> {
  const m = new Map<string, ShipState>();
  for (const ship of s.ships) if (!ship.sunk) m.set(hexKey(ship.hex), ship);
  return m;
}

export const enemies = (a: ShipState, b: ShipState): boolean => a.side !== b.side;

export function otherSide(s: State, side: string): string {
  return s.sides[0].id === side ? s.sides[1].id : s.sides[0].id;
}

export function sideName(s: State, side: string): string {
  return s.sides.find((x) => x.id === side)?.name ?? side;
}

// ── Command (1.5) ──────────────────────────────────────────────────────────

/** The squadron's flagship still carries its commander: afloat and never captured. */
export function commanderAboard(s: State, squadron: SquadronState): ShipState | undefined {
  const flag = shipById(s, squadron.flagship);
  return flag && !flag.sunk && !flag.captured ? flag : undefined;
}

/** In command: within its commander's radius of the flagship, while the flagship is not engaged. */
export function inCommand(s: State, ship: ShipState): boolean {
  const sq = squadronById(s, ship.squadron);
  if (!sq || sq.side !== ship.side) return false;
  const flag = commanderAboard(s, sq);
  if (!flag || flag.side !== sq.side || engaged(s, flag.id)) return false;
  const dq = ship.hex.q - flag.hex.q;
  const dr = ship.hex.r - flag.hex.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2 <= sq.rating;
}

/** Ships that act when `squadron` is activated: its own afloat ships (prizes it took included). */
export function squadronShips(s: State, squadron: string): ShipState[] {
  const sq = squadronById(s, squadron);
  if (!sq) return [];
  return s.ships.filter((x) => !x.sunk && x.squadron === squadron && x.side === sq.side);
}

// ── Losses (4) ─────────────────────────────────────────────────────────────

export interface Losses {
  ships: number;
  totalShips: number;
  ram: number;
  totalRam: number;
}

/** A side's losses: its ships sunk or in enemy hands, and their original ramming factors. */
export function lossesOf(s: State, side: string): Losses {
  const own = s.ships.filter((x) => x.originalSide === side);
  const lost = own.filter((x) => x.sunk || heldByEnemy(x));
  const ram = (list: ShipState[]) => list.reduce((n, x) => n + typeOf(x).ram, 0);
  return { ships: lost.length, totalShips: own.length, ram: ram(lost), totalRam: ram(own) };
}

export function admiralLost(s: State, side: string): boolean {
  const sideState = s.sides.find((x) => x.id === side);
  const sq = sideState && squadronById(s, sideState.admiralSquadron);
  return !sq || commanderAboard(s, sq) === undefined || heldByEnemy(shipById(s, sq.flagship)!);
}

export type { Facing, Hex };
