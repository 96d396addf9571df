/** A ship-to-ship battle's state: plain JSON, checked by its schema when stored or loaded. */
import { z } from 'zod';
import { HexSchema } from '../hex.ts';
import { SeaSchema } from '../sea.ts';
import { FacingField } from './facing.ts';
import { CREW_QUALITIES, type CrewQuality, type MarineClass, NATIONS, RULES, type Rules, SHIP_TYPES } from './rules.ts';
import { MAX_SHIPS, MAX_SIDES } from './setup.ts';

const id = z.string().min(1).max(40);
const count = z.number().int().min(0).max(100);

export const MarinesSchema = z.object({ light: count, medium: count, heavy: count }).strict();
export type Marines = z.infer<typeof MarinesSchema>;

/** One ship's orders for a turn, secret until every side has plotted. */
export const ShipPlotSchema = z
  .object({
    ship: id,
    /**
     * The turn's move, one letter a hex: F ahead, L or R turn 60° and go ahead, or B one hex astern. Its length
     * is the speed declared for the turn ("" stays put).
     */
    steps: z.string().regex(/^([FLR]{0,6}|B)$/, 'F, L and R (at most 6), or B alone'),
    /** A turn in place before moving, in hexsides (+ clockwise), only when the ship may pivot (after a ram or a fight). */
    pivot: z.number().int().min(-2).max(3).default(0),
    /** When its weapons shoot: at the first chance, holding for short range (or the last phase), or not at all. */
    fire: z.enum(['first', 'close', 'hold']).default('first'),
    /** Enemy ships to shoot at first, in order; others in range after them, nearest first. */
    targets: z.array(id).max(8).default([]),
    /** Whether it tries to grapple and board a ship it meets in a ram. */
    board: z.boolean().default(false),
    /** Whether it rakes oars instead of ramming, when it wins the ram with a better crew. */
    rake: z.boolean().default(false),
  })
  .strict();
export type ShipPlot = z.infer<typeof ShipPlotSchema>;

export const ShipStateSchema = z
  .object({
    id,
    name: z.string().max(40),
    side: id,
    type: z.enum(SHIP_TYPES),
    nation: z.enum(NATIONS),
    crew: z.enum(CREW_QUALITIES),
    corvus: z.boolean(),
    hex: HexSchema,
    facing: FacingField,
    status: z.enum(['afloat', 'sunk', 'surrendered']),
    /** The speed it ended last turn at (-1: went astern, 0: stopped), which this turn's acceleration counts from. */
    speed: z.number().int().min(-1).max(6),
    /** Declared maximum speed last turn (for the ram bonus). */
    wentMax: z.boolean(),
    maxTurnsUsed: z.number().int().min(0).max(100),
    /** Hexes gone straight ahead since its last turn (against the turning circle). */
    sinceTurn: z.number().int().min(0).max(100),
    damage: z.number().int().min(0).max(200),
    holes: z.number().int().min(0).max(100),
    plugged: z.number().int().min(0).max(100),
    marines: MarinesSchema,
    bows: count,
    catapults: count,
    stoneThrowers: count,
    /** Times its oars were raked. */
    raked: z.number().int().min(0).max(20),
    /** The ships that raked it: it may never board them. */
    rakedBy: z.array(id).max(MAX_SHIPS),
    /** What the last turn's rams leave it to do: back off one hex, or move off after backing. */
    afterRam: z.enum(['none', 'must-back', 'backed-off']),
    /** A turn in place it may make before moving this turn: none, one hexside, or any. */
    pivot: z.enum(['none', 'one', 'any']),
    /** The side that took it, when surrendered. */
    takenBy: id.nullable(),
  })
  .strict();
export type ShipState = z.infer<typeof ShipStateSchema>;

/** Two ships grappled: the attacker's marines fight the defender's one round a turn. */
export const FightSchema = z.object({ attacker: id, defender: id, rounds: z.number().int().min(0).max(1000) }).strict();
export type Fight = z.infer<typeof FightSchema>;

export const StateSchema = z
  .object({
    title: z.string().max(120),
    sides: z
      .array(z.object({ id, name: z.string().max(60) }).strict())
      .min(2)
      .max(MAX_SIDES),
    sea: SeaSchema,
    turn: z.number().int().min(1).max(1000),
    turnLimit: z.number().int().min(1).max(1000),
    breakBelow: z.number().min(0).max(1),
    stage: z.enum(['plot', 'repulse', 'over']),
    ships: z.array(ShipStateSchema).max(MAX_SHIPS),
    wrecks: z.array(HexSchema).max(MAX_SHIPS),
    fights: z.array(FightSchema).max(MAX_SHIPS),
    /** Fights whose defender threw the boarders back and must choose: cut the grapples or counter-board. */
    repulses: z.array(FightSchema).max(MAX_SHIPS),
    /** The plots handed in this turn, by side; secret to the other sides until the turn resolves. */
    plots: z.record(id, z.array(ShipPlotSchema).max(MAX_SHIPS)),
    /** The sides that have plotted this turn (public: whom the turn waits for). */
    plotted: z.array(id).max(MAX_SIDES),
    /** Each side's hull at the start, against which its losses are counted. */
    startHull: z.record(id, z.number().int().min(0).max(10_000)),
    /** Dice rolled so far, numbering the rolls when the dice handed in do not number them. */
    rolls: z.number().int().min(0),
    outcome: z
      .object({ winner: id.nullable(), reason: z.string().max(400) })
      .strict()
      .nullable(),
  })
  .strict();
export type State = z.infer<typeof StateSchema>;

/** What a ship can do now, from its type, nation, crew and what has happened to it. */
export interface ShipStats {
  readonly name: string;
  readonly hull: number;
  readonly ramModifier: number;
  readonly cruisingSpeed: number;
  /** Its maximum speed with its crew, or its cruising speed once raked. */
  readonly maxSpeed: number;
  readonly turningCircle: number;
  readonly maxAcceleration: number;
  readonly rank: number;
}

export function statsOf(ship: Pick<ShipState, 'type' | 'crew' | 'raked'>, rules: Rules = RULES): ShipStats {
  const t = rules.shipTypes[ship.type];
  const q = rules.crewQualities[ship.crew];
  const cruisingSpeed = Math.max(1, t.cruisingSpeed - ship.raked);
  return {
    name: t.name,
    hull: t.hull,
    ramModifier: t.ramModifier,
    cruisingSpeed,
    maxSpeed: ship.raked > 0 ? cruisingSpeed : t.maxSpeed + q.maxSpeed,
    turningCircle: Math.max(0, t.turningCircle + q.turningCircle + ship.raked),
    maxAcceleration: Math.max(1, t.maxAcceleration + q.maxAcceleration),
    rank: q.rank,
  };
}

export const rankOf = (crew: CrewQuality, rules: Rules = RULES): number => rules.crewQualities[crew].rank;

export const marineCount = (m: Marines): number => m.light + m.medium + m.heavy;

/** Marine classes lightest first: casualties fall on them in this order. */
export const LIGHTEST_FIRST: readonly MarineClass[] = ['light', 'medium', 'heavy'];

export const shipById = (state: State, shipId: string): ShipState | undefined => state.ships.find((s) => s.id === shipId);

export const fightOf = (state: State, shipId: string): Fight | undefined =>
  state.fights.find((f) => f.attacker === shipId || f.defender === shipId) ?? state.repulses.find((f) => f.attacker === shipId || f.defender === shipId);

/** A ship still fighting: afloat and not taken. */
export const active = (s: ShipState): boolean => s.status === 'afloat';
