/**
 * `npm run -s adjudicate -- POSITION [ORDERS] [--json] [--case ID] [--phase N]` (USAGE below says each part).
 *
 * For a game master who runs a game by hand: reads a position and the orders
 * in text, prints every order's result with its reason and the next position.
 */
import { readFileSync } from 'node:fs';
import { getVariant } from '../shared/variants.ts';
import { adjudicate, type DecidedProvince, type SubmittedOrder } from '../shared/game/process.ts';
import { GameStateSchema, type GameState } from '../shared/state/schema.ts';
import { phaseName } from '../shared/state/phase.ts';
import { powerSummary } from '../shared/game/summary.ts';
import { parseDatcFile } from '../shared/datc/format.ts';
import { caseToState } from '../shared/datc/run.ts';
import { variantByName } from '../shared/datc/suite.ts';
import { isRulebook, RULEBOOK_IDS } from '../shared/variant/options.ts';
import type { Variant } from '../shared/variant/load.ts';

function fail(message: string): never {
  console.error(`adjudicate: ${message}`);
  process.exit(2);
}

const USAGE = `usage: npm run -s adjudicate -- POSITION [ORDERS] [--json] [--case ID] [--phase N]

Adjudicates one phase: prints every order's result with its reason, and the next position.

  POSITION   a DATC-format case file (its PRESTATE; its ORDERS unless ORDERS is given),
             a game state JSON, or a game export JSON (its last phase, or --phase N)
  ORDERS     a text file of "Power: order" lines (# starts a comment), or - for standard input
  --case ID  the case of a DATC file with several
  --phase N  the phase of a game export (0 is the first)
  --json     print { phase, results, events, next } as JSON instead of text`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const flag = (name: string) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) fail(`${name} needs a value`);
  args.splice(i, 2);
  return value;
};
const json = args.includes('--json');
const caseId = flag('--case');
const phaseIndex = flag('--phase');
const files = args.filter((a) => a !== '--json');
if (files.length < 1 || files.length > 2) fail(`${USAGE.split('\n')[0]} (--help says more)`);

const read = (file: string): string => {
  try {
    return file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  } catch (e) {
    fail(`cannot read ${file}: ${(e as Error).message}`);
  }
};

/** Find a game state in a JSON document: the document itself, or a phase of a game export. */
function stateFromJson(doc: unknown): GameState {
  const direct = GameStateSchema.safeParse(doc);
  if (direct.success) return direct.data;
  const phases = (doc as { phases?: unknown[] } | null)?.phases;
  if (!Array.isArray(phases) || phases.length === 0) fail('the JSON is neither a game state nor a game export with phases');
  const i = phaseIndex === undefined ? phases.length - 1 : Number(phaseIndex);
  if (!Number.isInteger(i) || i < 0 || i >= phases.length) fail(`--phase must be 0…${phases.length - 1}`);
  const p = phases[i] as Record<string, unknown>;
  for (const key of ['stateBefore', 'state', 'before']) {
    const s = GameStateSchema.safeParse(p[key]);
    if (s.success) return s.data;
  }
  fail(`phase ${i} of the export has no readable state`);
}

let variant: Variant;
let state: GameState;
let orders: SubmittedOrder[] = [];
// A case's DECIDED block: provinces whose outcome a battle fixed.
let decided: DecidedProvince[] = [];
const positionText = read(files[0]);
if (positionText.trimStart().startsWith('{')) {
  let doc: unknown;
  try {
    doc = JSON.parse(positionText);
  } catch (e) {
    fail(`${files[0]} is not valid JSON: ${(e as Error).message}`);
  }
  state = stateFromJson(doc);
  variant = getVariant(state.variant) ?? fail(`unknown variant "${state.variant}"`);
} else {
  const parsed = parseDatcFile(positionText);
  if (!parsed.ok) fail(parsed.error.join('\n'));
  const c = caseId ? parsed.value.find((x) => x.id === caseId) : parsed.value[0];
  if (!c) fail(caseId ? `no case ${caseId} in ${files[0]}` : `no case in ${files[0]}`);
  if (!isRulebook(c.rules)) fail(`unknown rules "${c.rules}" (known: ${RULEBOOK_IDS.join(', ')})`);
  variant = variantByName(c.variant, c.rules) ?? fail(`unknown variant "${c.variant}"`);
  const built = caseToState(variant, c);
  if (!built.ok) fail(built.error.join('\n'));
  state = built.value.state;
  orders = built.value.orders;
  decided = built.value.decided;
}

if (files[1] !== undefined) {
  orders = [];
  read(files[1])
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = raw.replace(/#.*/, '').trim();
      if (!line) return;
      const m = /^([^:]+):\s*(.+)$/.exec(line);
      if (!m) fail(`${files[1]} line ${i + 1}: expected "Power: order", not "${line}"`);
      orders.push({ power: m[1].trim(), order: m[2] });
    });
}

const result = adjudicate(variant, state, orders, { decided });
if (!result.ok) fail(result.error.join('\n'));
const { results, next, events } = result.value;

if (json) {
  console.log(JSON.stringify({ phase: phaseName(variant, state.phase), results, events, next }, null, 2));
  process.exit(0);
}

const out: string[] = [`${variant.name}, ${phaseName(variant, state.phase)}`, ''];
for (const power of variant.powers) {
  const mine = results.filter((r) => r.power === power);
  if (mine.length === 0) continue;
  out.push(`${power}:`);
  for (const r of mine) out.push(`  ${r.success ? '✓' : '✗'} ${r.order.padEnd(24)} ${r.reason}`);
}
const strangers = results.filter((r) => !variant.powers.includes(r.power));
for (const r of strangers) out.push(`  ✗ ${r.power}: ${r.order}  ${r.reason}`);
if (events.length > 0) {
  out.push('', 'Also:');
  for (const e of events) out.push(`  ${describeEvent(e)}`);
}
out.push('', next.winners ? `Game over: won by ${next.winners.join(' and ')}.` : `Next: ${phaseName(variant, next.phase)}`);
for (const s of powerSummary(variant, next)) {
  const units = next.units.filter((u) => u.power === s.power).map((u) => `${u.type === 'army' ? 'A' : 'F'} ${u.at}`);
  if (units.length === 0 && s.centres.length === 0) continue;
  out.push(`  ${s.power}: ${units.join(', ') || 'no units'}  (centres ${s.centres.length}, supply ${s.supply})`);
}
for (const d of next.dislodged)
  out.push(
    `  dislodged: ${d.power} ${d.type === 'army' ? 'A' : 'F'} ${d.at}${d.attackerFrom ? ` (attacked from ${d.attackerFrom})` : ' (attacked by convoy)'}`,
  );
console.log(out.join('\n'));

function describeEvent(e: (typeof events)[number]): string {
  switch (e.kind) {
    case 'centre-captured':
      return `${e.province} passes from ${e.from ?? 'neutral'} to ${e.to}`;
    case 'centre-destroyed':
      return `${e.province} destroyed by ${e.by}`;
    case 'centre-rebuilt':
      return `${e.province} rebuilt by ${e.by}`;
    case 'centre-rebelled':
      return `${e.province} rebels against ${e.from}`;
    case 'loan-ended':
      return `loan of ${e.centre} from ${e.from} to ${e.to} ends`;
    case 'victory':
      return `victory: ${e.powers.join(', ')}`;
    case 'unit-lost':
      return `${e.power} ${e.unit} lost in the battle for ${e.battle}`;
  }
}
