import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `npm install` on the Node the README names prints no warning that a package wants a newer Node: every
 * package in the lock file accepts the oldest Node this project supports (package.json's engines), except
 * those listed here, each with why it is harmless.
 */
const HARMLESS: Record<string, string> = {
  // Serves only the `prisma dev` command (a local Prisma server), which this project never runs.
  'node_modules/@prisma/streams-local': 'prisma dev only',
};

describe('the Node version', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
    packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
  };
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it('every installed package runs on the oldest Node the project supports', () => {
    const wanting = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !HARMLESS[path] && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(wanting, `these would warn on Node ${oldest}`).toEqual([]);
  });

  it('the README names the same Node as package.json', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain(`Node ${pkg.engines.node.replace('>=', '')} or later`);
  });
});
