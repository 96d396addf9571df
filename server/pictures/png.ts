/**
 * An SVG map picture made a PNG, by resvg (@resvg/resvg-js), in libuv's thread pool so the event loop goes on
 * meanwhile. The fonts are the DejaVu faces the `dejavu-fonts-ttf` package ships, loaded from its folder and no
 * system font: the same letters on a developer's machine, in CI and in a slim container that has no fonts at all.
 * The drawings name Georgia and system-ui first; resvg falls back to the generic family, which these are.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';

const fontDir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FACES = ['DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf', 'DejaVuSerif-Italic.ttf', 'DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'];

const options: ResvgRenderOptions = {
  font: {
    fontFiles: FACES.map((face) => path.join(fontDir, face)),
    loadSystemFonts: false,
    defaultFontFamily: 'DejaVu Serif',
    serifFamily: 'DejaVu Serif',
    sansSerifFamily: 'DejaVu Sans',
  },
  // The picture at its drawing's own size (a pixel per unit): 1600 wide for the shipped maps.
  fitTo: { mode: 'original' },
  background: '#d3dcd8',
};

/** The PNG of an SVG document, with its size in pixels. */
export async function svgToPng(svg: string): Promise<{ png: Buffer; width: number; height: number }> {
  const image = await renderAsync(svg, options);
  return { png: image.asPng(), width: image.width, height: image.height };
}
