/**
 * Typed arrays cut from one buffer. V8 keeps a typed array of more than 64 bytes outside its heap, and allocating
 * one costs about 0.7 µs, more than resolving a handful of orders: an engine call that made each of its tables
 * apart spent a third of its time there. So a structure's tables (a board's, an economy's) share one allocation.
 */
export class Tables {
  private readonly buffer: ArrayBuffer;
  private offset = 0;

  /** `bytes`: the sum of the tables' sizes, with one spare byte before each 16-bit table after an 8-bit one. */
  constructor(bytes: number) {
    this.buffer = new ArrayBuffer(bytes);
  }

  int16(n: number, fill = 0): Int16Array {
    this.offset += this.offset & 1; // 16-bit tables start on an even byte
    const a = new Int16Array(this.buffer, this.offset, n);
    this.offset += 2 * n;
    if (fill !== 0) a.fill(fill);
    return a;
  }

  int8(n: number, fill = 0): Int8Array {
    const a = new Int8Array(this.buffer, this.offset, n);
    this.offset += n;
    if (fill !== 0) a.fill(fill);
    return a;
  }

  uint8(n: number): Uint8Array {
    const a = new Uint8Array(this.buffer, this.offset, n);
    this.offset += n;
    return a;
  }
}
