/**
 * What each view of the built client downloads (JavaScript, gzipped), from
 * Vite's manifest: the entry chunk, plus for a lazily loaded page its chunk
 * and everything it imports. Fails when the game view (the board's code:
 * order entry, rules engine, press, supply) or the sandbox passes its budget,
 * or when a variant's map drawing (its own chunk, `maps/<id>/map.svg?drawing`,
 * fetched beside the board's code by that variant's pages only) passes the
 * drawings' budget.
 *   npm run build && npm run size:web
 * bench/web.ts reads the same figures through viewSizes() and drawingSizes().
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const BUDGET_KB = 150;
/** A map drawing's chunk: Standard's, the largest (Europe's coasts from Norway to Syria), is about 53 KB. */
export const DRAWING_BUDGET_KB = 60;

export interface ViewSize {
  view: string;
  gzip_kb: number;
  budget_kb: number | null;
  files: string[];
}

type Chunk = { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; src?: string };

/** The views measured: [name, lazily loaded pages it opens, under the budget]. */
const VIEWS: [string, string[], boolean][] = [
  ['lobby (entry)', [], false],
  ['game view', ['src/pages/GameView.svelte'], true],
  ['game view, every tab', ['src/pages/GameView.svelte', 'src/game/PressPanel.svelte', 'src/game/SupplyPanel.svelte', 'src/game/GamePanel.svelte'], false],
  [
    'game view, every tab + GM tools',
    ['src/pages/GameView.svelte', 'src/game/PressPanel.svelte', 'src/game/SupplyPanel.svelte', 'src/game/GamePanel.svelte', 'src/game/GmTools.svelte'],
    false,
  ],
  ['sandbox', ['src/pages/Sandbox.svelte'], true],
  ['create game', ['src/pages/CreateGame.svelte'], false],
];

/** Gzipped JavaScript per view of a built client (`web/dist` by default). */
export function viewSizes(dist = path.join(import.meta.dirname, '..', 'dist')): ViewSize[] {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, Chunk>;
  const gz = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
  /** A chunk and its static imports, transitively (what the browser fetches for it). */
  const closure = (key: string, seen: Set<string>): Set<string> => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const i of manifest[key].imports ?? []) closure(i, seen);
    return seen;
  };
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  return VIEWS.map(([view, pages, budgeted]) => {
    const keys = closure(entryKey, new Set());
    for (const page of pages) closure(page, keys);
    const files = [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
    const total = files.reduce((sum, f) => sum + gz(f), 0) / 1024;
    return { view, gzip_kb: Math.round(total * 10) / 10, budget_kb: budgeted ? BUDGET_KB : null, files: files.map((f) => path.basename(f)) };
  });
}

/** Gzipped JavaScript of each variant's map drawing chunk, by variant id. */
export function drawingSizes(dist = path.join(import.meta.dirname, '..', 'dist')): ViewSize[] {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, Chunk>;
  return Object.entries(manifest).flatMap(([key, chunk]) => {
    const variant = /maps\/([^/]+)\/map\.svg\?drawing$/.exec(key)?.[1];
    if (!variant) return [];
    const kb = gzipSync(readFileSync(path.join(dist, chunk.file)), { level: 9 }).length / 1024;
    return [{ view: `${variant} map drawing`, gzip_kb: Math.round(kb * 10) / 10, budget_kb: DRAWING_BUDGET_KB, files: [path.basename(chunk.file)] }];
  });
}

// Run as a script (npm run size:web), not when imported (bench/web.ts).
if (process.argv[1]?.endsWith(path.join('web', 'scripts', 'size.ts'))) {
  const sizes = [...viewSizes(), ...drawingSizes()];
  for (const s of sizes)
    console.log(
      `${s.view.padEnd(32)} ${s.gzip_kb.toFixed(1).padStart(6)} KB gzipped JS${s.budget_kb ? ` (budget ${s.budget_kb} KB)` : ''}  [${s.files.join(', ')}]`,
    );
  const over = sizes.filter((s) => s.budget_kb !== null && s.gzip_kb > s.budget_kb);
  if (over.length) {
    console.error(`Over budget: ${over.map((s) => `${s.view} ${s.gzip_kb} KB > ${s.budget_kb} KB`).join('; ')}.`);
    process.exit(1);
  }
}
