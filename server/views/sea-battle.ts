/**
 * A held phase's contested sea as everyone may see it (the orders that made it are public once the phase is held):
 * powers, fleets and sides, never who plays them, so an anonymous game shows nothing more here than on its map.
 */
import type { Campaign, SeaBattle, SeaBattleList } from '../../shared/api/campaign.ts';
import type { LiveEvent } from '../../shared/api/live.ts';
import type { SeaBattleRow } from '../db/tables/sea-battles.ts';
import { seaForcesOf } from '../play/sea-forces.ts';
import { viewed } from './viewed.ts';

const DECIDERS = ['battle', 'game-master', 'computer'] as const;
type Decider = (typeof DECIDERS)[number];
const deciderOf = (value: string | null): Decider | null => DECIDERS.find((d) => d === value) ?? null;

/** The sea, its sides (null while three or more powers met and the game master has not set them) and its fate. */
export function seaBattleView(row: SeaBattleRow, game: { campaign: Campaign | null }): SeaBattle {
  const forces = game.campaign ? seaForcesOf(game.campaign, row) : null;
  const sides = forces?.ok
    ? forces.value.sides.map((side) => ({
        id: side.id,
        name: side.name,
        powers: [...side.powers],
        fleets: side.fleets.map(({ power, unit, at, role }) => ({ power, unit, at, role })),
      }))
    : null;
  // The powers that met there, then those whose fleets' support made them part of the fight.
  const powers = [...new Set([...row.contested.powers, ...(sides ?? []).flatMap((side) => side.powers)])];
  return {
    sea: row.sea,
    seaName: row.contested.name,
    status: row.status,
    powers,
    sides,
    battleId: row.battleId,
    outcome: row.outcome,
    decidedBy: deciderOf(row.decidedBy),
    deadlineAt: row.deadlineAt?.toISOString() ?? null,
    odds: row.odds,
    // Powers, never who plays them: an anonymous game's names stay hidden.
    agreed: [...(row.autoResolveAgreed ?? [])],
  };
}

/** A route's answer: one sea. */
export function seaBattleAnswer(row: SeaBattleRow, game: { campaign: Campaign | null }): SeaBattle {
  return viewed(seaBattleView(row, game));
}

/** A route's answer: the seas of a phase. */
export function seaBattleListView(rows: readonly SeaBattleRow[], game: { campaign: Campaign | null }): SeaBattleList {
  return viewed({ seas: rows.map((row) => seaBattleView(row, game)) });
}

/** The sea changed: sides set, a battle opened, odds estimated, decided or waived, or a new sea to fight. */
export function seaChangedEvent(gameId: string, phaseIndex: number, row: SeaBattleRow, game: { campaign: Campaign | null }): LiveEvent {
  return { type: 'sea.changed', gameId, phaseIndex, sea: seaBattleView(row, game) };
}
