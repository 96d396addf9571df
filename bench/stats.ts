/** Median and p99 of samples, and the one-line JSON record every benchmark prints. */
export interface Figure {
  bench: string;
  name: string;
  n: number;
  median_us: number;
  p99_us: number;
}

export function summarise(bench: string, name: string, samplesUs: number[]): Figure {
  const s = [...samplesUs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))];
  const round = (x: number) => Math.round(x * 100) / 100;
  return { bench, name, n: s.length, median_us: round(at(0.5)), p99_us: round(at(0.99)) };
}

/** Time `f` per call in microseconds: each sample averages `repeat` calls so timer resolution does not dominate. */
export function sample(f: () => unknown, repeat: number): number {
  const t0 = performance.now();
  for (let i = 0; i < repeat; i++) f();
  return ((performance.now() - t0) * 1000) / repeat;
}

export function printFigures(figures: Figure[]): void {
  const w = Math.max(...figures.map((f) => f.name.length));
  for (const f of figures)
    console.log(`${f.name.padEnd(w)}  median ${f.median_us.toFixed(2).padStart(9)} µs   p99 ${f.p99_us.toFixed(2).padStart(9)} µs   (n=${f.n})`);
  for (const f of figures) console.log(JSON.stringify(f));
}
