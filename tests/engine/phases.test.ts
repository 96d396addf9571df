import { describe, expect, it } from 'vitest';
import { getVariant } from '../../shared/variants.ts';
import { adjudicate, initialState, type SubmittedOrder } from '../../shared/game/process.ts';
import { checkOrders } from '../../shared/game/check-orders.ts';
import { controlChanges } from '../../shared/game/control.ts';
import type { GameState, Unit } from '../../shared/state/schema.ts';

const v = getVariant('standard')!;
const U = (power: string, type: 'army' | 'fleet', at: string): Unit => ({ power, type, at });
const position = (phase: GameState['phase'], units: Unit[], owners?: Record<string, string>): GameState => ({
  ...initialState(v),
  phase,
  units,
  ...(owners ? { owners } : {}),
});
const play = (state: GameState, orders: [string, string][]) => {
  const r = adjudicate(
    v,
    state,
    orders.map(([power, order]): SubmittedOrder => ({ power, order })),
  );
  if (!r.ok) throw new Error(r.error.join('; '));
  return r.value;
};
const spring = { season: 'spring', year: 1901, type: 'movement' } as const;
const fall = { season: 'fall', year: 1901, type: 'movement' } as const;

describe('phase progression', () => {
  it('goes from Spring to Fall when nobody is dislodged', () => {
    const out = play(initialState(v), [['France', 'A par - bur']]);
    expect(out.next.phase).toEqual(fall);
    expect(out.next.units).toContainEqual(U('France', 'army', 'bur'));
  });

  it("gives an unreadable order that names a unit as that unit's one result: it holds, with no second 'no order' line", () => {
    const out = play(initialState(v), [
      ['England', 'F lon - Nowhere'],
      ['England', 'Q zzz'],
    ]);
    const england = out.results.filter((r) => r.power === 'England');
    const london = england.filter((r) => r.unit === 'lon');
    expect(london).toEqual([
      expect.objectContaining({ order: 'F lon - Nowhere', code: 'illegal', reason: expect.stringMatching(/^"Nowhere" is not a province.* The unit holds\.$/) }),
    ]);
    // An order that names no unit stays apart from the units, which hold without orders.
    expect(england.find((r) => r.order === 'Q zzz')).toMatchObject({ code: 'illegal' });
    expect(england.find((r) => r.order === 'Q zzz')!.unit).toBeUndefined();
    expect(
      england
        .filter((r) => r.code === 'unordered')
        .map((r) => r.unit)
        .sort(),
    ).toEqual(['edi', 'lvp']);
    expect(out.next.units).toContainEqual(U('England', 'fleet', 'lon'));
  });

  it('stops for a retreat phase only when a dislodged unit has somewhere to go', () => {
    const s = position(spring, [U('France', 'army', 'bur'), U('Germany', 'army', 'mun'), U('Germany', 'army', 'ruh')]);
    const out = play(s, [
      ['Germany', 'A mun - bur'],
      ['Germany', 'A ruh S A mun - bur'],
    ]);
    expect(out.next.phase).toEqual({ ...spring, type: 'retreat' });
    expect(out.next.dislodged).toEqual([{ ...U('France', 'army', 'bur'), attackerFrom: 'mun' }]);
    // The retreat may not go back where the attacker came from.
    const r = play(out.next, [['France', 'A bur - mun']]);
    expect(r.results[0]).toMatchObject({ code: 'illegal', reason: expect.stringMatching(/the attack came from there/) });
    expect(r.next.phase).toEqual(fall);
  });

  it('disbands at once a dislodged unit with nowhere to go, and skips the empty retreat phase', () => {
    // The army in Kiel... is surrounded: every neighbour is occupied.
    const s = position(spring, [
      U('Russia', 'fleet', 'hel'),
      U('England', 'fleet', 'bal'),
      U('Germany', 'army', 'kie'),
      U('France', 'army', 'hol'),
      U('Austria', 'army', 'ruh'),
      U('Italy', 'army', 'mun'),
      U('Turkey', 'army', 'ber'),
      U('Russia', 'army', 'den'),
    ]);
    const out = play(s, [
      ['Russia', 'F hel - kie'],
      ['Russia', 'A den S F hel - kie'],
    ]);
    expect(out.disbanded).toEqual([U('Germany', 'army', 'kie')]);
    expect(out.next.phase).toEqual(fall);
    expect(out.results.find((r) => r.unit === 'kie' && r.power === 'Germany')!.reason).toMatch(/nowhere to retreat/);
  });

  it('changes centre owners after Fall only, then skips an adjustment nobody needs', () => {
    const s = position(spring, [U('France', 'army', 'bel')], { par: 'France' });
    const afterSpring = play(s, []);
    expect(afterSpring.next.owners.bel).toBeUndefined();
    const afterFall = play({ ...afterSpring.next, units: [U('France', 'army', 'bel'), U('France', 'army', 'par')] }, []);
    expect(afterFall.next.owners.bel).toBe('France');
    // France has two centres and two units: no adjustment phase.
    expect(afterFall.next.phase).toEqual({ season: 'spring', year: 1902, type: 'movement' });
    expect(afterFall.events).toContainEqual({ kind: 'centre-captured', province: 'bel', from: null, to: 'France' });
  });

  it('builds only in owned, vacant home centres, and waives what is not ordered', () => {
    const winter = { season: 'winter', year: 1901, type: 'adjustment' } as const;
    const s = position(winter, [U('France', 'army', 'par')], { par: 'France', bre: 'France', mar: 'France', bel: 'France' });
    const out = play(s, [
      ['France', 'Build A par'],
      ['France', 'Build A bel'],
      ['France', 'Build F bre'],
    ]);
    expect(out.results.map((r) => [r.order, r.code])).toEqual([
      ['Build A par', 'illegal'],
      ['Build A bel', 'illegal'],
      ['Build F bre', 'built'],
      ['Waive', 'unordered'],
    ]);
    // Marseilles was free: France gave no order for its other two builds.
    expect(out.results[3].reason).toBe('No order: 2 builds not used.');
    expect(out.results[0].reason).toMatch(/occupied/);
    expect(out.results[1].reason).toMatch(/not one of France's home centres/);
    expect(out.next.phase).toEqual({ season: 'spring', year: 1902, type: 'movement' });
  });

  it('says builds with no free site to use them could not be placed, not that they were unordered, and how many', () => {
    const winter = { season: 'winter', year: 1901, type: 'adjustment' } as const;
    // Four centres, three units, each on a home centre: one build due and nowhere to build it.
    const s = position(winter, [U('France', 'army', 'par'), U('France', 'fleet', 'bre'), U('France', 'army', 'mar')], {
      par: 'France',
      bre: 'France',
      mar: 'France',
      bel: 'France',
    });
    const out = play(s, []);
    expect(out.results).toMatchObject([
      { power: 'France', order: 'Waive', code: 'no-build-site', unused: 1, reason: '1 build not used (no free build site left).' },
    ]);
  });

  it('says the most basic reason a build is refused: not a home centre before occupied, and one build per centre', () => {
    const winter = { season: 'winter', year: 1901, type: 'adjustment' } as const;
    // France: four centres, one unit; Germany's army stands in Burgundy, France's own in Paris.
    const s = position(winter, [U('France', 'army', 'par'), U('Germany', 'army', 'bur')], { par: 'France', bre: 'France', mar: 'France', bel: 'France' });
    const out = play(s, [
      ['France', 'Build A bur'],
      ['France', 'Build F eng'],
      ['France', 'Build A mar'],
      ['France', 'Build F mar'],
      ['France', 'Build A par'],
    ]);
    const reasons = Object.fromEntries(out.results.filter((r) => r.code === 'illegal').map((r) => [r.order, r.reason]));
    expect(reasons).toEqual({
      'Build A bur': "Burgundy is not one of France's home centres.",
      'Build F eng': "English Channel is not one of France's home centres.",
      'Build F mar': 'France already builds in Marseilles in this phase: one build per centre.',
      'Build A par': 'Paris is occupied.',
    });
  });

  it('removes the farthest unit when a power orders too few removals', () => {
    const winter = { season: 'winter', year: 1901, type: 'adjustment' } as const;
    const s = position(winter, [U('France', 'army', 'par'), U('France', 'army', 'mos')], { par: 'France' });
    const out = play(s, []);
    expect(out.results).toEqual([expect.objectContaining({ order: 'Remove A mos', code: 'civil-disorder' })]);
    expect(out.next.units).toEqual([U('France', 'army', 'par')]);
  });

  it('ends the game when a power owns 18 centres after Fall', () => {
    const centres = ['par', 'bre', 'mar', 'spa', 'por', 'bel', 'hol', 'lon', 'lvp', 'edi', 'nwy', 'den', 'kie', 'ber', 'mun', 'tun', 'nap', 'rom'];
    const owners = Object.fromEntries(centres.map((c) => [c, 'France']));
    const s = position(
      fall,
      centres.map((c) => U('France', 'army', c)),
      owners,
    );
    const out = play(s, []);
    expect(out.next.winners).toEqual(['France']);
    expect(out.events).toContainEqual({ kind: 'victory', powers: ['France'] });
    expect(adjudicate(v, out.next, []).ok).toBe(false);
  });
});

describe('special build centres changing hands', () => {
  const d = getVariant('diadochi-v')!;
  it('names the new controller and the old one after Fall, and nothing after Spring', () => {
    const fallState: GameState = {
      ...initialState(d),
      phase: { season: 'fall', year: 240, type: 'movement' },
      units: [U('Macedonia', 'army', 'Ath'), U('Syria', 'army', 'Jer')],
      control: { Ath: 'Rome', Sid: 'Syria' },
    };
    const r = adjudicate(d, fallState, []);
    if (!r.ok) throw new Error(r.error.join('; '));
    expect(controlChanges(fallState, r.value.next)).toEqual([
      { province: 'Ath', from: 'Rome', to: 'Macedonia' },
      { province: 'Jer', from: null, to: 'Syria' },
    ]);
    const spring = adjudicate(d, { ...fallState, phase: { season: 'spring', year: 240, type: 'movement' } }, []);
    if (!spring.ok) throw new Error(spring.error.join('; '));
    expect(controlChanges(fallState, spring.value.next)).toEqual([]);
  });
});

describe('results explain themselves', () => {
  it('gives strengths and opponents for a bounce, the cutter of a support, the origin of a dislodgement', () => {
    const s = position(spring, [
      U('France', 'army', 'par'),
      U('France', 'army', 'pic'),
      U('Germany', 'army', 'bur'),
      U('Germany', 'army', 'ruh'),
      U('England', 'army', 'bel'),
    ]);
    const out = play(s, [
      ['France', 'A par - bur'],
      ['France', 'A pic S A par - bur'],
      ['England', 'A bel - pic'],
      ['Germany', 'A ruh S A bur'],
    ]);
    const by = (unit: string) => out.results.find((r) => r.unit === unit)!;
    expect(by('pic')).toMatchObject({ code: 'support-cut', against: ['A bel'], reason: expect.stringMatching(/cut by England's army in Belgium/) });
    expect(by('par')).toMatchObject({ code: 'bounced', strength: { attack: 1, opposition: 2 }, against: ['A bur'] });
    expect(by('bel')).toMatchObject({ code: 'bounced' });
    expect(by('ruh')).toMatchObject({ code: 'supported', success: true });
  });

  it('says why an illegal order was ignored, and the unit holds', () => {
    const out = play(initialState(v), [['France', 'A par - lon']]);
    const r = out.results.find((x) => x.order === 'A par - lon')!;
    expect(r).toMatchObject({ code: 'illegal', success: false });
    expect(r.reason).toMatch(/not next to London.*The unit holds/);
  });
});

describe('checking orders at submission', () => {
  it('accepts legal orders in canonical form and rejects the rest with reasons', () => {
    const r = checkOrders(v, initialState(v), 'France', ['a par-bur', 'A mar - bur', 'A par H', 'F bre - lon', 'A mun - ruh']);
    if (!r.ok) throw new Error(r.error);
    expect(r.value.map((c) => (c.accepted ? c.text : c.reason))).toEqual([
      'A par - bur',
      'A mar - bur',
      'The unit in Paris already has an order in this set.',
      expect.stringMatching(/cannot move from Brest to London/),
      'The army in Munich belongs to Germany.',
    ]);
  });

  it('records each unit as what it is when the order says A for a fleet, or nothing (DATC 4.C.1, 4.C.2)', () => {
    const r = checkOrders(v, initialState(v), 'France', ['A bre - mid', 'par - bur', 'F mar S F par - bur']);
    if (!r.ok) throw new Error(r.error);
    expect(r.value.map((c) => (c.accepted ? c.text : c.reason))).toEqual(['F bre - mid', 'A par - bur', 'A mar S A par - bur']);
    const played = adjudicate(v, initialState(v), [{ power: 'France', order: 'A bre - mid' }]);
    if (!played.ok) throw new Error(played.error.join('; '));
    expect(played.value.next.units).toContainEqual({ power: 'France', type: 'fleet', at: 'mid' });
  });

  it('records a fleet move to the one coast it can reach when the order names none (DATC 4.B.3)', () => {
    const s = position(spring, [U('France', 'fleet', 'gas'), U('France', 'army', 'mar')]);
    const r = checkOrders(v, s, 'France', ['F gas - spa', 'A mar - spa/sc']);
    if (!r.ok) throw new Error(r.error);
    expect(r.value.map((c) => (c.accepted ? c.text : c.reason))).toEqual(['F gas - spa/nc', 'A mar - spa']);
  });

  it('applies the adjustment counts the adjudicator applies', () => {
    const winter = { season: 'winter', year: 1901, type: 'adjustment' } as const;
    const s = position(winter, [], { par: 'France', bre: 'France' });
    const r = checkOrders(v, s, 'France', ['Build A par', 'Build F bre', 'Build A mar']);
    if (!r.ok) throw new Error(r.error);
    expect(r.value.map((c) => c.accepted)).toEqual([true, true, false]);
  });
});
