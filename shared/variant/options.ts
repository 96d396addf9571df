/**
 * Rule choices where rulebooks disagree (DATC v3.0 section 4). The defaults
 * are the DATC v3.0 preferences; each alternative is the older rulebook's answer.
 */
export interface RuleOptions {
  /**
   * DATC 4.A.1, multi-route convoy disruption.
   * `all-routes` (1982 and later, DATC preference): the convoy fails only when every route is disrupted.
   * `any-route` (1971): the convoy fails as soon as one fleet of any possible route is dislodged.
   */
  convoyDisruption: 'all-routes' | 'any-route';
  /**
   * DATC 4.A.3, convoying to an adjacent province.
   * `2000` (2000/2023 rulebooks, DATC preference): the convoy route is used when the move says "via convoy"
   *   or a fleet of the army's own power is ordered to convoy it; then there is no fallback to the land route.
   * `1971`: the convoy route is used only when the unit at the destination moves to the army's province
   *   (a swap) and the convoy is ordered; otherwise the land route.
   */
  adjacentConvoy: '2000' | '1971';
  /**
   * DATC 4.D.8, which unit a power in civil disorder (or one that orders too few removals) loses.
   * `owned-centres` (2023 rulebook, DATC preference): distance over land and sea, for any unit type, to the nearest owned centre.
   * `home-centres` (1971/1982 practice): distance to the nearest home centre, owned or not; fleets by sea and coast, armies over land and sea.
   */
  civilDisorderDistance: 'owned-centres' | 'home-centres';
}

export const defaultRuleOptions: RuleOptions = {
  convoyDisruption: 'all-routes',
  adjacentConvoy: '2000',
  civilDisorderDistance: 'owned-centres',
};

/**
 * The rule sets a game can be played under: `datc`, the DATC v3.0
 * preferences (the defaults above); `1971`, the 1971 rulebook's answer to
 * each of the three choices. A game records its rule set; its variant is
 * compiled with these options wherever it is adjudicated (server and browser).
 */
export const RULEBOOKS = {
  datc: {},
  '1971': { convoyDisruption: 'any-route', adjacentConvoy: '1971', civilDisorderDistance: 'home-centres' },
} as const satisfies Record<string, Partial<RuleOptions>>;
export type Rulebook = keyof typeof RULEBOOKS;
/** In the order they are offered (Object.keys would put "1971", an integer-like key, first). */
export const RULEBOOK_IDS = ['datc', '1971'] as const satisfies readonly Rulebook[];

/** The named rule set these options are (null for a mix of options no rule set names). */
export function rulebookOf(options: RuleOptions): Rulebook | null {
  for (const id of RULEBOOK_IDS) {
    const named = { ...defaultRuleOptions, ...RULEBOOKS[id] };
    if ((Object.keys(named) as (keyof RuleOptions)[]).every((key) => named[key] === options[key])) return id;
  }
  return null;
}

/** Whether a name is one of the rule sets. */
export function isRulebook(name: string): name is Rulebook {
  return Object.hasOwn(RULEBOOKS, name);
}

/** The options of a rule set; an unknown name (a newer server's) plays the defaults. */
export function rulebookOptions(rules: string): Partial<RuleOptions> {
  return isRulebook(rules) ? RULEBOOKS[rules] : {};
}
