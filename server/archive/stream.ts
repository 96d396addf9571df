/** Exports on the wire: JSON or text pieces as bytes, at the pace of the reader. */
import { Readable } from 'node:stream';

/**
 * The pieces as a byte stream that asks for the next only once the client has
 * taken enough of the last (backpressure), cut off when the client takes
 * nothing for `stallMs` (a reader that stops would hold its export's place).
 */
export function streamOf(pieces: AsyncIterable<string>, stallMs: number): Readable {
  let timer: NodeJS.Timeout | undefined;
  async function* watched() {
    try {
      for await (const piece of pieces) {
        timer = setTimeout(() => stream.destroy(new Error(`export cut off: the client took nothing for ${stallMs} ms`)), stallMs);
        yield piece;
        clearTimeout(timer);
      }
    } finally {
      clearTimeout(timer);
    }
  }
  const stream = Readable.from(watched(), { objectMode: false, highWaterMark: 64 * 1024 });
  return stream;
}
