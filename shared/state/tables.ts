/**
 * Typed arrays cut from shared buffers. V8 keeps a typed array of more than 64 bytes outside its heap, and
 * allocating one costs about 0.7 µs, more than resolving a handful of orders: an engine call that made each of its
 * tables apart spent a third of its time there. So tables are cut from slabs, each serving a few dozen engine calls
 * (a slab costs a few µs, mostly whatever its size); a slab is freed when no table cut from it is left, so tables
 * kept for long (`lasting`) get a buffer of their own and pin no slab.
 */
const SLAB_BYTES = 64 * 1024;
/** Tables bigger than this get a buffer of their own. */
const OWN_BUFFER_BYTES = 4 * 1024;
let slab = new ArrayBuffer(0);
let slabUsed = 0;

/**
 * Scratch: one buffer reused call after call by the tables of a call that keeps none of them after it (adjudicate:
 * its outcome is plain data). `withScratchTables` lends it for the length of a call and zeroes what the call used.
 */
const SCRATCH_BYTES = 32 * 1024;
let scratch: Uint8Array | undefined;
let scratchUsed = 0;
let scratchDepth = 0;

/**
 * Runs `f` with its tables (bar `lasting` ones) cut from the scratch buffer while it has room: for a call none of
 * whose tables outlive it. Calls may nest; each gives back what it took.
 */
export function withScratchTables<T>(f: () => T): T {
  scratch ??= new Uint8Array(SCRATCH_BYTES);
  const mark = scratchUsed;
  scratchDepth++;
  try {
    return f();
  } finally {
    scratchDepth--;
    scratch.fill(0, mark, scratchUsed);
    scratchUsed = mark;
  }
}

export class Tables {
  private readonly buffer: ArrayBuffer;
  private offset: number;
  private readonly end: number;

  /**
   * `bytes`: the sum of the tables' sizes, with one spare byte before each 16-bit table after an 8-bit one.
   * `lasting`: the tables are kept beyond the call (a cache): a buffer of their own.
   */
  constructor(bytes: number, lasting = false) {
    if (lasting || bytes > OWN_BUFFER_BYTES) {
      this.buffer = new ArrayBuffer(bytes);
      this.offset = 0;
    } else if (scratchDepth > 0 && scratchUsed + bytes <= SCRATCH_BYTES) {
      this.buffer = scratch!.buffer as ArrayBuffer;
      this.offset = scratchUsed;
      scratchUsed += bytes + (bytes & 1);
    } else {
      if (slabUsed + bytes > slab.byteLength) {
        slab = new ArrayBuffer(SLAB_BYTES);
        slabUsed = 0;
      }
      this.buffer = slab;
      this.offset = slabUsed;
      slabUsed += bytes + (bytes & 1); // the next reservation starts on an even byte too
    }
    this.end = this.offset + bytes;
  }

  int16(n: number, fill = 0): Int16Array {
    this.offset += this.offset & 1; // 16-bit tables start on an even byte
    const a = new Int16Array(this.buffer, this.take(2 * n), n);
    if (fill !== 0) a.fill(fill);
    return a;
  }

  int8(n: number, fill = 0): Int8Array {
    const a = new Int8Array(this.buffer, this.take(n), n);
    if (fill !== 0) a.fill(fill);
    return a;
  }

  uint8(n: number): Uint8Array {
    return new Uint8Array(this.buffer, this.take(n), n);
  }

  /** Where the next `bytes` bytes start; past the reservation they would be another structure's. */
  private take(bytes: number): number {
    const at = this.offset;
    if (at + bytes > this.end) throw new Error('internal: a table does not fit the bytes reserved for it');
    this.offset += bytes;
    return at;
  }
}
