/** How the log and the buttons name things. */
import { FACING_NAMES, type Facing, type Hex, toColumnRow } from '../hex.ts';
import { RULES, type Weapon } from './rules.ts';
import type { ShipState } from './state.ts';

export const hexName = (h: Hex): string => {
  const { col, row } = toColumnRow(h);
  return `${col},${row}`;
};

export const facingName = (f: Facing): string => FACING_NAMES[f];

/** "Quinquereme Leon". */
export const shipName = (s: Pick<ShipState, 'type' | 'name'>): string => `${RULES.shipTypes[s.type].name} ${s.name}`;

export const signed = (n: number): string => (n >= 0 ? `+${n}` : `${n}`);

export const WEAPON_NAMES: Record<Weapon, string> = { bow: 'bow', catapult: 'catapult', stoneThrower: 'stone thrower' };
