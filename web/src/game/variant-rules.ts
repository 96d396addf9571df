/**
 * A variant's own rules in brief, for players who have not read them: sentences made from the variant's data
 * (centres by kind, build centres, rebels, coasts, canals, passages, its rule switches), so any variant added as
 * data gets its summary. The standard rules themselves are not repeated.
 */
import type { Variant } from '../../../shared/index.ts';
import { listInWords } from '../lib/format.ts';

export function rulesInBrief(variant: Variant): string[] {
  const { provinces, rules, specialLinks = [] } = variant.data;
  const name = new Map(provinces.map((p) => [p.id, p.name]));
  const names = (ids: readonly string[]) => listInWords(ids.map((id) => name.get(id) ?? id));
  const centres = provinces.filter((p) => p.centre);
  const lines: string[] = [];

  const { calendar } = rules;
  if (calendar.step < 0)
    lines.push(
      `Years count down, as in history: ${calendar.startYear - 1} ${calendar.era} follows ${calendar.startYear} ${calendar.era}.`.replace(/\s+\./, '.'),
    );

  const doubles = centres.filter((p) => p.centre!.supply === 2);
  if (doubles.length > 0) lines.push(`Double supply centres (two rings on the map) each supply two units: ${names(doubles.map((p) => p.id))}.`);
  for (const p of centres.filter((c) => c.centre!.supplyFor)) {
    for (const [power, supply] of Object.entries(p.centre!.supplyFor!)) {
      lines.push(`${p.name} supplies ${supply} units when ${power} holds it, and ${p.centre!.supply} for anyone else.`);
    }
  }
  const builds = provinces.filter((p) => p.buildCentre);
  if (builds.length > 0) {
    lines.push(
      `${names(builds.map((p) => p.id))} are special build centres (diamonds): not supply centres, but whoever controls one may build there as if it were a home centre.`,
    );
  }
  const rebels = centres.filter((p) => p.centre!.rebel);
  if (rebels.length > 0)
    lines.push(
      `${names(rebels.map((p) => p.id))} rebel: at each Winter count, one that no unit of its owner stands in becomes neutral again and supplies no one.`,
    );

  if (rules.destroyCentres) {
    const spared = centres.filter((p) => p.centre!.indestructible).map((p) => p.id);
    lines.push(
      `Destroy (Z): a unit in a supply centre may spend its season destroying it; a destroyed centre supplies no one.${spared.length ? ` ${names(spared)} cannot be destroyed.` : ''}`,
      'Rebuild (R): a unit in a destroyed centre that orders R in two seasons in a row rebuilds it; it supplies again from the next adjustment. A unit destroying or rebuilding does nothing else that season.',
    );
  }
  if (rules.loans) {
    lines.push(
      'Loans (Supply tab): a power may lend a centre it controls to a power that owns a centre; the borrower may lend it on. Either side may end a loan at any time but during an adjustment (which counts the loans as they stood when it opened), and the borrower then has until the next adjustment to find other support. No loan may force its lender to disband.',
    );
  }
  if (rules.maxFleetBuilds !== undefined) lines.push(`At most ${rules.maxFleetBuilds} fleets may be built by one power in one adjustment.`);

  const impassable = provinces.filter((p) => p.kind === 'impassable');
  if (impassable.length > 0)
    lines.push(`${names(impassable.map((p) => p.id))} ${impassable.length === 1 ? 'is' : 'are'} impassable (hatched): no unit may enter.`);
  const coasted = provinces.filter((p) => p.coasts);
  if (coasted.length > 0)
    lines.push(
      `${names(coasted.map((p) => p.id))} have two coasts: a fleet there says which (for example ${coasted[0].id}/${Object.keys(coasted[0].coasts!)[0]}).`,
    );
  const canals = specialLinks.filter((l) => l.kind === 'canal');
  if (canals.length > 0) {
    // A canal's province joins two places (two seas, or a river's reaches, or an island's two shores): say which.
    const joins = canals.map((l) => {
      const [at, ...ends] = l.between.map((id) => name.get(id) ?? id);
      return `${at} joins ${listInWords(ends)}`;
    });
    lines.push(`Canals (${joins.join('; ')}): a fleet there may come in from one and leave to the other.`);
  }
  const passages = specialLinks.filter((l) => l.kind === 'passage');
  if (passages.length > 0) {
    const pairs = passages.map((l) => `${name.get(l.between[0]) ?? l.between[0]}–${name.get(l.between[1]) ?? l.between[1]}`);
    lines.push(`Direct passages (${listInWords(pairs)}): any unit crosses as between neighbours, and fleets at sea pass beneath.`);
  }

  const { victory } = rules;
  lines.push(
    victory.type === 'self-supporting-units'
      ? `Victory: the first power with ${victory.count} units supported by centres it owns (not by loans); powers reaching it together share it.`
      : `Victory: the first power to hold ${victory.count} supply centres.`,
  );
  return lines;
}

/** A row of the supply table as the engine sums it up (powerSummary). */
interface SupplyRow {
  centres: readonly string[];
  selfSupporting: number;
}

/** The supply table's columns and the note under it, as the variant's data has them. */
export interface SupplyTableWords {
  /** Whether the Supply column shows: only where supply can differ from the centres held (centres worth more than one, loans). */
  supplyColumn: boolean;
  /** The Supply column's title (what it counts). */
  supplyTitle: string;
  /** The last column: progress towards victory, as the variant counts it. */
  victory: { header: string; title: string; count: number; value: (row: SupplyRow) => number };
  /** The note under the table: what counts as supply (when it is not one per centre) and what wins. */
  note: string;
}

export function supplyTableWords(variant: Variant): SupplyTableWords {
  const { provinces, rules } = variant.data;
  const centres = provinces.filter((p) => p.centre);
  const worth = [
    centres.some((p) => p.centre!.supply === 2) ? 'doubles give 2' : null,
    centres.some((p) => p.centre!.supply === 3) ? 'triples give 3' : null,
    ...centres.flatMap((p) => Object.entries(p.centre!.supplyFor ?? {}).map(([power, supply]) => `${p.name} gives ${power} ${supply}`)),
  ].filter((w): w is string => w !== null);
  const loans = !!rules.loans;
  const supplyTitle = `Units its held centres supply${worth.length ? `: ${worth.join(', ')}` : ''}${loans ? '; loans included' : ''}`;
  const { victory } = rules;
  const wins =
    victory.type === 'self-supporting-units'
      ? {
          header: `Own / ${victory.count}`,
          title: `Units covered by its own centres${loans ? ' not lent out' : ''}; ${victory.count} win`,
          count: victory.count,
          value: (row: SupplyRow) => row.selfSupporting,
          sentence: `${victory.count} units supplied by a power's own${loans ? ', unlent' : ''} centres win.`,
        }
      : {
          header: `Towards ${victory.count}`,
          title: `Supply centres held; ${victory.count} win`,
          count: victory.count,
          value: (row: SupplyRow) => row.centres.length,
          sentence: `${victory.count} supply centres win.`,
        };
  const capitalised = worth.length ? `${worth.join(', ').replace(/^./, (c) => c.toUpperCase())}. ` : '';
  return {
    supplyColumn: worth.length > 0 || loans,
    supplyTitle,
    victory: { header: wins.header, title: wins.title, count: wins.count, value: wins.value },
    note: `${capitalised}${wins.sentence}`,
  };
}
