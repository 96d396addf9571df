/**
 * The variants games can be played in. The rules engine (shared/index.ts) loads
 * each variant's map data, maps/<variant>/variant.json, so the lobby takes the
 * number and names of the powers from it: one source for seats and for play.
 * A variant the API accepts but the engine does not ship yet is "unavailable".
 */
import { getVariant, rulebookOptions, type Variant } from '../../shared/index.ts';

export type VariantPower = { id: string; adjective: string; colour: string };

/** The engine's variant under a game's rule set (RULEBOOKS), or null when the engine cannot play it (yet). */
export function playableVariant(variantId: string, rules = 'datc'): Variant | null {
  return getVariant(variantId, rulebookOptions(rules)) ?? null;
}

/** The variant's powers in map order, or null when it is unavailable. */
export function variantPowers(variantId: string): VariantPower[] | null {
  const variant = playableVariant(variantId);
  return variant ? variant.data.powers.map(({ id, adjective, colour }) => ({ id, adjective, colour })) : null;
}
