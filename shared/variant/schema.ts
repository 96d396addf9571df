import { z } from 'zod';

/**
 * The data format of a variant in `maps/<variant>/variant.json`.
 * The map is data (as in godip): every rule of the engine reads it from here,
 * nothing about a particular map is written in code.
 */

const idPattern = /^[A-Za-z][A-Za-z0-9]{0,15}$/;
export const ProvinceId = z.string().regex(idPattern, 'a province id is letters and digits, starting with a letter');
/** A location is a province id, optionally with a named coast: `spa/nc`. */
export const LocationId = z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,15}(\/[a-z]{1,3})?$/, 'a location is a province id, optionally followed by /coast');
export const PowerId = z.string().regex(/^[A-Z][A-Za-z-]{1,23}$/, 'a power id is a capitalised name');
export const UnitType = z.enum(['army', 'fleet']);
export type UnitType = z.infer<typeof UnitType>;

/** A point in the drawing's coordinate system (the SVG's user units). */
const Point = z.tuple([z.number(), z.number()]);

export const CentreSchema = z
  .object({
    /** Units this centre supports for its owner (1 single, 2 double, 3 triple). */
    supply: z.number().int().min(1).max(3),
    /** Exceptions by owner, e.g. Rome supplies 3 to Rome but 1 to anyone else: { supply: 1, supplyFor: { Rome: 3 } }. */
    supplyFor: z.record(PowerId, z.number().int().min(1).max(3)).optional(),
    /** Rebels (becomes neutral) at a Winter count unless occupied by a unit of its owner. */
    rebel: z.boolean().optional(),
    /** May not be destroyed (when the variant allows destroying centres). */
    indestructible: z.boolean().optional(),
  })
  .strict();

export const CoastSchema = z
  .object({
    name: z.string().min(1),
    /** Locations a fleet on this coast can move to. */
    fleet: z.array(LocationId),
    draw: z.object({ unit: Point }).strict().optional(),
  })
  .strict();

export const ProvinceSchema = z
  .object({
    id: ProvinceId,
    name: z.string().min(1),
    /** Other names players may type for it (a spelling of the rules text, say): read as the province, never shown. */
    aliases: z.array(z.string().min(1)).optional(),
    /** `land` is inland, `coastal` touches a sea, `impassable` is drawn but no unit may enter. */
    kind: z.enum(['land', 'coastal', 'sea', 'impassable']),
    /** Provinces an army here can move to. */
    army: z.array(ProvinceId).default([]),
    /** Locations a fleet here can move to (for a province without named coasts). */
    fleet: z.array(LocationId).default([]),
    /** Named coasts (`nc`, `sc`, …) of a province whose fleets must say which coast they are on. */
    coasts: z.record(z.string().regex(/^[a-z]{1,3}$/), CoastSchema).optional(),
    centre: CentreSchema.optional(),
    /** A special build centre: not a supply centre, but its controller may build there. */
    buildCentre: z.boolean().optional(),
    /** The power for which this is a home centre. */
    home: PowerId.optional(),
    /** Real-world anchor, [longitude, latitude] in degrees, for maps reconstructed from geography. */
    anchor: Point.optional(),
    draw: z.object({ label: Point, unit: Point }).strict().optional(),
  })
  .strict();

export const SpecialLinkSchema = z
  .object({
    kind: z.enum(['passage', 'canal']),
    /** Two provinces for a passage; for a canal, the province and the two seas it joins. */
    between: z.array(ProvinceId).min(2).max(3),
    note: z.string().optional(),
  })
  .strict();

export const CalendarSchema = z
  .object({
    startYear: z.number().int(),
    /** +1 for years AD counting up, -1 for years BC counting down. */
    step: z.union([z.literal(1), z.literal(-1)]),
    /** Shown after the year: "BC" gives "Spring 240 BC". */
    era: z.string().default(''),
  })
  .strict();

export const VictorySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('centres'), count: z.number().int().positive() }).strict(),
  /** Diadochi V rule 13: units covered by the supply of centres the power owns and has not lent out. */
  z.object({ type: z.literal('self-supporting-units'), count: z.number().int().positive() }).strict(),
]);

export const VariantRulesSchema = z
  .object({
    calendar: CalendarSchema,
    victory: VictorySchema,
    /** Most fleets one power may build in one adjustment phase. */
    maxFleetBuilds: z.number().int().positive().optional(),
    /** Units on centres may be ordered to destroy (Z) and rebuild (R) them. */
    destroyCentres: z.boolean().default(false),
    /** Powers may lend centres to one another. */
    loans: z.boolean().default(false),
  })
  .strict();

export const StartUnitSchema = z.object({ power: PowerId, type: UnitType, at: LocationId }).strict();

export const MapDataSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    name: z.string().min(1),
    description: z.string().optional(),
    powers: z
      .array(
        z
          .object({
            id: PowerId,
            /** Short form used by the DATC text format and the UI (`ENG`). */
            abbreviation: z.string().regex(/^[A-Z]{1,4}$/),
            adjective: z.string().min(1),
            colour: z.string().regex(/^#[0-9a-fA-F]{6}$/),
          })
          .strict(),
      )
      .min(2),
    provinces: z.array(ProvinceSchema).min(2),
    specialLinks: z.array(SpecialLinkSchema).default([]),
    rules: VariantRulesSchema,
    start: z
      .object({
        units: z.array(StartUnitSchema),
        /** Initial supply-centre owners (usually the home centres). */
        owners: z.record(ProvinceId, PowerId),
      })
      .strict(),
  })
  .strict();

export type MapData = z.input<typeof MapDataSchema>;
export type ParsedMapData = z.output<typeof MapDataSchema>;
export type ProvinceData = z.output<typeof ProvinceSchema>;
