/**
 * The Diadochi Naval Rules' movers for the table board: in the movement phase each of one's ships free to move,
 * and each group standing in formation (line abreast, line ahead), with the moves the rules give each (turn then
 * ahead, wheel, slant, back water; a column's run with one turn). The numbers become an order of legs, charging
 * (it stops on touching an enemy); the engine checks it and plans where the ships end.
 */
import { diadochiNaval } from '../../../shared/naval/diadochi-naval/engine.ts';
import type { Action, DnLeg, Formation } from '../../../shared/naval/diadochi-naval/actions.ts';
import { groupsOf } from '../../../shared/naval/diadochi-naval/choices.ts';
import { planOrder } from '../../../shared/naval/diadochi-naval/movement.ts';
import { RULES } from '../../../shared/naval/diadochi-naval/rules.ts';
import { type ShipState, type State, afloat, baseOf } from '../../../shared/naval/diadochi-naval/state.ts';
import { type Base, type ColumnLeg, type Leg, columnPath, rigidPath } from '../../../shared/naval/table/index.ts';
import { middleOf } from './table-picture.ts';
import { type MoveKind, type MoveNumbers, type Mover, NO_MOVE, type Planned, dragged } from './table-moves.ts';

const m = RULES.movement;

function kindsOf(formation: Formation): MoveKind[] {
  const run = (max: number) => ({ key: 'distance' as const, label: 'Distance (cables)', min: 0, max, step: 0.1 });
  const back = (max: number): MoveKind => ({ id: 'back', label: 'Back water', fields: [run(max)], drag: 'back', handle: null, allowance: max });
  if (formation === 'single')
    return [
      {
        id: 'ahead',
        label: 'Turn, then ahead',
        fields: [
          { key: 'turn', label: 'Turn first (°, + right)', min: -m.single.turn, max: m.single.turn, step: 1 },
          run(m.single.distance),
          { key: 'after', label: 'Turn at the end (°, + right)', min: -m.single.turn, max: m.single.turn, step: 1 },
        ],
        drag: 'toward',
        handle: 'after',
        allowance: m.single.distance,
      },
      back(m.single.back),
    ];
  if (formation === 'abreast')
    return [
      {
        id: 'wheel',
        label: 'Wheel, then ahead',
        fields: [{ key: 'turn', label: 'Wheel (°, + right)', min: -90, max: 90, step: 1 }, run(m.lineAbreast.distance)],
        drag: 'toward',
        handle: 'turn',
        allowance: m.lineAbreast.distance,
      },
      {
        id: 'oblique',
        label: 'Slant',
        fields: [
          { key: 'turn', label: 'Slant off the heading (°, + right)', min: -m.lineAbreast.slant, max: m.lineAbreast.slant, step: 1 },
          run(m.lineAbreast.distance),
        ],
        drag: 'toward',
        handle: null,
        allowance: m.lineAbreast.distance,
      },
      back(m.lineAbreast.back),
    ];
  return [
    {
      id: 'column',
      label: 'Ahead, the leader turning',
      fields: [
        { key: 'after', label: 'Ahead before the turn (cables)', min: 0, max: m.lineAhead.distance, step: 0.1 },
        { key: 'turn', label: 'Leader turns (°, + right)', min: -m.lineAhead.turn, max: m.lineAhead.turn, step: 1 },
        { key: 'distance', label: 'Ahead after the turn (cables)', min: 0, max: m.lineAhead.distance, step: 0.1 },
      ],
      drag: 'toward',
      handle: 'turn',
      allowance: m.lineAhead.distance,
    },
  ];
}

/** The order's legs for the numbers (zero legs dropped; at least one kept). */
export function legsOf(formation: Formation, kind: string, n: MoveNumbers): DnLeg[] {
  const legs: DnLeg[] = [];
  const turn = (degrees: number) => Math.abs(degrees) > 1e-9 && legs.push({ kind: 'turn', degrees });
  const ahead = (distance: number) => distance > 1e-9 && legs.push({ kind: 'ahead', distance });
  if (kind === 'back') legs.push({ kind: 'back', distance: n.distance });
  else if (kind === 'oblique') legs.push({ kind: 'oblique', degrees: n.turn, distance: n.distance });
  else if (kind === 'wheel') {
    if (Math.abs(n.turn) > 1e-9) legs.push({ kind: 'wheel', degrees: n.turn });
    ahead(n.distance);
  } else if (formation === 'ahead') {
    ahead(n.after);
    turn(n.turn);
    ahead(n.distance);
  } else {
    turn(n.turn);
    ahead(n.distance);
    turn(n.after);
  }
  return legs.length ? legs : [{ kind: 'ahead', distance: 0 }];
}

function mover(state: State, side: string, ships: ShipState[], formation: Formation): Mover {
  const bases = ships.map((s) => baseOf(s));
  const ids = ships.map((s) => s.id);
  const kinds = kindsOf(formation);
  const name = formation === 'single' ? ships[0].name : `${formation === 'abreast' ? 'Line abreast' : 'Line ahead'}: ${ships.map((s) => s.name).join(', ')}`;
  const enemies = state.ships.filter((s) => s.side !== side && afloat(s));
  let targets: string[] | undefined;
  const self: Mover = {
    key: ids.join('+'),
    name,
    pieces: ids,
    bases,
    anchor: middleOf(bases),
    heading: bases[0].heading,
    kinds,
    plan(kind: string, n: MoveNumbers): Planned {
      const legs = legsOf(formation, kind, n);
      const move = { kind: 'legs' as const, legs, charge: kind !== 'back' };
      const action: Action = { kind: 'order', ships: ids, formation, move };
      const path =
        formation === 'ahead'
          ? columnPath(
              bases,
              legs.filter((l): l is ColumnLeg => l.kind === 'ahead' || l.kind === 'turn'),
            )
          : rigidPath(bases, legs as Leg[]);
      const refusal = diadochiNaval.check(state, side, action);
      const measured = (p: typeof path) => (kind === 'back' ? p.measured.back : p.measured.ahead + p.measured.wheeled);
      if (refusal) return { action, bases: path.frames[path.frames.length - 1], refusal: refusal.message, used: measured(path) };
      const planned = planOrder(state, side, ids, formation, move);
      const end: readonly Base[] = planned.ok ? planned.plan.end : path.frames[path.frames.length - 1];
      const touched = planned.ok && planned.plan.contact ? enemies.find((e) => e.id === planned.plan.contact) : undefined;
      const target = touched ? { id: touched.id, name: touched.name } : null;
      return { action, bases: end, refusal: null, used: planned.ok ? measured(planned.plan.path) : measured(path), target };
    },
    /**
     * The enemies a charge of its first kind of move reaches (the engine stopping it on contact), worked out when
     * first asked for: only the picked mover's are.
     */
    get targets(): readonly string[] {
      if (targets) return targets;
      const reach = kinds[0].allowance;
      // Out of reach whatever the turn: the engine is not asked.
      const near = enemies.filter((e) => {
        const at = middleOf([baseOf(e)]);
        return Math.hypot(at.x - self.anchor.x, at.y - self.anchor.y) <= reach + 2;
      });
      targets = near.filter((e) => self.aim?.(e.id, 'melee') != null).map((e) => e.id);
      return targets;
    },
    /** A charge at the enemy: its first kind of move turned toward the enemy's middle, run until it touches it. */
    aim(target: string) {
      const enemy = enemies.find((e) => e.id === target);
      if (!enemy) return null;
      const kind = kinds[0];
      const toward = dragged(self, kind, middleOf([baseOf(enemy)]), NO_MOVE);
      // Run no further than the allowance: the charge stops where it touches the enemy, within it or not at all.
      const numbers = { ...toward, distance: Math.min(toward.distance, kind.allowance) };
      const planned = self.plan(kind.id, numbers);
      return planned.refusal === null && planned.target?.id === target ? { kind: kind.id, numbers } : null;
    },
  };
  return self;
}

const movable = (state: State, s: ShipState, side: string) =>
  s.side === side && afloat(s) && !s.crippled && !s.grappledWith && !s.ordered && !state.squadrons.find((q) => q.id === s.squadron)?.halted;

/** One's movers now: none outside one's movement phase. */
export function diadochiMovers(state: State, side: string): Mover[] {
  if (state.stage !== 'orders' || state.active !== side) return [];
  const out: Mover[] = [];
  for (const s of state.ships) if (movable(state, s, side)) out.push(mover(state, side, [s], 'single'));
  for (const g of groupsOf(state, side)) {
    if (g.flagged) continue;
    const ships = g.ships.map((id) => state.ships.find((s) => s.id === id)).filter((s): s is ShipState => s !== undefined);
    out.push(mover(state, side, ships, g.formation));
  }
  return out;
}
