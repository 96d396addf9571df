/**
 * The version of the rules engine's behaviour: bump it whenever a change
 * could make a stored phase adjudicate differently or change the shape of
 * states and results. Archives record it, so a replay under another version
 * is known to be one.
 */
export const ENGINE_VERSION = 1;
