import { describe, expect, it } from 'vitest';
import { compileBoard, legalMovementOrders, findProvince, formatOrder, powerSummary, type Order } from '../../shared/index.ts';
import { compileEconomy } from '../../shared/game/economy.ts';
import { OrderEntry } from '../../web/src/orders/order-entry.svelte.ts';
import { targetsOf, actionsOf } from '../../web/src/orders/choices.ts';
import { adjustment, position, start, variant } from './positions.ts';

/** What the engine makes of a power's lines: the canonical text of the accepted ones. */
const accepted = (entry: OrderEntry, power: string) => entry.checked[power].filter((l) => l.accepted).map((l) => l.text);

/** Carthage's fleet in the African Sea, and its army in Carthage that the fleet can convoy. */
const convoyable = position([
  { power: 'Carthage', type: 'fleet', at: 'AFR' },
  { power: 'Carthage', type: 'army', at: 'Car' },
]);

describe('order entry: clicking gives the orders that typing gives', () => {
  it('a move, by clicking the unit, Move, then the province', () => {
    const clicked = new OrderEntry(variant, start, variant.powers);
    clicked.clickProvince('Rav');
    expect(clicked.selection).toMatchObject({ location: 'Rav', power: 'Rome' });
    clicked.chooseAction('move');
    expect(clicked.targets.map((t) => t.province).sort()).toEqual(
      ['Ben', 'Cis', 'Ete', 'Ill', 'Pan', 'Rom', 'Ven'].filter((p) => clicked.targets.some((t) => t.province === p)).sort(),
    );
    clicked.clickProvince('Cis');

    const typed = new OrderEntry(variant, start, variant.powers);
    typed.setText('a rav -> cisalpine gaul', 'Rome');

    expect(clicked.text).toBe('A Rav - Cis');
    expect(accepted(clicked, 'Rome')).toEqual(accepted(typed, 'Rome'));
    expect(accepted(typed, 'Rome')).toEqual(['A Rav - Cis']);
    expect(clicked.selection).toBeNull();
  });

  it('supports to hold and to move, picking the supported unit then the destination', () => {
    const clicked = new OrderEntry(variant, start, variant.powers);
    // Support to move: A Bru S F Nea - Syr? Bru does not border Syr, so support A Rav's move instead: F Rom S A Rav - Ete.
    clicked.clickProvince('Rom');
    clicked.chooseAction('support');
    expect(clicked.targets.every((t) => t.pick !== undefined)).toBe(true);
    clicked.clickProvince('Rav');
    expect(clicked.selection?.picked).toBe('Rav');
    clicked.clickProvince('Ete');
    // Support to hold: click the supported unit's own province.
    clicked.clickProvince('Bru');
    clicked.chooseAction('support');
    clicked.clickProvince('Nea');
    clicked.clickProvince('Nea');

    const typed = new OrderEntry(variant, start, variant.powers);
    typed.setText('F Rom S A Rav - Ete\nA Bru S F Nea', 'Rome');
    expect(accepted(clicked, 'Rome')).toEqual(['F Rom S A Rav - Ete', 'A Bru S F Nea']);
    expect(accepted(clicked, 'Rome')).toEqual(accepted(typed, 'Rome'));
  });

  it('a convoy: the fleet at sea, the army, then where it lands', () => {
    const state = convoyable;
    const clicked = new OrderEntry(variant, state, ['Carthage']);
    clicked.clickProvince('AFR');
    expect(clicked.actions).toContain('convoy');
    clicked.key('c');
    clicked.clickProvince('Car');
    expect(clicked.targets.map((t) => t.province)).toContain('Sar');
    clicked.clickProvince('Sar');
    clicked.clickProvince('Car');
    clicked.chooseAction('move');
    clicked.clickProvince('Sar');

    const typed = new OrderEntry(variant, state, ['Carthage']);
    typed.setText('F AFR C A Car - Sar\nA Car - Sar via convoy');
    expect(accepted(clicked, 'Carthage')).toEqual(accepted(typed, 'Carthage'));
    expect(accepted(clicked, 'Carthage')).toEqual(['F AFR C A Car - Sar', 'A Car - Sar via convoy']);
  });

  it('points out an army its own fleet convoys that is not ordered to go, with the move that matches', () => {
    const state = convoyable;
    const entry = new OrderEntry(variant, state, ['Carthage']);
    entry.setText('F AFR C A Car - Sar');
    const wanted = entry.convoysWithoutTheirMove();
    expect(wanted.map((w) => [w.army, formatOrder(w.move)])).toEqual([['Car', 'A Car - Sar via convoy']]);
    entry.give(wanted[0].move, 'Carthage');
    expect(accepted(entry, 'Carthage')).toEqual(['F AFR C A Car - Sar', 'A Car - Sar via convoy']);
    expect(entry.convoysWithoutTheirMove()).toEqual([]);
    // Ordered elsewhere, the army is pointed out again; another power's army is its own affair.
    entry.setText('F AFR C A Car - Sar\nA Car H');
    expect(entry.convoysWithoutTheirMove()).toHaveLength(1);
    const foreign = new OrderEntry(variant, position([state.units[0], { power: 'Rome', type: 'army', at: 'Car' }]), ['Carthage']);
    foreign.setText('F AFR C A Car - Sar');
    expect(accepted(foreign, 'Carthage')).toEqual(['F AFR C A Car - Sar']);
    expect(foreign.convoysWithoutTheirMove()).toEqual([]);
  });

  it('asks which coast when a fleet can reach both coasts of a province', () => {
    const state = position([{ power: 'Macedonia', type: 'fleet', at: 'Ath' }]);
    const entry = new OrderEntry(variant, state, ['Macedonia']);
    entry.clickProvince('Ath');
    entry.chooseAction('move');
    entry.clickProvince('Lar');
    expect(entry.selection?.choices?.map(formatOrder).sort()).toEqual(['F Ath - Lar/ec', 'F Ath - Lar/sc']);
    entry.give(entry.selection!.choices!.find((o) => formatOrder(o).endsWith('/ec'))!, 'Macedonia');
    expect(accepted(entry, 'Macedonia')).toEqual(['F Ath - Lar/ec']);
  });

  it('destroy (Z) on a centre where the engine allows it, and only there', () => {
    const entry = new OrderEntry(variant, start, variant.powers);
    entry.clickProvince('Bru');
    expect(entry.actions).toContain('destroy');
    expect(entry.key('z')).toBe(true);
    expect(entry.text).toBe('A Bru Z');
    // Rome is indestructible (rule 7): no Z for the fleet there.
    entry.clickProvince('Rom');
    expect(entry.actions).not.toContain('destroy');
    expect(entry.key('z')).toBe(false);
  });

  it('a new order for a unit replaces its old line, typed or clicked', () => {
    const entry = new OrderEntry(variant, start, variant.powers);
    entry.setText('A Rav - Ven\nF Nea H', 'Rome');
    entry.clickProvince('Rav');
    entry.chooseAction('hold');
    expect(entry.lines.Rome).toEqual(['F Nea H', 'A Rav H']);
  });

  it('shows why a typed line is rejected, on its own line', () => {
    const entry = new OrderEntry(variant, start, variant.powers);
    entry.setText('A Rav - Cis\n\nA Rav - Ven\nF Nowhere H\nA Had - Num', 'Rome');
    const lines = entry.checked.Rome;
    expect(lines.map((l) => [l.line, l.accepted])).toEqual([
      [0, true],
      [2, false],
      [3, false],
      [4, false],
    ]);
    expect(lines[1].reason).toMatch(/already has an order/);
    expect(lines[2].reason).toBeTruthy();
    expect(lines[3].reason).toMatch(/Carthage/);
  });

  it('retreats: a dislodged unit retreats or disbands, to the places the engine allows', () => {
    const state = position(
      [
        { power: 'Carthage', type: 'army', at: 'Rav' },
        { power: 'Rome', type: 'army', at: 'Cis' },
      ],
      { type: 'retreat' },
      { dislodged: [{ power: 'Rome', type: 'army', at: 'Rav', attackerFrom: 'Ven' }], standoffs: ['Ete'] },
    );
    const entry = new OrderEntry(variant, state, variant.powers);
    entry.clickProvince('Rav');
    expect(entry.selection).toMatchObject({ power: 'Rome', location: 'Rav' });
    expect(entry.actions).toEqual(['retreat', 'disband']);
    entry.key('m');
    const targets = entry.targets.map((t) => t.province);
    // Not into Cis (occupied), not Ven (the attacker came from there), not Ete (standoff).
    expect(targets).not.toContain('Cis');
    expect(targets).not.toContain('Ven');
    expect(targets).not.toContain('Ete');
    expect(targets).toContain('Rom');
    entry.clickProvince('Rom');
    expect(accepted(entry, 'Rome')).toEqual(['A Rav - Rom']);
    entry.clickProvince('Rav');
    entry.key('d');
    expect(accepted(entry, 'Rome')).toEqual(['A Rav disband']);
  });

  it('builds on free home centres, army or fleet, and waives', () => {
    // Rome without its fleet in Rom: builds due (as many as the engine's supply table says), Rom a free home centre.
    const state = position(
      start.units.filter((u) => u.at !== 'Rom'),
      { season: 'winter', type: 'adjustment' },
    );
    const entry = new OrderEntry(variant, state, ['Rome']);
    expect(entry.index.adjustment('Rome')).toBe(powerSummary(variant, state).find((s) => s.power === 'Rome')!.adjustment);
    expect(entry.index.adjustment('Rome')).toBeGreaterThan(0);
    expect(entry.index.orderables('Rome').map((o) => o.province)).toContain('Rom');
    entry.clickProvince('Rom');
    expect(entry.selection?.action).toBe('build');
    // The site is the only place to build for this selection: the choice comes at once.
    expect(entry.selection?.choices?.map(formatOrder)).toEqual(['Build A Rom', 'Build F Rom']);
    // Back from the choice goes back to no selection, not to a "Build what?" step whose only target is the site.
    entry.cancel();
    expect(entry.selection).toBeNull();
    entry.clickProvince('Rom');
    entry.give(entry.selection!.choices![1], 'Rome');
    expect(accepted(entry, 'Rome')).toEqual(['Build F Rom']);
    entry.setText('Waive');
    expect(accepted(entry, 'Rome')).toEqual(['Waive']);
    entry.setText('');
    expect(entry.key('w')).toBe(true);
    expect(entry.text).toBe('Waive');
  });

  it('an inland build site builds an army at the first click', () => {
    const state = position(
      start.units.filter((u) => u.at !== 'Arb'),
      { season: 'winter', type: 'adjustment' },
    );
    const entry = new OrderEntry(variant, state, ['Syria']);
    entry.clickProvince('Arb');
    expect(accepted(entry, 'Syria')).toEqual(['Build A Arb']);
  });

  it('offers no third fleet build in one adjustment (Diadochi V: at most two)', () => {
    // Rome without units: builds due on all four home centres, coastal ones offering army or fleet.
    const state = position(
      start.units.filter((u) => u.power !== 'Rome'),
      { season: 'winter', type: 'adjustment' },
    );
    const entry = new OrderEntry(variant, state, ['Rome']);
    expect(variant.data.rules.maxFleetBuilds).toBe(2);
    expect(entry.index.orderableAt('Rome', 'Rav')!.orders.map(formatOrder)).toContain('Build F Rav');
    expect(entry.fleetBuilds('Rome')).toBe(0);
    entry.setText('Build F Rom\nBuild F Nea');
    expect(accepted(entry, 'Rome')).toEqual(['Build F Rom', 'Build F Nea']);
    // The panel says so (fleetBuilds reaching maxFleetBuilds): further builds are armies.
    expect(entry.fleetBuilds('Rome')).toBe(2);
    // A third coastal site now builds an army at once: the fleet is no longer offered.
    entry.clickProvince('Rav');
    expect(accepted(entry, 'Rome')).toEqual(['Build F Rom', 'Build F Nea', 'Build A Rav']);
    // Choosing again for a site that already has a fleet keeps both choices (it replaces its own line).
    entry.clickProvince('Rom');
    expect(entry.selection?.choices?.map(formatOrder)).toEqual(['Build A Rom', 'Build F Rom']);
    // And the engine itself refuses a typed third fleet.
    entry.setText('Build F Rom\nBuild F Nea\nBuild F Rav');
    expect(entry.checked.Rome[2]).toMatchObject({ accepted: false });
  });

  it('B on a build site, as the map sends it (select, then the key), goes on to what to build there, or builds an army inland', () => {
    const entry = new OrderEntry(variant, adjustment, variant.powers);
    entry.select(entry.index.orderableAt('Rome', 'Nea')!);
    expect(entry.key('b')).toBe(true);
    expect(entry.selection?.choices?.map(formatOrder)).toEqual(['Build A Nea', 'Build F Nea']);
    entry.give(entry.selection!.choices![1], 'Rome');
    expect(accepted(entry, 'Rome')).toEqual(['Build F Nea']);

    const inland = new OrderEntry(
      variant,
      position(
        start.units.filter((u) => u.at !== 'Arb'),
        { season: 'winter', type: 'adjustment' },
      ),
      variant.powers,
    );
    inland.select(inland.index.orderableAt('Syria', 'Arb')!);
    // Selecting alone gives no order: the key does.
    expect(accepted(inland, 'Syria')).toEqual([]);
    expect(inland.key('b')).toBe(true);
    expect(accepted(inland, 'Syria')).toEqual(['Build A Arb']);
  });

  it('counts the builds left, and offers a waive only while some are left', () => {
    const entry = new OrderEntry(variant, adjustment, ['Rome']);
    expect(entry.index.adjustment('Rome')).toBe(3);
    expect(entry.adjustmentLeft()).toBe(3);
    entry.setText('Build F Nea\nBuild F Bru');
    expect(entry.adjustmentLeft()).toBe(1);
    expect(entry.canWaive).toBe(true);
    expect(entry.key('w')).toBe(true);
    expect(entry.adjustmentLeft()).toBe(0);
    // Every build is used: no second waive (the engine would refuse it: "all are already used").
    expect(entry.canWaive).toBe(false);
    expect(entry.key('w')).toBe(false);
    entry.chooseAction('waive');
    expect(entry.lines.Rome).toEqual(['Build F Nea', 'Build F Bru', 'Waive']);
    expect(entry.checked.Rome.every((l) => l.accepted)).toBe(true);
  });

  it('counts the removals left', () => {
    const extra = ['Ete', 'Ben', 'Cis', 'Ven'].map((at) => ({ power: 'Rome', type: 'army' as const, at }));
    const entry = new OrderEntry(variant, position([...start.units, ...extra], { season: 'winter', type: 'adjustment' }), ['Rome']);
    const due = -entry.index.adjustment('Rome');
    expect(due).toBeGreaterThan(0);
    expect(entry.adjustmentLeft()).toBe(due);
    entry.setText('Remove A Ete');
    expect(entry.adjustmentLeft()).toBe(due - 1);
    expect(entry.canWaive).toBe(false);
  });

  it('removals when a power has more units than supply', () => {
    const extra = ['Ete', 'Ben', 'Cis', 'Ven', 'Ill'].map((at) => ({ power: 'Rome', type: 'army' as const, at }));
    const state = position([...start.units, ...extra], { season: 'winter', type: 'adjustment' });
    const entry = new OrderEntry(variant, state, ['Rome']);
    expect(entry.index.adjustment('Rome')).toBeLessThan(0);
    entry.clickProvince('Ete');
    expect(entry.actions).toEqual(['remove']);
    entry.key('x');
    expect(accepted(entry, 'Rome')).toEqual(['Remove A Ete']);
  });

  it('steps back with cancel: coast choice, picked unit, action, selection', () => {
    const entry = new OrderEntry(variant, start, variant.powers);
    entry.clickProvince('Rom');
    entry.chooseAction('support');
    entry.clickProvince('Rav');
    entry.cancel();
    expect(entry.selection).toMatchObject({ action: 'support', picked: undefined });
    entry.cancel();
    expect(entry.selection).toEqual({ location: 'Rom', power: 'Rome' });
    entry.cancel();
    expect(entry.selection).toBeNull();
  });

  it('a click off the targets keeps the step and says so; the next click on a target gives the order', () => {
    const entry = new OrderEntry(variant, start, ['Rome']);
    entry.clickProvince('Rav');
    entry.chooseAction('move');
    entry.clickProvince('Sar');
    expect(entry.selection).toMatchObject({ location: 'Rav', action: 'move', missed: 'Sar' });
    entry.clickProvince('Ete');
    expect(entry.text).toBe('A Rav - Ete');
    expect(entry.selection).toBeNull();
    // Without an action chosen, a click elsewhere lets the unit go.
    entry.clickProvince('Rav');
    entry.clickProvince('Sar');
    expect(entry.selection).toBeNull();
  });

  it('in a game (one power) other powers’ units cannot be selected', () => {
    const entry = new OrderEntry(variant, start, ['Rome']);
    entry.clickProvince('Car');
    expect(entry.selection).toBeNull();
  });
});

describe('legal targets are the engine’s', () => {
  it('for every unit at the start and every action with a target, the highlighted provinces are exactly those of legalMovementOrders', () => {
    const board = compileBoard(variant, start.units);
    const eco = compileEconomy(variant, start);
    if (!board.ok || !eco.ok) throw new Error('invalid start');
    const entry = new OrderEntry(variant, start, variant.powers);
    const provinceOf = (loc: string) =>
      variant.provinceIds[variant.locationProvince[variant.locationIds.findIndex((l) => l.toLowerCase() === loc.toLowerCase())]];
    for (let u = 0; u < board.value.count; u++) {
      const legal: Order[] = legalMovementOrders(board.value, eco.value, u);
      const loc = variant.locationIds[board.value.location[u]];
      const orderable = entry.index.orderableAt(variant.powers[board.value.power[u]], loc)!;
      expect(orderable.orders).toEqual(legal);
      for (const action of actionsOf(orderable)) {
        if (action === 'move') {
          const expected = new Set(legal.flatMap((o) => (o.kind === 'move' ? [provinceOf(o.to)] : [])));
          expect(new Set(targetsOf(variant, orderable, 'move').map((t) => t.province))).toEqual(expected);
        }
        if (action === 'support') {
          const expected = new Set(legal.flatMap((o) => (o.kind === 'support' ? [provinceOf(o.supported.at)] : [])));
          const firstStep = targetsOf(variant, orderable, 'support');
          expect(new Set(firstStep.map((t) => t.province))).toEqual(expected);
          for (const t of firstStep) {
            const second = new Set(
              legal.flatMap((o) => (o.kind === 'support' && provinceOf(o.supported.at) === t.pick ? [o.to === undefined ? t.pick! : provinceOf(o.to)] : [])),
            );
            expect(new Set(targetsOf(variant, orderable, 'support', t.pick).map((x) => x.province))).toEqual(second);
          }
        }
      }
    }
    expect(findProvince(variant, 'Rav')).toBeGreaterThanOrEqual(0);
  });
});
