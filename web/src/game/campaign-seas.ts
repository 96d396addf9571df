/**
 * Campaign play in words (shared/api/campaign.ts): a held phase's contested seas, each sea's sides, status, outcome
 * and odds as the board says them, and a sea changed (a live event, an action's answer) put into its phase.
 */
import type { SeaBattle, SeaOdds, SeaOutcome } from '../../../shared/api/campaign.ts';
import type { PhaseDetail } from '../../../shared/api/index.ts';
import { listInWords } from '../lib/format.ts';

export type { SeaBattle };

const count = new Intl.NumberFormat('en');

export const STATUS_WORDS: Record<SeaBattle['status'], string> = {
  undecided: 'awaiting the game master',
  fighting: 'being fought',
  decided: 'decided',
  waived: 'waived: ordinary rules',
};

/** A fleet in words: "F ION (attacking from Adriatic Sea)"; the sea's own holder "F ION (holding)". */
export function fleetWords(fleet: { unit: string; at: string; role: 'defender' | 'attacker' | 'support' }): string {
  const role = fleet.role === 'defender' ? 'holding' : fleet.role === 'attacker' ? `attacking from ${fleet.at}` : `supporting from ${fleet.at}`;
  return `${fleet.unit} (${role})`;
}

/** Who won the sea and how it was decided: "Egypt won the battle", "a standoff, decided by the game master". */
export function outcomeWords(sea: Pick<SeaBattle, 'status' | 'outcome' | 'decidedBy'>): string | null {
  if (sea.status === 'waived') return 'Waived by the game master: the ordinary rules decide it';
  if (!sea.outcome) return null;
  const what = 'winner' in sea.outcome ? `${sea.outcome.winner} won` : 'A standoff';
  const how =
    sea.decidedBy === 'battle' ? 'in battle' : sea.decidedBy === 'game-master' ? 'by the game master' : sea.decidedBy === 'computer' ? 'by the computer' : '';
  return how ? `${what} ${how}` : what;
}

/**
 * The fleets the sea's battle sank to the last ship, in words: "Macedonia's F Kor was lost with all its ships"; null
 * when none was.
 */
export function lostWords(sea: Pick<SeaBattle, 'outcome' | 'sides'>): string | null {
  const destroyed = sea.outcome?.destroyed ?? [];
  if (destroyed.length === 0) return null;
  const fleets = sea.sides?.flatMap((side) => side.fleets) ?? [];
  const named = destroyed.map((at) => {
    const fleet = fleets.find((f) => f.at === at);
    return fleet ? `${fleet.power}'s ${fleet.unit}` : `the fleet from ${at}`;
  });
  return `${listInWords(named)} ${named.length === 1 ? 'was' : 'were'} lost with all ${named.length === 1 ? 'its' : 'their'} ships`;
}

/** The outcome as a short tag for the map and the results list. */
export const outcomeShort = (outcome: SeaOutcome | null): string => (!outcome ? '' : 'winner' in outcome ? `${outcome.winner} won` : 'standoff');

/**
 * The odds so far: "312 of 1,000 battles: Egypt 61 %, Rome 35 %, drawn 4 %" (each side by its name, shares of the
 * battles fought so far); "Estimating the odds…" before the first battle is in.
 */
export function oddsWords(odds: SeaOdds, sides: readonly { id: string; name: string }[] | null): string {
  if (odds.battles === 0) return `Estimating the odds: 0 of ${count.format(odds.of)} battles fought…`;
  const share = (n: number) => `${Math.round((100 * n) / odds.battles)} %`;
  const ids = sides?.map((s) => s.id) ?? Object.keys(odds.won);
  const parts = ids.map((id) => `${sides?.find((s) => s.id === id)?.name ?? id} ${share(odds.won[id] ?? 0)}`);
  return `${count.format(odds.battles)} of ${count.format(odds.of)} battles: ${[...parts, `drawn ${share(odds.drawn)}`].join(', ')}`;
}

/** The powers of a sea in words: the two sides where set ("Egypt against Rome and Syria"), else every power met there. */
export function sidesWords(sea: Pick<SeaBattle, 'sides' | 'powers'>): string {
  if (sea.sides?.length === 2) return `${listInWords(sea.sides[0].powers)} against ${listInWords(sea.sides[1].powers)}`;
  return `${listInWords(sea.powers)} met here`;
}

/** One line for a sea (the map's marker and its tooltip): its name, the sides, its status or outcome. */
export function seaSummary(sea: SeaBattle): string {
  return `Sea battle in ${sea.seaName}: ${sidesWords(sea)}; ${outcomeWords(sea) ?? STATUS_WORDS[sea.status]}.`;
}

/** A held phase whose sea changed: the sea replaced in its list (added if the list did not have it yet). */
export function withSea<P extends Pick<PhaseDetail, 'seas'>>(phase: P, sea: SeaBattle): P {
  const known = phase.seas.some((s) => s.sea === sea.sea);
  return { ...phase, seas: known ? phase.seas.map((s) => (s.sea === sea.sea ? sea : s)) : [...phase.seas, sea] };
}

/** The powers fighting in the sea: both sides' powers where set, else every power that met there. */
export const fightingPowers = (sea: Pick<SeaBattle, 'sides' | 'powers'>): string[] => (sea.sides ? sea.sides.flatMap((side) => side.powers) : [...sea.powers]);

/**
 * Who agreed to auto-resolve the sea, as the card says it: "Rome has agreed to auto-resolve it; waiting for
 * Macedonia"; once decided by everyone's agreement, "Auto-resolved as Rome and Macedonia agreed"; null when nobody has.
 */
export function agreementWords(sea: Pick<SeaBattle, 'sides' | 'powers' | 'agreed' | 'status'>): string | null {
  const agreed = sea.agreed ?? [];
  if (agreed.length === 0) return null;
  const waiting = fightingPowers(sea).filter((power) => !agreed.includes(power));
  if (sea.status !== 'undecided') return waiting.length === 0 ? `Auto-resolved as ${listInWords(agreed)} agreed` : null;
  const who = `${listInWords(agreed)} ${agreed.length === 1 ? 'has' : 'have'} agreed to auto-resolve it`;
  return waiting.length ? `${who}; waiting for ${listInWords(waiting)}` : who;
}

/** The sides the game master is setting: each power on side 0 or 1; valid when each side has a power. */
export function sidesFrom(choice: Readonly<Record<string, 0 | 1>>, powers: readonly string[]): string[][] | null {
  const sides = [powers.filter((p) => choice[p] === 0), powers.filter((p) => choice[p] === 1)];
  return sides[0].length > 0 && sides[1].length > 0 && powers.every((p) => choice[p] === 0 || choice[p] === 1) ? sides : null;
}

/** The colour class of a sea's status on the map and in the list. */
export const statusClass = (status: SeaBattle['status']): string => `sea-${status}`;
