/**
 * The variants this client draws, in one place: every variant that ships a `maps/<id>/map.svg` is found at build time
 * (import.meta.glob), and its drawing (read into parts by web/build/map-drawing.ts) is its own chunk, loaded when a
 * page first needs it, so a game's page downloads its own map and no other. Everything else the board needs comes
 * from the variant's data through the engine (powers and colours, centres, label and unit points). A variant with no
 * drawing is still played through the API: the client shows its details page and says why there is no board.
 *
 * `registerDrawing` is the seam for a drawing that is not under maps/ (a test's fixture variant).
 */
import type { MapDrawing } from './drawing.ts';

export type DrawingLoader = () => Promise<MapDrawing>;

/** What the New game form and the sandbox say of a drawn variant, read from its variant.json. */
export interface DrawnVariantInfo {
  id: string;
  name: string;
  description: string | null;
}

// Paths relative to this file; the build resolves them, so the list is whatever maps/ holds when the client is built.
const shippedDrawings = import.meta.glob<MapDrawing>('../../../maps/*/map.svg', { query: '?drawing', import: 'default' });
// Every variant's name and description alone, drawn or not (`?about`, web/build/map-drawing.ts): a plain JSON import
// bundles the whole file.
const shippedAbout = import.meta.glob<DrawnVariantInfo>('../../../maps/*/variant.json', { query: '?about', import: 'default', eager: true });

/** The variant a file under maps/ belongs to: `…/maps/<id>/map.svg` gives `<id>`. */
export function variantOfMapFile(file: string): string {
  const id = /(?:^|\/)maps\/([a-z0-9-]+)\/[^/]+$/.exec(file)?.[1];
  if (!id) throw new Error(`variant-drawings: "${file}" is not a file of maps/<variant>/`);
  return id;
}

const loaders = new Map<string, DrawingLoader>();
const infos = new Map<string, DrawnVariantInfo>();
const loading = new Map<string, Promise<MapDrawing>>();
const loaded = new Map<string, MapDrawing>();

/**
 * Adds a drawn variant: its drawing's loader and what is said of it. Registering an id again replaces it (and
 * forgets a drawing already loaded), so a test may register its fixture in each run.
 */
export function registerDrawing(info: { id: string; name: string; description?: string | null }, load: DrawingLoader): void {
  if (!/^[a-z0-9-]+$/.test(info.id)) throw new Error(`variant-drawings: "${info.id}" is not a variant id (lower-case letters, digits and dashes)`);
  loaders.set(info.id, load);
  infos.set(info.id, { id: info.id, name: info.name, description: info.description ?? null });
  loading.delete(info.id);
  loaded.delete(info.id);
}

for (const [file, load] of Object.entries(shippedDrawings)) {
  const id = variantOfMapFile(file);
  const about = shippedAbout[file.replace(/map\.svg$/, 'variant.json')];
  if (!about || about.id !== id) throw new Error(`variant-drawings: ${file} has no variant.json beside it whose id is "${id}"`);
  registerDrawing(about, load);
}

/** Whether this client draws the variant's board. */
export const canDraw = (variant: string): boolean => loaders.has(variant);

/**
 * The site's own variant, offered first (the New game form's and the sandbox's first choice): the build's
 * VITE_SITE_VARIANT, else this site's namesake. The one place the client names a variant; a site built for another
 * sets the variable, and one that does not draw it starts on the first by name.
 */
export const SITE_VARIANT: string = import.meta.env.VITE_SITE_VARIANT || 'diadochi-v';

/** Every drawn variant: the site's own first, then the others by name. */
export function drawnVariants(): DrawnVariantInfo[] {
  return [...infos.values()].sort((a, b) => Number(b.id === SITE_VARIANT) - Number(a.id === SITE_VARIANT) || a.name.localeCompare(b.name));
}

const namesById = new Map(Object.values(shippedAbout).map((a) => [a.id, a.name]));

/** A variant's name as its data gives it ("Diadochi V" for diadochi-v); its id for one this build does not ship. */
export const variantTitle = (variant: string): string => infos.get(variant)?.name ?? namesById.get(variant) ?? variant;

/** What is said of a drawn variant; undefined for one this client does not draw. */
export const drawnVariant = (variant: string): DrawnVariantInfo | undefined => infos.get(variant);

/** The variant's drawing, loaded once (later calls share the first load); refused, naming it, for a variant not drawn. */
export function loadDrawing(variant: string): Promise<MapDrawing> {
  const started = loading.get(variant);
  if (started) return started;
  const load = loaders.get(variant);
  if (!load) {
    const known = [...loaders.keys()].sort().join(', ') || 'none';
    return Promise.reject(new Error(`There is no map drawing of the variant "${variant}" in this client (drawn: ${known}).`));
  }
  const promise = load().then(
    (drawing) => {
      loaded.set(variant, drawing);
      return drawing;
    },
    (e: unknown) => {
      // A failed download (the network) may be tried again.
      loading.delete(variant);
      throw e;
    },
  );
  loading.set(variant, promise);
  return promise;
}

/** The drawing if it has loaded already (a page mounted after it can show the map at once), else undefined. */
export const loadedDrawing = (variant: string): MapDrawing | undefined => loaded.get(variant);
