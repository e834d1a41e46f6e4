/**
 * Real PNG files for the tests of the photo widgets (image_uploader, document_uploader), and a stand-in for `createImageBitmap`, which jsdom lacks
 * (it has no image decoder). The stand-in is used ONLY to read dimensions: it decodes the PNG for real —
 * signature, IHDR with its CRC, every IDAT inflated and its length checked against the size — so a truncated
 * or renamed file fails as it would in a browser, and it returns the width and height from the file's own
 * header. EXIF orientation does not exist in these PNGs; the browser applies it (readOrientedSize asks for
 * `imageOrientation: 'from-image'`, which the stand-in records). Test-only: never imported by the app.
 */
import { deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  const typed = new TextEncoder().encode(type);
  out.set(typed, 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A grey-scale 8-bit PNG of `width` × `height` px (a soft gradient), as bytes. */
export function pngBytes(width: number, height: number): Uint8Array<ArrayBuffer> {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const raw = new Uint8Array(height * (width + 1));
  for (let y = 0; y < height; y += 1) {
    const row = y * (width + 1);
    for (let x = 0; x < width; x += 1) raw[row + 1 + x] = (x + y) & 0xff;
  }
  const parts = [
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A File holding a PNG of that size, with the given name and type. */
export function pngFile(width: number, height: number, name = 'photo.png', type = 'image/png'): File {
  return new File([pngBytes(width, height)], name, { type });
}

/** The width and height of a grey-scale PNG after decoding it fully; throws on anything else or a broken file. */
export function decodePngSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) throw new Error('not a PNG');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  let ended = false;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(bytes.subarray(at + 4, at + 8));
    if (at + 12 + length > bytes.length) throw new Error('truncated chunk');
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) {
      throw new Error('bad CRC');
    }
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    at += 12 + length;
  }
  if (!ended || width === 0 || height === 0) throw new Error('incomplete PNG');
  const joined = new Uint8Array(idat.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of idat) {
    joined.set(p, offset);
    offset += p.length;
  }
  if (inflateSync(joined).length !== height * (width + 1)) throw new Error('wrong image data length');
  return { width, height };
}

/** Options each call of the stand-in received. */
export const bitmapCalls: { options: ImageBitmapOptions | undefined }[] = [];

/** The stand-in for `createImageBitmap(blob, options)`: see the file's comment. */
export async function fakeCreateImageBitmap(
  source: Blob,
  options?: ImageBitmapOptions,
): Promise<ImageBitmap> {
  bitmapCalls.push({ options });
  const bytes = new Uint8Array(await source.arrayBuffer());
  const { width, height } = decodePngSize(bytes);
  return { width, height, close: () => undefined } as ImageBitmap;
}
