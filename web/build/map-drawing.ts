import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';
import { MAP_SCOPE, readMapDrawing, type XmlDom } from '../src/map/drawing.ts';

const DRAWING = '?drawing';
const ABOUT = '?about';

/**
 * Two reads of a variant's files at build time, shipped as small modules:
 * - `import drawing from '…/map.svg?drawing'`: the map's parts (src/map/drawing.ts) as JSON. Reading the 100 KB
 *   drawing in the browser (parse, query, re-serialise) cost every visit to a game 40-60 ms of main-thread time on a
 *   2-core machine; JSON.parse of the result costs about 1 ms.
 * - `import about from '…/variant.json?about'`: the variant's name and description alone (what the New game form
 *   offers), not its provinces: a plain JSON import, even of one field, bundles the whole file.
 */
export function mapDrawing(): Plugin {
  return {
    name: 'map-drawing',
    // Before Vite's own asset and JSON handling, which would otherwise serve the .svg as a file URL and the .json whole.
    enforce: 'pre',
    load: {
      // Rolldown calls the hook only for these ids, not for every module of the build.
      filter: { id: /(\.svg\?drawing|\.json\?about)$/ },
      async handler(id) {
        if (id.endsWith(ABOUT)) {
          const file = id.slice(0, -ABOUT.length);
          this.addWatchFile(file);
          const data = JSON.parse(await readFile(file, 'utf8')) as { id?: unknown; name?: unknown; description?: unknown };
          if (typeof data.id !== 'string' || typeof data.name !== 'string') throw new Error(`${file}: a variant needs an "id" and a "name"`);
          const about = { id: data.id, name: data.name, description: typeof data.description === 'string' ? data.description : null };
          return `export default ${JSON.stringify(about)};`;
        }
        const file = id.slice(0, -DRAWING.length);
        this.addWatchFile(file);
        const { Window } = await import('happy-dom');
        const window = new Window();
        try {
          const drawing = readMapDrawing(await readFile(file, 'utf8'), `.${MAP_SCOPE}`, window as unknown as XmlDom);
          return `export default JSON.parse(${JSON.stringify(JSON.stringify(drawing))});`;
        } finally {
          await window.happyDOM.close();
        }
      },
    },
  };
}
