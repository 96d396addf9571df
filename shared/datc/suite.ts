import { getVariant } from '../variants.ts';
import { isRulebook, RULEBOOK_IDS, RULEBOOKS, type Rulebook } from '../variant/options.ts';
import { normaliseName, type Variant } from '../variant/load.ts';
import { parseDatcFile } from './format.ts';
import { runCase, type CaseReport } from './run.ts';

export interface SuiteReport {
  fileProblems: string[];
  reports: (CaseReport & { skipped?: string })[];
}

/** Variant named in a case file: by id ("diadochi-v") or by name ("Diadochi V", "Standard"), under a rule set (RULEBOOKS). */
export function variantByName(name: string, rules: Rulebook = 'datc'): Variant | undefined {
  const n = normaliseName(name);
  const options = RULEBOOKS[rules];
  return getVariant(n.replace(/ /g, '-'), options) ?? getVariant(n, options);
}

/** Run every case of a file. `skip` maps case ids to the reason they are known deviations. */
export function runDatcText(text: string, skip: ReadonlyMap<string, string> = new Map()): SuiteReport {
  const parsed = parseDatcFile(text);
  if (!parsed.ok) return { fileProblems: parsed.error, reports: [] };
  const reports: SuiteReport['reports'] = [];
  const fileProblems: string[] = [];
  for (const c of parsed.value) {
    const reason = skip.get(c.id);
    if (reason) {
      reports.push({ id: c.id, title: c.title, passed: false, problems: [], differences: [], notes: [], skipped: reason });
      continue;
    }
    if (!isRulebook(c.rules)) {
      fileProblems.push(`case ${c.id} (line ${c.line}): unknown rules "${c.rules}" (known: ${RULEBOOK_IDS.join(', ')})`);
      continue;
    }
    const v = variantByName(c.variant, c.rules);
    if (!v) {
      fileProblems.push(`case ${c.id} (line ${c.line}): unknown variant "${c.variant}"`);
      continue;
    }
    reports.push(runCase(v, c));
  }
  return { fileProblems, reports };
}
