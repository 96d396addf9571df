/**
 * The measured table's geometry, shared by the rulesets played on an open table (the Diadochi Naval Rules in
 * cables, Oi Navarcoi! in inches): bases, distances, arcs, contact, line of sight, terrain and edges, moves as
 * checked paths, formations.
 */
export * from './vector.ts';
export * from './base.ts';
export * from './polygon.ts';
export * from './relations.ts';
export * from './table.ts';
export * from './motion.ts';
export * from './column.ts';
export * from './sweep.ts';
export * from './formation.ts';
