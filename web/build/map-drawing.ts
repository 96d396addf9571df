import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';
import { MAP_SCOPE, readMapDrawing, type XmlDom } from '../src/map/drawing.ts';

const QUERY = '?drawing';

/**
 * `import drawing from '…/map.svg?drawing'`: the map's parts (src/map/drawing.ts), read from the SVG at build
 * time and shipped as JSON. Reading the 100 KB drawing in the browser (parse, query, re-serialise) cost every
 * visit to a game 40-60 ms of main-thread time on a 2-core machine; JSON.parse of the result costs about 1 ms.
 */
export function mapDrawing(): Plugin {
  return {
    name: 'map-drawing',
    // Before Vite's own asset handling, which would otherwise serve the .svg as a file URL.
    enforce: 'pre',
    load: {
      // Rolldown calls the hook only for these ids, not for every module of the build.
      filter: { id: /\.svg\?drawing$/ },
      async handler(id) {
        const file = id.slice(0, -QUERY.length);
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
