/// <reference types="vite/client" />
/// <reference types="svelte" />

/** Reads sent by the build's first script on a game's page (web/src/lib/early-reads.ts). */
declare var diadochiEarlyReads: Map<string, Promise<Response>> | undefined;
