import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// Generous: these run many adjudications, and CI machines are shared.
vi.setConfig({ testTimeout: 60_000 });
import { getVariant, initialState } from '../../shared/index.ts';

// The GM's offline tool, run as a GM would run it.
const root = join(import.meta.dirname, '../..');
const tool = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'tools/adjudicate.ts', ...args], { cwd: root, encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'adjudicate-'));

describe('npm run adjudicate', () => {
  const position = join(dir, 'position.json');
  writeFileSync(position, JSON.stringify(initialState(getVariant('diadochi-v')!)));
  const orders = join(dir, 'orders.txt');
  writeFileSync(orders, '# Carthage opens\nCarthage: A New - Sag\nRome: F Nea - Syr\nRome: A Bru - Nea\nSyria: A Sel Z\n');

  it('prints each result with its reason and the next phase in years BC', () => {
    const r = tool(position, orders);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Diadochi V, Spring 240 BC Movement');
    expect(r.stdout).toMatch(/✓ A New - Sag\s+Moved to Sagumtum\./);
    expect(r.stdout).toMatch(/✓ F Nea - Syr\s+Moved to Syracuse\./);
    expect(r.stdout).toMatch(/Sel destroyed by Syria/);
    expect(r.stdout).toContain('Next: Fall 240 BC Movement');
  });

  it('prints JSON on request', () => {
    const out = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', 'tools/adjudicate.ts', position, orders, '--json'], { cwd: root, encoding: 'utf8' }),
    );
    expect(out.next.phase).toEqual({ season: 'fall', year: 240, type: 'movement' });
    expect(out.next.destroyed).toEqual(['Sel']);
    expect(out.results.find((r: { order: string }) => r.order === 'A New - Sag').code).toBe('moved');
  });

  it('takes a DATC case file with its own orders', () => {
    const r = tool('tests/datc/v3.0/6F.txt', '--case', '6.F.16');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/F eng C A bre - lon\s+The convoy failed: it was part of a convoy paradox/);
  });

  it('adjudicates a DATC case under the rule set its RULES line names', () => {
    const text = readFileSync(join(root, 'tests/datc/v3.0/6F.txt'), 'utf8');
    const only = text.slice(text.indexOf('CASE 6.F.9 '), text.indexOf('END', text.indexOf('CASE 6.F.9 ')) + 3);
    const modern = join(dir, 'modern.txt');
    const classic = join(dir, 'classic.txt');
    writeFileSync(modern, `VARIANT_ALL Standard\n${only}\n`);
    writeFileSync(classic, `VARIANT_ALL Standard\nRULES 1971\n${only}\n`);
    expect(tool(modern).stdout).toMatch(/✓ A lon - bel/);
    expect(tool(classic).stdout).toMatch(/✗ A lon - bel\s+No convoy carried it/);
    const unknown = join(dir, 'unknown.txt');
    writeFileSync(unknown, `VARIANT_ALL Standard\nRULES 1982\n${only}\n`);
    expect(tool(unknown)).toMatchObject({ status: 2, stderr: expect.stringMatching(/unknown rules "1982" \(known: datc, 1971\)/) });
  });

  it('says how it is used on --help, and points there when called wrongly', () => {
    const help = tool('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run -s adjudicate -- POSITION \[ORDERS\]/);
    expect(help.stdout).toContain('--phase N  the phase of a game export');
    expect(tool()).toMatchObject({ status: 2, stderr: expect.stringContaining('(--help says more)') });
  });

  it('says what is wrong with bad input instead of crashing', () => {
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, 'this line has no power\n');
    expect(tool(position, bad)).toMatchObject({ status: 2, stderr: expect.stringMatching(/line 1: expected "Power: order"/) });
    expect(tool(join(dir, 'missing.json'))).toMatchObject({ status: 2, stderr: expect.stringMatching(/cannot read/) });
    expect(tool()).toMatchObject({ status: 2, stderr: expect.stringMatching(/usage/) });
  });
});
