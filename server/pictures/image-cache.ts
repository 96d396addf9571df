/**
 * Map pictures kept in memory, least recently used first out, within a size in bytes: a phase's picture is drawn
 * once and then served from here until something newer pushes it out. Keys name what the picture shows (the phase's
 * content fingerprint and the format), so a changed phase is a new key and never meets its old picture.
 * A picture being drawn is shared by the requests that want it meanwhile, so a burst of viewers draws it once.
 */
export type CacheStats = { hits: number; misses: number; renders: number; bytes: number; entries: number };

export class ImageCache {
  private readonly entries = new Map<string, Buffer>();
  private readonly drawing = new Map<string, Promise<Buffer>>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private renders = 0;

  /** `maxBytes`: the most kept at once; a picture larger than that alone is drawn for its request and not kept. */
  constructor(readonly maxBytes: number) {
    if (!Number.isFinite(maxBytes) || maxBytes < 0) throw new Error(`map image cache: the size limit must be a number of bytes ≥ 0, not ${maxBytes}`);
  }

  /** The picture under `key`, drawn by `draw` when it is not kept; `hit` says whether it was. */
  async get(key: string, draw: () => Promise<Buffer>): Promise<{ image: Buffer; hit: boolean }> {
    const kept = this.entries.get(key);
    if (kept) {
      // Used again: to the back of the queue out.
      this.entries.delete(key);
      this.entries.set(key, kept);
      this.hits += 1;
      return { image: kept, hit: true };
    }
    this.misses += 1;
    let pending = this.drawing.get(key);
    if (!pending) {
      this.renders += 1;
      pending = draw().finally(() => this.drawing.delete(key));
      this.drawing.set(key, pending);
      const image = await pending;
      this.keep(key, image);
      return { image, hit: false };
    }
    return { image: await pending, hit: false };
  }

  stats(): CacheStats {
    return { hits: this.hits, misses: this.misses, renders: this.renders, bytes: this.bytes, entries: this.entries.size };
  }

  private keep(key: string, image: Buffer): void {
    if (image.length > this.maxBytes || this.entries.has(key)) return;
    this.entries.set(key, image);
    this.bytes += image.length;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.length;
    }
  }
}
