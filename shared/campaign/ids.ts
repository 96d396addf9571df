/** Ids for a campaign battle's set-up, made from the game's names: lower-case letters and digits joined by hyphens, as every ruleset's set-up takes them. */
export const idOf = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** A Diplomacy fleet's squadron in the battle: its side's id and its unit ("egypt-f-ale"). */
export const fleetIdOf = (sideId: string, unit: string): string => `${sideId}-${idOf(unit)}`;
