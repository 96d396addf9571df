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
