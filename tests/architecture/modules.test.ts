/**
 * The architecture the folder tree promises, held by dependency-cruiser with the rules in .dependency-cruiser.cjs:
 * no module imports another in a circle, the engine imports nothing of the server, the client or Node, a server
 * domain does not import another domain, and the server's core imports no domain.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const depcruise = path.join(root, 'node_modules', '.bin', 'depcruise');

type Violation = { from: string; to: string; rule: { name: string }; cycle?: { name: string }[] };

/** The rules' violations in `folders` of `cwd`, cruised with the config found there. */
async function violations(cwd: string, folders: string[]): Promise<Violation[]> {
  const run = await promisify(execFile)(depcruise, [...folders, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    // depcruise exits non-zero when it finds violations; its JSON is still on stdout.
    if (error.stdout) return { stdout: error.stdout };
    throw new Error(`depcruise failed: ${error.stderr}`);
  });
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const described = (list: Violation[]) => list.map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' → ')})` : ''}`);

describe('the module structure', () => {
  test('the engine, the server and the client keep to it', { timeout: 120_000 }, async () => {
    expect(described(await violations(root, ['shared', 'server', 'web/src']))).toEqual([]);
  });

  describe('the rules catch what they forbid', () => {
    const fixture = mkdtempSync(path.join(tmpdir(), 'architecture-'));
    afterAll(() => rmSync(fixture, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
      writeFileSync(path.join(fixture, file), text);
    };

    test('a cycle, an impure engine, a domain reaching into another, a core importing a domain', { timeout: 120_000 }, async () => {
      cpSync(path.join(root, '.dependency-cruiser.cjs'), path.join(fixture, '.dependency-cruiser.cjs'));
      writeFileSync(
        path.join(fixture, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler' } }),
      );
      write('shared/rules.ts', "import { readFileSync } from 'node:fs';\nexport const rules = readFileSync;\n");
      write('server/press/service.ts', "import { lobby } from '../games/lobby.ts';\nexport const press = lobby;\n");
      write('server/games/lobby.ts', 'export const lobby = 1;\n');
      write('server/play/process.ts', "import { press } from '../press/service.ts';\nexport const process = press;\n");
      write('server/play/a.ts', "import { b } from './b.ts';\nexport const a = () => b;\n");
      write('server/play/b.ts', "import { a } from './a.ts';\nexport const b = () => a;\n");
      const found = described(await violations(fixture, ['shared', 'server']));
      expect(found).toEqual(
        expect.arrayContaining([
          'engine-is-pure: shared/rules.ts → fs',
          'domains-meet-through-the-core: server/press/service.ts → server/games/lobby.ts',
          'core-knows-no-domain: server/play/process.ts → server/press/service.ts',
          expect.stringMatching(/^no-cycles: server\/play\/(a|b)\.ts → server\/play\/(a|b)\.ts/),
        ]),
      );
    });
  });
});
