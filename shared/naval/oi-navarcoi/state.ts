/** An Oi Navarcoi! battle's state (plain JSON) and the small questions asked of it everywhere. */
import { z } from 'zod';
import type { Base } from '../table/base.ts';
import { EDGES, STANDINGS, type Table, TerrainSchema } from '../table/table.ts';
import { bodyOf, standsOf } from './layout.ts';
import { FORMATIONS, MORALES, QUALITIES, RULES, SHIPS } from './rules.ts';
import { SCENARIO_KINDS, SideSetupSchema } from './setup.ts';

const id = z.string().min(1).max(40);
const coordinate = z.number().finite().min(-400).max(600);
const heading = z.number().finite().min(0).lt(360);
const BaseRecord = z.object({ x: coordinate, y: coordinate, heading, width: z.number().positive(), length: z.number().positive() }).strict();

export const SQUADRON_STATUSES = [
  /** At anchor on the beach (Bottled up), not yet launched. */
  'anchored',
  'afloat',
  'routing',
  /** Chasing the routed squadron it beat. */
  'pursuing',
  /** Racing an enemy round the flank after a periplous both sides carried out. */
  'racing',
  /** Off the table in a periplous race, until one of the two comes back. */
  'chasing',
  /** Off the table: routed out, lost in a chase, or (freighters) safely away. */
  'gone',
  /** Every stand lost in melee. */
  'destroyed',
] as const;
export type SquadronStatus = (typeof SQUADRON_STATUSES)[number];

export const SquadronSchema = z
  .object({
    id,
    name: z.string(),
    side: id,
    quality: z.enum(QUALITIES),
    morale: z.enum(MORALES),
    ships: z.enum(SHIPS),
    strategos: z.boolean(),
    freighters: z.boolean(),
    formation: z.enum(FORMATIONS),
    x: coordinate,
    y: coordinate,
    heading,
    /** Stands left, in half stands. */
    halves: z.number().int().min(0).max(16),
    startHalves: z.number().int().min(1).max(16),
    disordered: z.boolean(),
    status: z.enum(SQUADRON_STATUSES),
    /** Enemies it is in melee with. */
    engaged: z.array(id),
    /** Flanked or taken in the rear (or unformed) when its melee began: fails its first battle test, Katastrophe. */
    katastrophe: z.boolean(),
    /** Fails its next battle test without rolling. */
    autoFail: z.boolean(),
    /** Attacked a flank or rear this turn: no formation differential, no harm from its own first battle test. */
    flankAttacker: z.boolean(),
    /** Failed a battle test: tests morale in the morale phase. */
    testMorale: z.boolean(),
    /** Has moved (or been given its move) in this movement phase. */
    moved: z.boolean(),
    /** Stayed still this movement phase (and not in melee): rallies from disorder at the end of the turn. */
    stationary: z.boolean(),
    /** Caught in column by a frontal melee: forms line against the enemy next movement phase. */
    mustFormLine: z.boolean(),
    /** Launched this turn (Bottled up): one full move straight offshore. */
    launched: z.boolean(),
    /** The enemy it pursues, or the squadron it races. */
    target: id.nullable(),
    /** Where it went off the table, or the land it fled onto. */
    exit: z.string().nullable(),
    /** Signals written down for it before the battle. */
    signals: z.array(z.number().int().min(1).max(5)).max(5),
    /** The signal it obeys this turn, once given. */
    signalled: z.number().int().min(1).max(5).nullable(),
    /** Periplous race: test again in this turn's melee phase; the distance if it must repeat. */
    raceTest: z.boolean(),
  })
  .strict();
export type Squadron = z.infer<typeof SquadronSchema>;

export const SideStateSchema = SideSetupSchema.extend({
  /** Signals it may still give in the battle. */
  signalsLeft: z.number().int().min(0).max(20),
  /** The turn it last gave a signal in. */
  signalTurn: z.number().int().min(0),
  admiralKilled: z.boolean(),
  /** Squadrons it began with (freighters not counted). */
  startSquadrons: z.number().int().min(0),
  deployed: z.boolean(),
});
export type SideState = z.infer<typeof SideStateSchema>;

export const PHASES = ['deploy', 'initiative', 'launch', 'move', 'over'] as const;

export const PhalanxSchema = z
  .object({
    id,
    name: z.string(),
    side: id,
    x: coordinate,
    y: coordinate,
    heading,
    euzonoi: z.number().int().min(0).max(4),
    /** Euzonoi sent away on their own. */
    detached: z.array(z.object({ x: coordinate, y: coordinate, target: id.nullable() }).strict()).max(4),
    formation: z.enum(['line', 'column']),
    disordered: z.boolean(),
    /** Its current order: where it goes, or what it attacks. */
    order: z
      .object({ kind: z.enum(['charge', 'move', 'form', 'recover', 'hold']), target: id.nullable(), x: coordinate.nullable(), y: coordinate.nullable() })
      .strict(),
    /** Pushed back in the last melee phase (twice in a row destroys it). */
    pushedBack: z.number().int().min(0).max(5),
    engaged: id.nullable(),
    destroyed: z.boolean(),
    /** Has carried out its order this turn (land troops move before their side's ships). */
    marched: z.boolean(),
  })
  .strict();
export type Phalanx = z.infer<typeof PhalanxSchema>;

export const PositionStateSchema = z
  .object({
    id,
    name: z.string(),
    side: id,
    x: coordinate,
    y: coordinate,
    radius: z.number().positive(),
    manned: z.boolean(),
    /** Whose troops hold it now (null: nobody's). */
    heldBy: id.nullable(),
    pushedBack: z.number().int().min(0).max(5),
  })
  .strict();
export type PositionState = z.infer<typeof PositionStateSchema>;

export const StateSchema = z
  .object({
    title: z.string(),
    source: z.string(),
    scenario: z.enum(SCENARIO_KINDS),
    fullSize: z.boolean(),
    table: z
      .object({
        unit: z.string(),
        width: z.number().positive(),
        depth: z.number().positive(),
        terrain: z.array(TerrainSchema),
        edges: z.record(id, z.partialRecord(z.enum(EDGES), z.enum(STANDINGS))),
      })
      .strict(),
    sides: z.array(SideStateSchema).length(2),
    squadrons: z.array(SquadronSchema),
    flotsam: z.array(BaseRecord),
    wind: heading.nullable(),
    convoyExit: z.enum(EDGES).nullable(),
    phalanxes: z.array(PhalanxSchema),
    positions: z.array(PositionStateSchema),
    turn: z.number().int().min(0),
    turnLimit: z.number().int().min(1),
    phase: z.enum(PHASES),
    /** The side choosing whether to move first (initiative), or moving now. */
    acting: id.nullable(),
    /** The side that moves second this turn (null once it has begun). */
    second: id.nullable(),
    /** Movement allowances rolled for this movement phase, by squadron. */
    allowances: z.record(id, z.number()),
    /** Secret deployments handed in, by side, until both are in. */
    pending: z.record(id, z.unknown()),
    rolls: z.number().int().min(0),
    /** The fleet that left the field, if one did. */
    leftField: id.nullable(),
    outcome: z.object({ winner: id.nullable(), reason: z.string() }).strict().nullable(),
  })
  .strict();
export type State = z.infer<typeof StateSchema>;

export const sideOf = (state: State, side: string): SideState => {
  const s = state.sides.find((x) => x.id === side);
  if (!s) throw new Error(`no side ${side}`);
  return s;
};
export const enemyOf = (state: State, side: string): string => state.sides.find((s) => s.id !== side)!.id;
export const squadronOf = (state: State, id: string): Squadron => {
  const q = state.squadrons.find((x) => x.id === id);
  if (!q) throw new Error(`no squadron ${id}`);
  return q;
};

/** Stands left, counting a half stand as a stand for where it lies on the table. */
export const standCount = (q: Squadron): number => Math.ceil(q.halves / 2);
export const body = (q: Squadron): Base => bodyOf(q.formation, standCount(q), q);
export const stands = (q: Squadron): Base[] => standsOf(q.formation, standCount(q), q);

/** On the table and able to fight: afloat, at anchor, pursuing or racing. */
export const onTable = (q: Squadron): boolean => q.status === 'afloat' || q.status === 'anchored' || q.status === 'pursuing' || q.status === 'racing';
/** In melee's reach of the rules: afloat, or at anchor on the beach (attacked there, it fights, tests morale and may rout). */
export const standsToFight = (q: Squadron): boolean => q.status === 'afloat' || q.status === 'anchored';
/** At anchor and free to be launched: a squadron at anchor fighting a melee on the beach stays there until it ends. */
export const launchable = (q: Squadron): boolean => q.status === 'anchored' && q.engaged.length === 0;
/** Still a fighting squadron (not routing, gone or destroyed), on the table or racing off it. */
export const inBattle = (q: Squadron): boolean => onTable(q) || q.status === 'chasing';
/** Lost to its fleet for the events and the leaving of the field: routing, routed away, destroyed. */
export const lost = (q: Squadron): boolean => q.status === 'routing' || q.status === 'destroyed' || (q.status === 'gone' && !q.freighters);

/** The table as the geometry module reads it. */
export const tableOf = (state: State): Table => state.table as Table;

/** The modifiers a squadron fights and tests with; freighters fight green and poorly motivated, manoeuvre well trained. */
export function qualityMod(q: Squadron, forMovement = false): number {
  if (q.freighters) return RULES.modifiers.crewQuality[forMovement ? 'well-trained' : 'green'];
  return RULES.modifiers.crewQuality[q.quality];
}
export const moraleMod = (q: Squadron): number => RULES.modifiers.crewMorale[q.freighters ? 'poorly-motivated' : q.morale];
export const shipsMod = (q: Squadron): number => RULES.modifiers.ships[q.ships];
