import type { ControlChange, OrderResult, PhaseEvent, Unit, Variant } from '../../../shared/index.ts';
import { plural } from '../lib/format.ts';

/** Words for the engine's result codes, as the results list shows them. */
const codeLabels: Record<OrderResult['code'], string> = {
  held: 'Held',
  moved: 'Moved',
  bounced: 'Bounced',
  'no-route': 'No route',
  supported: 'Supported',
  'support-cut': 'Support cut',
  'support-void': 'Support void',
  convoyed: 'Convoyed',
  'convoy-disrupted': 'Convoy disrupted',
  'convoy-paradox': 'Convoy paradox',
  'convoy-void': 'Convoy void',
  'destroyed-centre': 'Centre destroyed',
  rebuilding: 'Rebuilding',
  'rebuilt-centre': 'Centre rebuilt',
  retreated: 'Retreated',
  'retreat-bounced': 'Retreat failed',
  disbanded: 'Disbanded',
  built: 'Built',
  removed: 'Removed',
  waived: 'Waived',
  'no-build-site': 'No free build site',
  // A removal the rules chose, for a power in civil disorder or one that ordered too few.
  'civil-disorder': 'Removed by rule',
  illegal: 'Illegal',
  unordered: 'No order',
};

/** A result's badge: its code in words, and whether the unit was dislodged ("Dislodged" for a unit that only held). */
export function resultBadge(result: Pick<OrderResult, 'code' | 'dislodgedBy'>): string {
  if (!result.dislodgedBy) return codeLabels[result.code];
  return result.code === 'held' || result.code === 'unordered' ? 'Dislodged' : `${codeLabels[result.code]}, dislodged`;
}

/**
 * Whether the results list shows a result. Not the engine's note that a power could use none of its builds (no free
 * build site left): nobody chose that waive, and the power had nothing it could adjust, so like a power with no
 * builds due it gets no row (webDiplomacy and Backstabbr show nothing either). A waive the player gave is listed.
 */
export function isListed(result: Pick<OrderResult, 'code'>): boolean {
  return result.code !== 'no-build-site';
}

/**
 * What a result's row says beside its badge: the order in notation, or, for builds the power left unordered (which
 * the engine writes as a "Waive" nobody gave), what came of them in words: "No order · 2 builds not used".
 */
export function resultOrder(result: Pick<OrderResult, 'code' | 'order' | 'parsed' | 'unused'>): { text: string; notation: boolean } {
  if (result.code === 'unordered' && result.parsed?.kind === 'waive') {
    const count = result.unused;
    return { text: count ? `${plural(count, 'build')} not used` : 'Builds not used', notation: false };
  }
  return { text: result.order, notation: true };
}

const name = (v: Variant, id: string) => v.data.provinces.find((p) => p.id === id)?.name ?? id;

/** A sentence for something that happened at the end of a phase. */
export function eventText(v: Variant, e: PhaseEvent): string {
  switch (e.kind) {
    case 'centre-destroyed':
      return `${e.by} destroyed the centre of ${name(v, e.province)}.`;
    case 'centre-rebuilt':
      return `${e.by} rebuilt the centre of ${name(v, e.province)}.`;
    case 'centre-captured':
      return `${e.to} took ${name(v, e.province)}${e.from ? ` from ${e.from}` : ''}.`;
    case 'centre-rebelled':
      return `${name(v, e.province)} rebelled against ${e.from} and is neutral again.`;
    case 'loan-ended':
      return `The loan of ${name(v, e.centre)} from ${e.from} to ${e.to} ended.`;
    case 'victory':
      return `Victory: ${e.powers.join(' and ')}!`;
    case 'unit-lost': {
      const type = e.unit.startsWith('A ') ? 'army' : 'fleet';
      const at = e.at.split('/')[0];
      return `${e.power}'s ${type} in ${name(v, at)} was lost with all its ships in the battle ${at === e.battle ? 'there' : `for ${name(v, e.battle)}`}.`;
    }
  }
}

/** A sentence for a special build centre that changed hands. */
export function controlText(v: Variant, c: ControlChange): string {
  return `${c.to} took control of ${name(v, c.province)}, a special build centre${c.from ? `, from ${c.from}` : ''}.`;
}

/** A sentence for a dislodged unit disbanded at once, having nowhere to retreat. */
export function disbandedText(v: Variant, u: Unit): string {
  return `${u.power}'s ${u.type} in ${name(v, u.at.split('/')[0])} had nowhere to retreat and was disbanded.`;
}
