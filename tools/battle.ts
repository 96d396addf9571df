/**
 * `npm run -s battle -- verify FILE`: checks a naval battle's record (GET /api/battles/{id}/export of a finished
 * battle) on its own: the seed against the commitment published at the start, every die against the stream the
 * seed and salt make, and a replay of every action against its logged account. Prints what it checked, and each
 * problem naming where; exits 0 when everything matches, 1 on a mismatch, 2 when the file cannot be read as a record.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { RULESETS } from '../shared/naval/index.ts';
import { BattleRecordSchema, verify } from '../shared/naval/record.ts';

const USAGE = 'usage: npm run -s battle -- verify FILE   (a battle record as GET /api/battles/{id}/export gives it)';

export function battleCommand(args: readonly string[]): { exitCode: number; output: string } {
  const [command, file, ...rest] = args;
  if (command !== 'verify' || !file || rest.length > 0) return { exitCode: 2, output: USAGE };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { exitCode: 2, output: `${file}: cannot read it as JSON: ${(error as Error).message}` };
  }
  const parsed = BattleRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { exitCode: 2, output: `${file}: not a battle record: ${issue.path.join('.') || 'record'}: ${issue.message}` };
  }
  const record = parsed.data;
  const result = verify(RULESETS[record.ruleset], record);
  const summary = `${file}: ${record.ruleset}, ${result.actions} actions, ${result.rolls} dice checked against seed ${record.seed ?? '(not revealed)'} and salt ${record.salt}`;
  if (result.ok)
    return { exitCode: 0, output: `${summary}\nOK: the seed matches the commitment, every die is the stream's, and the replay gives the same log` };
  return { exitCode: 1, output: [summary, `MISMATCH: ${result.problems.length} problem(s)`, ...result.problems.map((p) => `  ${p}`)].join('\n') };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { exitCode, output } = battleCommand(process.argv.slice(2));
  (exitCode === 0 ? console.log : console.error)(output);
  process.exit(exitCode);
}
