/**
 * The variant's map drawing (maps/<variant>/map.svg), read into parts the map
 * component renders: province shapes it fills and makes interactive, the
 * static layers (background, rivers, coastline, passages, coast ticks) it
 * shows as drawn, and the labels it can toggle. The SVG file stays the one
 * source of the drawing; nothing here redraws geography. The build reads it
 * (`map.svg?drawing`, web/build/map-drawing.ts), so browsers get the parts
 * as JSON instead of parsing the SVG on every visit.
 */

/** The class on the map's <svg>, under which the drawing's stylesheet is scoped. */
export const MAP_SCOPE = 'dmap';

export interface ProvinceShape {
  id: string;
  kind: 'land' | 'coastal' | 'sea' | 'impassable';
  d: string;
}

export interface MapLabel {
  id: string;
  kind: string;
  x: number;
  y: number;
  text: string;
}

export interface MapDrawing {
  width: number;
  height: number;
  /** The drawing's own stylesheet, every rule scoped under `scope` so it cannot style the rest of the page. */
  css: string;
  /** `<defs>` children (patterns the stylesheet refers to), as markup. */
  defs: string;
  /** Layers under the provinces (water, land mass), as markup. */
  under: string;
  /** Layers over the provinces but under the pieces (rivers, coastline, islands, passages, coast ticks), as markup. */
  over: string;
  provinces: ProvinceShape[];
  labels: MapLabel[];
}

const kinds = new Set(['land', 'coastal', 'sea', 'impassable']);

/**
 * The province an event on the map happened on: the province shape's (`data-province`), or, for a supply-centre
 * marker (`data-centre`), the marker's own province, wherever it is drawn (some lie partly over a neighbour).
 */
export function provinceOfTarget(target: EventTarget | null): string | null {
  const element = (target as Element | null)?.closest?.('[data-province], [data-centre]');
  if (!element) return null;
  return element.getAttribute('data-province') ?? element.getAttribute('data-centre');
}

/** Prefix every selector of a flat stylesheet (no at-rules, as the generator writes it) with `scope`. */
export function scopeCss(css: string, scope: string): string {
  return css
    .split('}')
    .map((rule) => rule.trim())
    .filter((rule) => rule.includes('{'))
    .map((rule) => {
      const brace = rule.indexOf('{');
      const selectors = rule
        .slice(0, brace)
        .split(',')
        .map((s) => `${scope} ${s.trim()}`)
        .join(',');
      return `${selectors}${rule.slice(brace)}}`;
    })
    .join('\n');
}

/** The DOM classes reading needs: the page's own in a browser, a happy-dom window's at build time. */
export interface XmlDom {
  DOMParser: { new (): { parseFromString(text: string, type: 'image/svg+xml'): { documentElement: Element } } };
  XMLSerializer: { new (): { serializeToString(node: Element): string } };
}

/** Read a map SVG (as text) into its parts. */
export function readMapDrawing(svgText: string, scope: string, dom: XmlDom = globalThis): MapDrawing {
  const doc = new dom.DOMParser().parseFromString(svgText, 'image/svg+xml');
  const svg = doc.documentElement;
  if (svg.nodeName !== 'svg') throw new Error('map drawing: not an SVG document');
  const [, , width, height] = (svg.getAttribute('viewBox') ?? '0 0 1600 900').split(/\s+/).map(Number);
  const serializer = new dom.XMLSerializer();
  const markup = (nodes: Element[]) => nodes.map((n) => serializer.serializeToString(n)).join('');

  const defsElement = svg.querySelector('defs');
  const style = defsElement?.querySelector('style');
  const css = scopeCss(style?.textContent ?? '', scope);
  const defs = markup(Array.from(defsElement?.children ?? []).filter((c) => c.nodeName !== 'style'));

  const provinces: ProvinceShape[] = [];
  for (const path of Array.from(svg.querySelectorAll('#provinces > path'))) {
    const id = (path.getAttribute('id') ?? '').replace(/^p-/, '');
    const kind = (path.getAttribute('class') ?? '').split(/\s+/).find((c) => kinds.has(c)) as ProvinceShape['kind'] | undefined;
    const d = path.getAttribute('d');
    if (!id || !kind || !d) continue;
    provinces.push({ id, kind, d });
  }

  const labels: MapLabel[] = [];
  for (const text of Array.from(svg.querySelectorAll('#labels > text'))) {
    labels.push({
      id: (text.getAttribute('id') ?? '').replace(/^l-/, ''),
      kind: text.getAttribute('class') ?? '',
      x: Number(text.getAttribute('x')),
      y: Number(text.getAttribute('y')),
      // The label's own text, without its <title>.
      text: Array.from(text.childNodes)
        .filter((n) => n.nodeType === 3)
        .map((n) => n.textContent)
        .join('')
        .trim(),
    });
  }

  const under: Element[] = [];
  const over: Element[] = [];
  let seenProvinces = false;
  for (const child of Array.from(svg.children)) {
    const id = child.getAttribute('id');
    if (child.nodeName === 'defs' || child.nodeName === 'title' || child.nodeName === 'desc') continue;
    if (id === 'provinces') {
      seenProvinces = true;
      continue;
    }
    if (id === 'labels') continue;
    (seenProvinces ? over : under).push(child);
  }
  return { width, height, css, defs, under: markup(under), over: markup(over), provinces, labels };
}
