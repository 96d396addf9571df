/** The battle's log mounted: every line with its dice as dice (value, size, what for) and its table row, newest last. */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { BattleLogEntry } from '../../shared/api/battles.ts';
import BattleLogView from '../../web/src/battles/BattleLogView.svelte';

const at = '2026-11-27T10:00:00.000Z';
const entries: BattleLogEntry[] = [
  {
    index: 0,
    side: null,
    by: 'start',
    action: null,
    text: null,
    hidden: false,
    note: null,
    at,
    lines: [{ text: 'Wind from the north.', rolls: [{ index: 0, sides: 6, value: 1, label: 'wind' }] }],
  },
  {
    index: 1,
    side: 'rhodes',
    by: 'player',
    action: { kind: 'ram', ship: 'nike', target: 'leon' },
    text: 'Trireme Nike rams Trireme Leon (bow beam)',
    hidden: false,
    note: null,
    at,
    lines: [
      {
        text: 'Nike rams Leon: 5 + 1 = 6',
        rolls: [
          { index: 1, sides: 6, value: 5, label: 'Nike ram' },
          { index: 2, sides: 10, value: 7, label: 'Leon damage' },
        ],
        table: { name: 'Ram results', row: '6: crippled' },
      },
    ],
  },
  { index: 2, side: 'macedon', by: 'deadline', action: null, text: null, hidden: true, note: 'Time ran out: the computer plotted for Macedon.', at, lines: [] },
];
const sides = [
  { id: 'rhodes', name: 'Rhodes' },
  { id: 'macedon', name: 'Macedon' },
];

let target: HTMLElement;
let component: ReturnType<typeof mount>;
afterEach(() => {
  unmount(component);
  target.remove();
});

function show(current: number | null = null) {
  target = document.createElement('div');
  document.body.appendChild(target);
  component = mount(BattleLogView, { target, props: { entries, sides, current } });
  flushSync();
}

describe('the battle log', () => {
  it('lists the entries oldest first, newest last, each saying who acted', () => {
    show();
    expect(Array.from(target.querySelectorAll('.entry .head')).map((h) => h.textContent)).toEqual([
      'The start',
      '1. Rhodes: Trireme Nike rams Trireme Leon (bow beam)',
      '2. Macedon: a plot, shown when the turn is resolved',
    ]);
    expect(target.querySelector('.entry[data-index="2"] .note')!.textContent).toBe('Time ran out: the computer plotted for Macedon.');
  });

  it('shows each die with its value and size, says what it was for, and gives the table row', () => {
    show();
    const dice = Array.from(target.querySelectorAll('.entry[data-index="1"] .die'));
    expect(dice.map((d) => d.querySelector('[aria-hidden]')!.textContent)).toEqual(['5d6', '7d10']);
    expect(dice.map((d) => d.querySelector('b')!.textContent)).toEqual(['5', '7']);
    expect(dice.map((d) => d.querySelector('.visually-hidden')!.textContent)).toEqual(['Nike ram: 5 on a d6', 'Leon damage: 7 on a d10']);
    expect(dice[0].getAttribute('title')).toBe('Roll 1: d6 for Nike ram');
    expect(target.querySelector('.entry[data-index="1"] .table')!.textContent).toBe('Ram results: 6: crippled');
    expect(target.querySelector('.entry[data-index="0"] .die b')!.textContent).toBe('1');
  });

  it('marks the entry the replay shows, in a region a keyboard can scroll', () => {
    show(1);
    expect(target.querySelector('.entry.current')!.getAttribute('data-index')).toBe('1');
    expect(target.querySelector('ol.entries')!.getAttribute('tabindex')).toBe('0');
  });
});
