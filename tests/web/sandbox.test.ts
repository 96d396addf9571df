import { describe, expect, it } from 'vitest';
import { formatOrder, getVariant, RULEBOOKS } from '../../shared/index.ts';
import { Sandbox, readPosition } from '../../web/src/sandbox/sandbox.svelte.ts';
import { randomGame } from '../support/random-game.ts';
import { position, start, variant } from './positions.ts';

describe('the sandbox', () => {
  it('adjudicates every power’s orders, shows results, moves on, and steps back to the same orders', () => {
    const s = new Sandbox(variant);
    s.entry.setText('A Rav - Cis', 'Rome');
    s.entry.setText('A Had - Num', 'Carthage');
    const r = s.adjudicate();
    expect(r.ok).toBe(true);
    expect(s.showingResults).toBe(true);
    expect(
      s.current
        .outcome!.results.filter((x) => x.code === 'moved')
        .map((x) => x.order)
        .sort(),
    ).toEqual(['A Had - Num', 'A Rav - Cis']);

    s.proceed();
    expect(s.current.state.phase).toEqual({ season: 'fall', year: 240, type: 'movement' });
    expect(s.entry.state.units.some((u) => u.at === 'Cis' && u.power === 'Rome')).toBe(true);
    expect(s.entry.text).toBe('');

    s.back();
    expect(s.showingResults).toBe(true);
    s.back();
    expect(s.showingResults).toBe(false);
    expect(s.entry.lines.Rome).toEqual(['A Rav - Cis']);
    expect(s.entry.state).toEqual(start);
    expect(s.canGoBack).toBe(false);
  });

  it('reads a pasted position and names what is wrong with a bad one', async () => {
    expect(await readPosition(variant, JSON.stringify(start))).toEqual({ ok: true, value: start });
    const bad = await readPosition(variant, JSON.stringify({ ...start, units: [{ power: 'Rome', type: 'army', at: 'ION' }] }));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error.join()).toMatch(/at sea/);
    expect((await readPosition(variant, '{nope')).ok).toBe(false);
    expect(!(await readPosition(variant, JSON.stringify({ ...start, variant: 'standard' }))).ok).toBe(true);
  });
});

describe('the power being ordered', () => {
  it('after Continue into a retreat, switches to the power with a dislodged unit', () => {
    const s = new Sandbox(
      variant,
      position([
        ...start.units.filter((u) => u.power === 'Carthage'),
        { power: 'Rome', type: 'army', at: 'Rav' },
        { power: 'Macedonia', type: 'army', at: 'Ven' },
        { power: 'Macedonia', type: 'army', at: 'Cis' },
      ]),
    );
    expect(s.entry.power).toBe('Carthage');
    s.entry.setText('A Ven - Rav\nA Cis S A Ven - Rav', 'Macedonia');
    expect(s.adjudicate().ok).toBe(true);
    s.proceed();
    expect(s.current.state.phase.type).toBe('retreat');
    expect(s.current.state.dislodged.map((u) => u.power)).toEqual(['Rome']);
    expect(s.entry.power).toBe('Rome');
  });

  it('keeps the power being ordered when it has something to order', () => {
    const s = new Sandbox(variant);
    s.entry.power = 'Syria';
    s.adjudicate();
    s.proceed();
    expect(s.entry.power).toBe('Syria');
  });
});

describe('work to lose', () => {
  it('is an order written, results, or a phase played; a new start has none', () => {
    const s = new Sandbox(variant);
    expect(s.hasWork).toBe(false);
    s.entry.setText('A Rav - Cis', 'Rome');
    expect(s.hasWork).toBe(true);
    s.adjudicate();
    expect(s.hasWork).toBe(true);
    s.proceed();
    expect(s.hasWork).toBe(true);
    s.load(start);
    expect(s.hasWork).toBe(false);
  });
});

describe('the sandbox across visits', () => {
  it('a snapshot restores the phases, the orders and the results', async () => {
    const s = new Sandbox(variant);
    s.entry.setText('A Rav - Cis', 'Rome');
    s.adjudicate();
    s.proceed();
    s.entry.setText('A Cis - Lug', 'Rome');
    const snapshot = JSON.parse(JSON.stringify(s.snapshot()));

    const again = new Sandbox(variant);
    expect(await again.restore(snapshot)).toBe(true);
    expect(again.steps).toHaveLength(2);
    expect(again.steps[0].outcome?.results).toEqual(s.steps[0].outcome?.results);
    expect(again.current.state).toEqual(s.current.state);
    expect(again.entry.lines.Rome).toEqual(['A Cis - Lug']);
  });

  it('keeps the game position it started from', async () => {
    const s = new Sandbox(variant);
    const origin = { game: '019a0000-0000-7000-8000-000000000004', gameName: 'Wars of the Successors', phase: 2, phaseName: 'Spring 240 BC Movement' };
    s.load(start, origin);
    const again = new Sandbox(variant);
    expect(await again.restore(JSON.parse(JSON.stringify(s.snapshot())))).toBe(true);
    expect(again.origin).toEqual(origin);
    again.load(start);
    expect(again.origin).toBeNull();
  });

  it('refuses a snapshot of another variant or with a broken position', async () => {
    const s = new Sandbox(variant);
    expect(await s.restore({ variant: 'standard', steps: [{ state: start, lines: {}, adjudicated: false }] })).toBe(false);
    expect(
      await s.restore({
        variant: variant.id,
        steps: [{ state: { ...start, units: [{ power: 'Rome', type: 'army', at: 'ION' }] }, lines: {}, adjudicated: false }],
      }),
    ).toBe(false);
    expect(s.current.state).toEqual(start);
  });
});

describe('the rules adjudicating', () => {
  // A phase of the engine's random game (seed 5, played under the 1971 rulebook) that the two rule sets adjudicate differently.
  const phase = randomGame(getVariant('diadochi-v', RULEBOOKS['1971'])!, 5, 3)[1];
  const orders = (s: Sandbox) => {
    for (const power of variant.powers)
      s.entry.setText(
        phase.orders
          .filter((o) => o.power === power)
          .map((o) => formatOrder(o.order as never))
          .join('\n'),
        power,
      );
  };

  it('adjudicates under the rule set chosen, again when it changes, and keeps it across a reload', async () => {
    const s = new Sandbox(variant);
    s.load(phase.state);
    expect(s.rules).toBe('datc');
    orders(s);
    expect(s.adjudicate().ok).toBe(true);
    const modern = s.current.outcome!.results;
    s.useRules('1971');
    const classic = s.current.outcome!.results;
    expect(classic).not.toEqual(modern);

    const again = new Sandbox(variant);
    expect(await again.restore(JSON.parse(JSON.stringify(s.snapshot())))).toBe(true);
    expect(again.rules).toBe('1971');
    expect(again.current.outcome!.results).toEqual(classic);
    // Snapshots from before the choice existed play the DATC's answers.
    const { rules: _, ...old } = s.snapshot();
    const older = new Sandbox(variant);
    expect(await older.restore(JSON.parse(JSON.stringify(old)))).toBe(true);
    expect(older.rules).toBe('datc');
    expect(older.current.outcome!.results).toEqual(modern);
  });
});
