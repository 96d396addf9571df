import { err, ok, type Result } from '../result.ts';

/**
 * The jDip/godip DATC text format, read into plain data. Extended for
 * Diadochi V with blocks for destroyed centres, rebuilding, loans, control of
 * special build centres, and expected owners and winners.
 *
 *   VARIANT_ALL Standard
 *   RULES 1971          the rule set of the cases that follow (RULEBOOKS; after each
 *                       VARIANT_ALL it is datc, the DATC v3.0 preferences, until said)
 *   CASE 6.A.1 title
 *   PRESTATE_SETPHASE Spring 1901, Movement
 *   PRESTATE_SUPPLYCENTER_OWNERS / PRESTATE / PRESTATE_DISLODGED / PRESTATE_RESULTS
 *   PRESTATE_STANDOFFS  provinces left empty by a standoff (else derived from PRESTATE_RESULTS);
 *                       a dislodged unit may say where its attacker came from: "Austria: F tri from ven"
 *                       ("from convoy" when the attack came by convoy)
 *   PRESTATE_DESTROYED / PRESTATE_REBUILDING / PRESTATE_LOANS / PRESTATE_CONTROL
 *   LOAN_ACTIONS        loans made or ended before the orders are adjudicated,
 *                       "Carthage: Gad -> Egypt" or "Carthage: end Gad -> Egypt"
 *   ORDERS
 *   DECIDED             movement phases: provinces whose outcome is fixed from outside (a sea
 *                       battle fought out), one a line: "ION Rome" (Rome won it), "ION Rome F Eph"
 *                       (won by that unit of Rome's), "ION standoff"; also one-line "DECIDED ION Rome";
 *                       either may end with "lost" and the units lost in the battle, removed after
 *                       the adjudication (no retreat): "ION Rome lost F Aeg F Tyr"
 *   POSTSTATE / POSTSTATE_SAME / POSTSTATE_DISLODGED
 *   POSTSTATE_DESTROYED / POSTSTATE_REBUILDING / POSTSTATE_SUPPLYCENTER_OWNERS
 *   POSTSTATE_LOANS / POSTSTATE_WINNERS
 *   POSTSTATE_ERROR     the phase must be refused, with errors containing each line's text
 *   END
 */

export interface DatcLine {
  text: string;
  line: number;
}

export interface DatcCase {
  id: string;
  title: string;
  line: number;
  variant: string;
  /** The rule set named by a RULES line ("datc" without one). */
  rules: string;
  phase: DatcLine | undefined;
  blocks: Partial<Record<BlockName, DatcLine[]>>;
  poststateSame: boolean;
}

export const blockNames = [
  'PRESTATE_SUPPLYCENTER_OWNERS',
  'PRESTATE',
  'PRESTATE_DISLODGED',
  'PRESTATE_RESULTS',
  'PRESTATE_STANDOFFS',
  'PRESTATE_DESTROYED',
  'PRESTATE_REBUILDING',
  'PRESTATE_LOANS',
  'PRESTATE_CONTROL',
  'LOAN_ACTIONS',
  'ORDERS',
  'DECIDED',
  'POSTSTATE',
  'POSTSTATE_DISLODGED',
  'POSTSTATE_DESTROYED',
  'POSTSTATE_REBUILDING',
  'POSTSTATE_SUPPLYCENTER_OWNERS',
  'POSTSTATE_LOANS',
  'POSTSTATE_WINNERS',
  'POSTSTATE_ERROR',
] as const;
export type BlockName = (typeof blockNames)[number];
const isBlock = (w: string): w is BlockName => (blockNames as readonly string[]).includes(w);

/** Split a case file into cases. Errors name the line. */
export function parseDatcFile(text: string): Result<DatcCase[], string[]> {
  const cases: DatcCase[] = [];
  const errors: string[] = [];
  let variant = '';
  let rules = 'datc';
  let current: DatcCase | undefined;
  let block: BlockName | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const hash = raw.indexOf('#');
    const content = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (!content) return;
    const [keyword, ...rest] = content.split(/\s+/);
    const arg = rest.join(' ');
    if (keyword === 'VARIANT_ALL') {
      variant = arg;
      rules = 'datc';
      return;
    }
    if (keyword === 'RULES' && !current) {
      rules = arg;
      return;
    }
    if (keyword === 'CASE') {
      if (current) errors.push(`line ${line}: CASE ${arg} starts before END of case ${current.id}`);
      const [id, ...title] = rest;
      current = { id: id ?? '', title: title.join(' '), line, variant, rules, phase: undefined, blocks: {}, poststateSame: false };
      block = undefined;
      return;
    }
    if (!current) {
      errors.push(`line ${line}: "${content}" is outside a CASE … END block`);
      return;
    }
    if (keyword === 'END') {
      cases.push(current);
      current = undefined;
      block = undefined;
      return;
    }
    if (keyword === 'PRESTATE_SETPHASE') {
      current.phase = { text: arg, line };
      block = undefined;
      return;
    }
    if (keyword === 'POSTSTATE_SAME') {
      current.poststateSame = true;
      block = undefined;
      return;
    }
    if (keyword === 'DECIDED' && rest.length > 0) {
      // The one-line form: "DECIDED ION Rome".
      (current.blocks.DECIDED ??= []).push({ text: arg, line });
      block = undefined;
      return;
    }
    if (isBlock(keyword) && rest.length === 0) {
      block = keyword;
      current.blocks[block] ??= [];
      return;
    }
    if (!block) {
      errors.push(`line ${line}: "${content}" is not inside a block (PRESTATE, ORDERS, …)`);
      return;
    }
    current.blocks[block]!.push({ text: content, line });
  });
  if (current) errors.push(`case ${current.id} (line ${current.line}) has no END`);
  return errors.length > 0 ? err(errors) : ok(cases);
}

/** "England: F nth" → { power: "England", rest: "F nth" }. */
export function splitPowerLine(text: string): { power: string; rest: string } | undefined {
  const m = /^([^:]+):\s*(.*)$/.exec(text);
  if (m) return { power: m[1].trim(), rest: m[2].trim() };
  // Tolerate a forgotten colon: "Italy F gol".
  const w = /^(\S+)\s+(.+)$/.exec(text.trim());
  return w ? { power: w[1], rest: w[2] } : undefined;
}

/** Blocks written even when empty, because an empty one still says something ("no units", "nothing destroyed"). */
const meaningfulWhenEmpty = (name: BlockName) =>
  name === 'ORDERS' || name === 'PRESTATE' || name === 'PRESTATE_SUPPLYCENTER_OWNERS' || name.startsWith('POSTSTATE');

/** Write a case back in the same format (used to export game phases). Blocks left undefined are not written. */
export function formatDatcCase(c: {
  id: string;
  title?: string;
  variant: string;
  /** Written as a RULES line unless it is datc (the default). */
  rules?: string;
  phase: string;
  blocks: Partial<Record<BlockName, readonly string[]>>;
}): string {
  const out = [
    `VARIANT_ALL ${c.variant}`,
    ...(c.rules && c.rules !== 'datc' ? [`RULES ${c.rules}`] : []),
    `CASE ${c.id}${c.title ? ` ${c.title}` : ''}`,
    `PRESTATE_SETPHASE ${c.phase}`,
  ];
  for (const name of blockNames) {
    const lines = c.blocks[name];
    if (lines === undefined || (lines.length === 0 && !meaningfulWhenEmpty(name))) continue;
    out.push(name, ...lines.map((l) => `\t${l}`));
  }
  out.push('END', '');
  return out.join('\n');
}
