import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { compression } from 'vite-plugin-compression2';
import { earlyReadsSource } from './src/lib/early-reads.ts';
import { mapDrawing } from './build/map-drawing.ts';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
/** The API server `npm run dev` / `npm start` runs; override with API_TARGET=http://host:port. */
const apiTarget = process.env.API_TARGET ?? 'http://localhost:3000';

/**
 * A game's page needs the board's chunks (map, rules engine, order entry) and three API reads (the open phase once
 * the game's answer says it has one). The app asks for them once its own script has run; this tiny script, first in
 * the page, asks for them at once on a /games/<id> address, while the app's script is still on its way and the page
 * has nothing else to do (src/lib/early-reads.ts hands the answers to the app). (A file, not inline: the server's CSP
 * allows only 'self' scripts.)
 */
function preloadBoard(): Plugin {
  // Beside index.html, not in assets/: its name carries no content hash (index.html names it), so browsers must check it
  // on every visit as they do index.html; assets/ is cached for good (server/app.ts).
  const file = 'preload-board.js';
  return {
    name: 'preload-board',
    apply: 'build',
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const board = chunks.find((c) => c.facadeModuleId?.endsWith('/src/pages/GameView.svelte'));
      const entry = chunks.find((c) => c.isEntry);
      if (!board || !entry) return;
      const files = new Set<string>();
      const add = (name: string) => {
        const chunk = bundle[name];
        if (files.has(name) || name === entry.fileName || chunk?.type !== 'chunk') return;
        files.add(name);
        chunk.imports.forEach(add);
      };
      add(board.fileName);
      const hrefs = JSON.stringify([...files].map((f) => `/${f}`));
      this.emitFile({
        type: 'asset',
        fileName: file,
        source: `const [, first, id, rest] = location.pathname.split('/');
if (first === 'games' && /^[0-9a-f-]{36}$/i.test(id ?? '') && !rest && !location.search.includes('about')) {
  for (const href of ${hrefs}) document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href }));
  if (!location.search) globalThis.diadochiEarlyReads = (${earlyReadsSource()})(id);
}
`,
      });
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace('<script type="module"', `<script type="module" src="/${file}"></script>\n    <script type="module"`),
    },
  };
}

export default defineConfig({
  root: webDir,
  // Brotli and gzip copies of every script and stylesheet, made once at build time; the server sends the one the browser accepts.
  plugins: [svelte(), mapDrawing(), preloadBoard(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Source maps stay out of the served bundle; the size report is what players download.
    sourcemap: false,
    // Read by scripts/size.ts to measure what each view downloads.
    manifest: true,
  },
  server: {
    // The client imports the rules engine and the map from outside web/.
    fs: { allow: [repoRoot] },
    proxy: {
      '/api': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
});
