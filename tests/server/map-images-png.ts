/**
 * A small PNG reader for the map-image tests: the IHDR's size and the pixels (8-bit RGB or RGBA, not interlaced, as
 * resvg writes them), unfiltered by the PNG specification's five filters. Throws on anything else, naming it.
 */
import { inflateSync } from 'node:zlib';

export type DecodedPng = { width: number; height: number; pixel(x: number, y: number): [number, number, number] };

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function decodePng(png: Buffer): DecodedPng {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG: its signature is missing');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6))
        throw new Error(`PNG kind not read here: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? pixels[y * stride + i - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const upLeft = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels] : 0;
      let value = line[i];
      if (filter === 1) value += left;
      else if (filter === 2) value += up;
      else if (filter === 3) value += (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        value += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      } else if (filter !== 0) throw new Error(`PNG line ${y}: unknown filter ${filter}`);
      pixels[y * stride + i] = value & 255;
    }
  }
  return {
    width,
    height,
    pixel(x, y) {
      const at = Math.round(y) * stride + Math.round(x) * channels;
      return [pixels[at], pixels[at + 1], pixels[at + 2]];
    },
  };
}

/** Whether some pixel within `radius` of (x, y) is within `tolerance` (per channel) of the #rrggbb colour. */
export function colourNear(image: DecodedPng, x: number, y: number, colour: string, radius = 8, tolerance = 40): boolean {
  const c = parseInt(colour.slice(1), 16);
  const want = [(c >> 16) & 255, (c >> 8) & 255, c & 255];
  for (let dy = -radius; dy <= radius; dy++)
    for (let dx = -radius; dx <= radius; dx++) {
      const got = image.pixel(x + dx, y + dy);
      if (got.every((v, i) => Math.abs(v - want[i]) <= tolerance)) return true;
    }
  return false;
}
