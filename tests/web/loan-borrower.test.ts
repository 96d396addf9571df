/**
 * A borrower who was not on the board when a centre was lent to them is told of it when they open it, in the words
 * the live event would have used, once; loans of earlier phases, ended ones and others' are not news.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoanRecord } from '../../shared/api/index.ts';
import { LoanBook } from '../../web/src/game/loans.svelte.ts';
import { fixtureId as id, json } from './api-fixtures.ts';
import { variant } from './positions.ts';

const GAME = id(1);
const record = (n: number, centre: string, lender: string, borrower: string, startedInPhase: number, status: LoanRecord['status'] = 'active'): LoanRecord => ({
  id: id(n),
  centre,
  lender,
  borrower,
  status,
  startedInPhase,
  endedInPhase: status === 'active' ? null : startedInPhase,
  endReason: null,
  createdAt: '2026-11-24T10:00:00.000Z',
});

afterEach(() => vi.unstubAllGlobals());

describe('a loan made while the borrower was away', () => {
  it('is told when the board opens, once', async () => {
    const loans = [
      record(2, 'Cre', 'Macedonia', 'Egypt', 3),
      record(3, 'Cyp', 'Syria', 'Egypt', 2),
      record(4, 'Sic', 'Rome', 'Carthage', 3),
      record(5, 'Rho', 'Macedonia', 'Egypt', 3, 'returned'),
    ];
    vi.stubGlobal('fetch', async () => json(200, { current: [], loans }));
    const said: string[] = [];
    const book = new LoanBook({
      id: GAME,
      variant,
      myPower: 'Egypt',
      open: { index: 3 },
      failed: (e) => {
        throw e;
      },
      notify: (text) => said.push(text),
    });
    await book.load();
    expect(said).toEqual(['Macedonia lent you Crete: it supports one of your units while the loan lasts.']);
    await book.load();
    expect(said).toHaveLength(1);
  });
});
