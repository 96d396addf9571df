/**
 * The version of the rules engine's behaviour: bump it whenever a change
 * could make a stored phase adjudicate differently or change the shape of
 * states and results. Archives record it, so a replay under another version
 * is known to be one.
 *
 * 2: a lender's units awaiting retreat count against a loan (rule 9), so a
 *    loan made in a retreat phase under 1 may now be refused.
 * 3: the Diadochi V map: Iberia no longer touches the Atlantic (Lusitania holds
 *    the north coast) and Sinai no longer touches the Mediterranean (the coast
 *    road is Alexandria's and Jerusalem's, which now border each other), so that
 *    only the provinces rule 11 names join two waters.
 * 4: builds a power left unordered while it had a free site to use them are
 *    reported as "unordered" ("No order: …"), not "waived"; only builds with no
 *    free site left are still said to be waived. An unreadable movement order
 *    that begins with one of the power's units is that unit's result (it holds),
 *    without a second "no order" line for the unit.
 * 5: in a movement phase of a variant with rebuilds (Diadochi V), "R" followed by
 *    a place is refused (R is the rebuild, rule 8), where it was read as a move;
 *    a full stop ending an order is ignored, where it made "A par H." unreadable.
 * 6: builds a power could not use because no free build site was left are
 *    coded "no-build-site" (they were "waived"), and both they and builds left
 *    unordered say how many (`unused`), so nobody reads the count from the
 *    sentence. Results recorded under 1–5 read as 6 (phases/results-then.ts).
 */
export const ENGINE_VERSION = 6;
