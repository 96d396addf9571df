/// <reference types="vite/client" />
/// <reference types="svelte" />

/** Reads sent by the build's first script on a game's page (web/src/lib/early-reads.ts); null for one it did not send after all. */
declare var diadochiEarlyReads: Map<string, Promise<Response | null>> | undefined;

/** A map's SVG read into its parts at build time (web/build/map-drawing.ts). */
declare module '*.svg?drawing' {
  const drawing: import('./map/drawing.ts').MapDrawing;
  export default drawing;
}

/** A variant's name and description alone, read from its variant.json at build time (web/build/map-drawing.ts). */
declare module '*.json?about' {
  const about: { id: string; name: string; description: string | null };
  export default about;
}

interface ImportMetaEnv {
  /** The variant the site offers first (web/src/map/variant-drawings.ts); unset: diadochi-v. */
  readonly VITE_SITE_VARIANT?: string;
}
