/**
 * Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment), so that
 * "Mla" is as near "Mal" as "Mta": how many single-character edits turn `a` into `b`. Used to recognise
 * misspellings.
 */
export function editDistance(a: string, b: string): number {
  // Three rows: the one before last is needed for a swap.
  let before = new Array<number>(b.length + 1).fill(0);
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1);
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], before[j - 2] + 1);
    }
    before = last;
    last = row;
  }
  return last[b.length];
}
