/**
 * What the board costs to download: the built client (the suite's global setup builds it) stays within the budget
 * web/README.md promises for the game view, the sandbox and each map drawing, so a change that pulls a large module into the board
 * shows up in `npm test`, not months later on a phone.
 */
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { drawingSizes, viewSizes } from '../../web/scripts/size.ts';
import { E2E_WEB_DIST } from './build.ts';

describe.skipIf(!existsSync('/usr/bin/chromium'))('the built client', () => {
  test('the game view and the sandbox are within their download budget', () => {
    const sizes = viewSizes(E2E_WEB_DIST);
    const budgeted = sizes.filter((size) => size.budget_kb !== null);
    expect(budgeted.map((size) => size.view)).toEqual(['game view', 'sandbox']);
    for (const size of budgeted) expect(size.gzip_kb, `${size.view}: ${size.files.join(', ')}`).toBeLessThanOrEqual(size.budget_kb!);
  });

  test("each variant's map drawing is a chunk of its own, within the drawings' budget, and not in the board's code", () => {
    const drawings = drawingSizes(E2E_WEB_DIST);
    expect(drawings.map((size) => size.view).sort()).toEqual(['ancient-mediterranean map drawing', 'diadochi-v map drawing', 'standard map drawing']);
    for (const size of drawings) expect(size.gzip_kb, size.view).toBeLessThanOrEqual(size.budget_kb!);
    const boardFiles = new Set(viewSizes(E2E_WEB_DIST).flatMap((size) => size.files));
    for (const size of drawings) expect(boardFiles.has(size.files[0]), `${size.view} loaded with the board's code`).toBe(false);
  });
});
