/**
 * A campaign game's sea battle on its page: each side drawn in its power's colour on the Diplomacy map (shaded so the
 * counters' white letters read and the ships stand out from the sea), on the hex sea, on the measured table, in the
 * legend and the seat list, whatever order the set-up lists the sides in; an ordinary battle keeps its colours by
 * the set-up's order. A seat whose player the viewer may not name reads as taken, never as open to join.
 */
import { flushSync, mount, tick, unmount } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BattleDetail, BattleSummary } from '../../shared/api/battles.ts';
import { defaultFleetLists } from '../../shared/campaign/fleets.ts';
import { forcesAtSea } from '../../shared/campaign/forces.ts';
import { battleFromSea } from '../../shared/campaign/setups/index.ts';
import type { ContestedSea } from '../../shared/game/contested-seas.ts';
import { commitmentOf, streamDice } from '../../shared/naval/dice.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import type { RulesetId } from '../../shared/naval/ruleset.ts';
import { getVariant } from '../../shared/variants.ts';
import BattlePage from '../../web/src/battles/BattlePage.svelte';
import HexSea from '../../web/src/battles/HexSea.svelte';
import TableSea from '../../web/src/battles/TableSea.svelte';
import { SEA_BACKGROUNDS, SIDE_COLOURS, contrast, sideColour } from '../../web/src/battles/sea-drawing.ts';
import { tablePicture } from '../../web/src/battles/table-picture.ts';
import { router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { fixtureId, json } from './api-fixtures.ts';
import { SALT, SEED, battleSummary } from './battles-fixtures.ts';
import { ScriptedSocket } from './scripted-socket.ts';

const variant = getVariant('diadochi-v')!;
const mapColour = (power: string) => variant.data.powers.find((p) => p.id === power)!.colour;

/** Macedonia held the Ionian Sea and Rome moved in: the set-up lists Macedonia first. */
const ionian: ContestedSea = {
  province: 'ION',
  name: 'Ionian Sea',
  powers: ['Macedonia', 'Rome'],
  units: [
    { power: 'Macedonia', unit: 'F ION', at: 'ION', order: 'F ION H', role: 'defender', success: true },
    { power: 'Rome', unit: 'F Nea', at: 'Nea', order: 'F Nea - ION', role: 'attacker', success: false },
  ],
  supports: [],
};

/** The battle the server opens for the sea under `ruleset`, started, with its sides as the server describes them. */
function campaignBattle(ruleset: RulesetId) {
  const forces = forcesAtSea(ionian, defaultFleetLists(variant.powers));
  if (!forces.ok) throw new Error(forces.error.join('; '));
  const built = battleFromSea(ruleset, forces.value, 'Ionian Sea, Spring 240 BC');
  if (!built.ok) throw new Error(built.error.join('; '));
  const r = RULESETS[ruleset];
  const setup = r.setupSchema.parse(built.value);
  const state = r.start(setup, streamDice(SEED, SALT)).state;
  const sides = r.sides(setup).map((side, i) => {
    const power = forces.value.sides[i].powers[0];
    return { ...side, power, colour: mapColour(power) };
  });
  return { r, setup, state, sides };
}

let target: HTMLElement;
let component: ReturnType<typeof mount> | null = null;
afterEach(() => {
  if (component) unmount(component);
  component = null;
  target?.remove();
  vi.unstubAllGlobals();
});
function show(make: (into: HTMLElement) => ReturnType<typeof mount>) {
  target = document.createElement('div');
  document.body.appendChild(target);
  component = make(target);
  flushSync();
}

describe('the sides’ colours', () => {
  it('a campaign battle on the hex sea: Rome’s ships in Rome’s map colour and Macedonia’s in Macedonia’s, though Macedonia is listed first', () => {
    const { r, state, sides } = campaignBattle('classis');
    expect(sides.map((s) => s.id)).toEqual(['macedonia', 'rome']);
    const board = r.board(state);
    show((into) => mount(HexSea, { target: into, props: { board, sides } }));
    const rome = sideColour(sides, 'rome');
    const macedonia = sideColour(sides, 'macedonia');
    // The set-up's order would have drawn Macedonia in the first colour (a red) and Rome in the second (a blue).
    expect(rome).not.toBe(SIDE_COLOURS[1]);
    expect(macedonia).not.toBe(SIDE_COLOURS[0]);
    for (const c of board.counters.filter((c) => !c.sunk)) {
      const hull = target.querySelector(`g.counter[data-ship="${c.id}"] g.hull`) as SVGGElement;
      expect(hull.style.getPropertyValue('--side')).toBe(c.side === 'rome' ? rome : macedonia);
    }
    expect(board.counters.some((c) => c.side === 'rome') && board.counters.some((c) => c.side === 'macedonia')).toBe(true);
    const legend = Array.from(target.querySelectorAll('figcaption span')).filter((s) => /Rome|Macedonia/.test(s.textContent ?? ''));
    expect(legend.map((s) => [s.textContent, (s.querySelector('.swatch') as HTMLElement).style.background])).toEqual([
      ['Macedonia', macedonia],
      ['Rome', rome],
    ]);
  });

  it('each power’s shade keeps its map hue, darkened only as far as white letters and the seas need', () => {
    const hue = (colour: string) => {
      const n = Number.parseInt(colour.slice(1), 16);
      const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
      const max = Math.max(r, g, b);
      return [r, g, b].map((x) => (max === 0 ? 0 : Math.round((x / max) * 10)));
    };
    for (const power of variant.data.powers) {
      const shade = sideColour([{ id: 'a', colour: power.colour }], 'a');
      expect(contrast(shade, '#ffffff'), power.id).toBeGreaterThanOrEqual(4.5);
      for (const sea of SEA_BACKGROUNDS) expect(contrast(shade, sea), `${power.id} on ${sea}`).toBeGreaterThanOrEqual(3);
      // The same hue: each channel in the same proportion to the brightest (to a tenth).
      expect(hue(shade), power.id).toEqual(hue(power.colour));
      // Not darker than it need be: a tenth lighter would fail one of the contrasts.
      expect(contrast(shade, '#000000'), power.id).toBeGreaterThan(2);
    }
  });

  it('two powers of near hues (Rome’s red, Carthage’s crimson) are told apart by lightness too', () => {
    const sides = [
      { id: 'rome', colour: mapColour('Rome') },
      { id: 'carthage', colour: mapColour('Carthage') },
    ];
    expect(contrast(sideColour(sides, 'rome'), sideColour(sides, 'carthage'))).toBeGreaterThanOrEqual(1.4);
  });

  it('an ordinary battle keeps its colours by the set-up’s order', () => {
    const sides = [
      { id: 'rhodes', name: 'Rhodes' },
      { id: 'macedon', name: 'Macedon' },
    ];
    expect([sideColour(sides, 'rhodes'), sideColour(sides, 'macedon')]).toEqual([SIDE_COLOURS[0], SIDE_COLOURS[1]]);
    expect(sideColour(['rhodes', 'macedon'], 'macedon')).toBe(SIDE_COLOURS[1]);
  });

  it('a campaign battle on the measured table: each side’s bases and its key in its power’s colour', () => {
    const { state, sides } = campaignBattle('diadochi-naval');
    const picture = tablePicture('diadochi-naval', state);
    show((into) => mount(TableSea, { target: into, props: { picture, sides } }));
    const rome = sideColour(sides, 'rome');
    const macedonia = sideColour(sides, 'macedonia');
    for (const p of picture.pieces)
      for (const base of Array.from(target.querySelectorAll(`g.piece[data-piece="${p.id}"] polygon.base`)))
        expect(base.getAttribute('fill')).toBe(p.side === 'rome' ? rome : macedonia);
    expect(picture.pieces.map((p) => p.side)).toEqual(expect.arrayContaining(['rome', 'macedonia']));
    const keys = Array.from(target.querySelectorAll('.key'))
      .filter((k) => k.querySelector('.swatch'))
      .map((k) => [k.textContent, (k.querySelector('.swatch') as HTMLElement).style.background]);
    expect(keys).toEqual([
      ['Macedonia', macedonia],
      ['Rome', rome],
    ]);
  });
});

describe('the battle’s page in an anonymous campaign game', () => {
  let detail: BattleDetail;
  beforeEach(() => {
    vi.stubGlobal('WebSocket', ScriptedSocket);
    vi.stubGlobal('fetch', async (path: string) => {
      const url = new URL(path, 'http://localhost');
      if (url.pathname === `/api/battles/${detail.id}`) return json(200, detail);
      if (url.pathname === `/api/battles/${detail.id}/log`) return json(200, { entries: [], actionCount: 0, next: null });
      return json(404, { error: { code: 'not_found', message: 'no' } });
    });
  });

  /** Egypt's player watches Macedonia and Rome fight: both players hidden from them, the game master named. */
  function watched(): BattleDetail {
    const { r, setup, state, sides } = campaignBattle('classis');
    const seats: BattleSummary['seats'] = [
      { id: fixtureId(4), side: 'macedonia', role: 'side', player: 'human', user: null, hidden: true, isYou: false },
      { id: fixtureId(5), side: 'rome', role: 'side', player: 'human', user: null, hidden: true, isYou: false },
      { id: fixtureId(6), side: null, role: 'umpire', player: 'human', user: { id: fixtureId(9), username: 'themaster' }, isYou: false },
    ];
    const view = r.redact(state, null);
    return {
      ...battleSummary('classis', sides, { status: 'active', private: true, seats, joined: false }),
      inviteCode: null,
      you: { side: null, umpire: false },
      setup,
      commitment: commitmentOf(SEED),
      salt: SALT,
      seed: null,
      nextRoll: 0,
      deadlineAt: '2026-12-01T00:00:00.000Z',
      turn: r.turn(state),
      state: view,
      board: r.board(view),
      yourTurn: false,
    } as BattleDetail;
  }

  it('a hidden player’s seat reads as taken (“a player, hidden”), with no name and no offer to take it; the seat list shows each side’s colour', async () => {
    detail = watched();
    session.adopt({ user: { id: fixtureId(1), username: 'egypt', isAdmin: false }, csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
    router.go(`/battles/${detail.id}`, true);
    show((into) => mount(BattlePage, { target: into, props: { id: detail.id } }));
    await vi.waitFor(() => expect(target.querySelector('.seats li')).not.toBeNull());
    for (let i = 0; i < 4; i++) await tick();
    flushSync();
    const seats = Array.from(target.querySelectorAll('.seats li')).map((li) => li.textContent!.replace(/\s+/g, ' ').trim());
    expect(seats).toEqual(['Macedonia a player, hidden', 'Rome a player, hidden', 'Umpire themaster']);
    expect(target.querySelector('.seats')!.textContent).not.toMatch(/\bopen\b|seats? free/);
    expect(Array.from(target.querySelectorAll('button')).map((b) => b.textContent)).not.toContain('Play Rome');
    expect(target.querySelector('.join')).toBeNull();
    const swatches = Array.from(target.querySelectorAll('.seats .swatch')) as HTMLElement[];
    expect(swatches.map((s) => s.style.background)).toEqual([sideColour(detail.sides, 'macedonia'), sideColour(detail.sides, 'rome')]);
  });

  it('an open seat of an ordinary battle still offers itself', async () => {
    detail = watched();
    detail = {
      ...detail,
      status: 'forming',
      sides: detail.sides.map(({ id, name }) => ({ id, name })),
      seats: detail.seats.map((s) =>
        s.side === 'rome'
          ? { ...s, hidden: undefined, user: null }
          : s.side === 'macedonia'
            ? { ...s, hidden: undefined, user: { id: fixtureId(2), username: 'mac' } }
            : s,
      ),
    };
    session.adopt({ user: { id: fixtureId(1), username: 'egypt', isAdmin: false }, csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
    router.go(`/battles/${detail.id}`, true);
    show((into) => mount(BattlePage, { target: into, props: { id: detail.id } }));
    await vi.waitFor(() => expect(target.querySelector('.seats li')).not.toBeNull());
    for (let i = 0; i < 4; i++) await tick();
    flushSync();
    const seats = Array.from(target.querySelectorAll('.seats li')).map((li) => li.textContent!.replace(/\s+/g, ' ').trim());
    expect(seats).toEqual(['Macedonia mac', 'Rome open', 'Umpire themaster']);
    expect(Array.from(target.querySelectorAll('button')).map((b) => b.textContent?.trim())).toContain('Play Rome');
    const swatches = Array.from(target.querySelectorAll('.seats .swatch')) as HTMLElement[];
    expect(swatches.map((s) => s.style.background)).toEqual([SIDE_COLOURS[0], SIDE_COLOURS[1]]);
  });
});
