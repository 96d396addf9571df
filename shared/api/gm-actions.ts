/**
 * Every action the game master's log records: the server's tools, orders
 * entered for a power, and the import that created a game. (Entries imported
 * from another server's log keep whatever names it used.) The server logs
 * only these; the web client has a sentence for each. Free of zod, so that
 * the client's first load can read it without the schemas.
 */
export const GM_ACTIONS = [
  'process-now',
  'change-deadline',
  'pause',
  'resume',
  'replace-player',
  'civil-disorder',
  'enter-orders',
  'rollback',
  'end-game',
  'import',
  'invite-game-master',
  'take-over',
  'finalize',
  // A sitter begins to act for an absent player's power (server/play/submissions.ts).
  'sitter',
  // A players' vote to pause, resume or extend the clock: proposed, passed, failed or withdrawn (server/clock-votes/).
  'clock-vote',
  // Campaign play (server/campaign/): the campaign's settings changed before the start; a contested sea's sides set, decided or waived by the game master.
  'campaign',
  'sea-sides',
  'decide-sea',
  'waive-sea',
  // Campaign play (server/battles/from-sea.ts): a contested sea's battle opened, or left to the computer (by the game master, or by its deadline).
  'fight-sea',
  'auto-resolve-sea',
  // Campaign play (server/campaign/abandon.ts): the game master abandoned a sea's battle under way; the sea is undecided again.
  'abandon-sea',
] as const;
export type GmActionKind = (typeof GM_ACTIONS)[number];

/**
 * The tools a game master who also plays a power may use only with the other active players' consent: each could
 * give them information (processing now, then rolling back, shows everyone's orders) or an advantage (ending the
 * game, changing who plays a rival power, handing the game master's tools to a friend, publishing the press now).
 */
export const CONSENT_TOOLS = [
  'process-now',
  'rollback',
  'end-game',
  'replace-player',
  'civil-disorder',
  'invite-game-master',
  'finalize',
] as const satisfies readonly GmActionKind[];
export type ConsentTool = (typeof CONSENT_TOOLS)[number];
