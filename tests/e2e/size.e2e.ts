/**
 * What the board costs to download: the built client (the suite's global setup builds it) stays within the budget
 * web/README.md promises for the game view and the sandbox, so a change that pulls a large module into the board
 * shows up in `npm test`, not months later on a phone.
 */
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { viewSizes } from '../../web/scripts/size.ts';
import { E2E_WEB_DIST } from './build.ts';

describe.skipIf(!existsSync('/usr/bin/chromium'))('the built client', () => {
  test('the game view and the sandbox are within their download budget', () => {
    const sizes = viewSizes(E2E_WEB_DIST);
    const budgeted = sizes.filter((size) => size.budget_kb !== null);
    expect(budgeted.map((size) => size.view)).toEqual(['game view', 'sandbox']);
    for (const size of budgeted) expect(size.gzip_kb, `${size.view}: ${size.files.join(', ')}`).toBeLessThanOrEqual(size.budget_kb!);
  });
});
