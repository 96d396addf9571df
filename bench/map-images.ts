/**
 * Map pictures (server/map-images/): one processed Diadochi V movement phase (random legal orders for every unit,
 * adjudicated), drawn as the server draws it: the SVG composed from the variant's drawing, and that SVG made a PNG
 * by resvg with its fonts (1600 × 944). Each figure is one picture, not a cached one: what a first viewer waits for.
 */
import { ENGINE_VERSION } from '../shared/version.ts';
import { getVariant } from '../shared/variants.ts';
import { adjudicate, initialState } from '../shared/game/process.ts';
import { phaseMapSvg, type PicturedPhase } from '../server/views/map-image.ts';
import { svgToPng } from '../server/pictures/png.ts';
import { randomOrders, seeded } from '../tests/support/random-game.ts';
import { summarise, type Figure } from './stats.ts';

const PICTURES = Number(process.env.MAP_IMAGE_PICTURES ?? 20);

export async function mapImageBenchmarks(): Promise<{ figures: Figure[]; pngBytes: number }> {
  const variant = getVariant('diadochi-v')!;
  const before = initialState(variant);
  const orders = randomOrders(variant, before, seeded(31));
  const outcome = adjudicate(variant, before, orders);
  if (!outcome.ok) throw new Error(`map-images bench: the random orders were refused: ${outcome.error.join('; ')}`);
  const phase: PicturedPhase = {
    index: 0,
    name: 'Spring 240 BC Movement',
    status: 'processed',
    engineVersion: ENGINE_VERSION,
    stateBefore: before,
    loanActions: [],
    results: outcome.value.results,
    disbanded: outcome.value.disbanded,
    stateAfter: outcome.value.next,
  };
  const game = { name: 'Benchmark' };
  const svgSamples: number[] = [];
  const pngSamples: number[] = [];
  let pngBytes = 0;
  // One of each first, untimed: the drawing read from disk, the fonts and resvg loaded.
  await svgToPng(phaseMapSvg(variant, game, phase)!);
  for (let n = 0; n < PICTURES; n++) {
    const t0 = performance.now();
    const svg = phaseMapSvg(variant, game, phase)!;
    const t1 = performance.now();
    const { png } = await svgToPng(svg);
    const t2 = performance.now();
    svgSamples.push((t1 - t0) * 1000);
    pngSamples.push((t2 - t1) * 1000);
    pngBytes = png.length;
  }
  return {
    figures: [
      summarise('map-images', 'Diadochi V processed phase, SVG composed', svgSamples),
      summarise('map-images', 'Diadochi V processed phase, SVG to PNG', pngSamples),
    ],
    pngBytes,
  };
}
