/**
 * Wire types of the HTTP and websocket API: the server validates and documents
 * with these schemas, and the web client imports the same ones.
 */
export * from './common.ts';
export * from './errors.ts';
export * from './accounts.ts';
export * from './games.ts';
export * from './live.ts';
export * from './play.ts';
export * from './press.ts';
export * from './loans.ts';
export * from './draws.ts';
export * from './gm.ts';
export * from './archive.ts';
export * from './admin.ts';
export * from './profiles.ts';
