/** "1 squadron", "4 squadrons", "2 hexes": a count with its noun, in the singular for one. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
