import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { nearLimitJpeg } from './photos';
import { processImage } from '../bff/services/images';
import { loadSharp } from '../bff/services/image-codecs';
const file = await nearLimitJpeg();
const meta = await sharp(file).metadata();
console.log('file', file.length, meta.width, meta.height, meta.chromaSubsampling);
await loadSharp();
const t = async (label: string, f: () => Promise<unknown>) => { const xs: number[] = []; for (let i = 0; i < 7; i++) { const s = performance.now(); await f(); xs.push(performance.now() - s); } xs.sort((a, b) => a - b); console.log(label.padEnd(30), xs.map((x) => x.toFixed(0)).join(' ')); };
await t('sha256', async () => createHash('sha256').update(file).digest('hex'));
await t('processImage', () => processImage(file));
const s = (await loadSharp());
const input = { limitInputPixels: 50_000_000, failOn: 'error' as const };
await t('metadata', () => s(file, input).metadata());
await t('display', () => s(file, input).autoOrient().flatten({ background: '#ffffff' }).resize({ width: 2048, withoutEnlargement: true }).jpeg({ quality: 82 }).toBuffer());
await t('display no optimiseCoding', () => s(file, input).autoOrient().flatten({ background: '#ffffff' }).resize({ width: 2048, withoutEnlargement: true }).jpeg({ quality: 82, optimiseCoding: false }).toBuffer());
await t('decode to raw 2048', () => s(file, input).autoOrient().flatten({ background: '#ffffff' }).resize({ width: 2048, withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true }));
const display = await s(file, input).resize({ width: 2048 }).jpeg({ quality: 82 }).toBuffer();
await t('thumb from display', () => s(display).resize({ width: 400 }).jpeg({ quality: 75 }).toBuffer());
const raw = await s(file, input).resize({ width: 2048 }).raw().toBuffer({ resolveWithObject: true });
await t('encode display from raw', () => s(raw.data, { raw: raw.info }).jpeg({ quality: 82 }).toBuffer());
await t('thumb from raw', () => s(raw.data, { raw: raw.info }).resize({ width: 400 }).jpeg({ quality: 75 }).toBuffer());
const phash = (await import('sharp-phash')).default;
const thumb = await s(display).resize({ width: 400 }).jpeg({ quality: 75 }).toBuffer();
await t('phash', () => phash(thumb));
const alt = async (bytes: Buffer) => {
  const m = await s(bytes, input).metadata();
  const { data, info } = await s(bytes, input).autoOrient().flatten({ background: '#ffffff' }).resize({ width: 2048, withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
  const rawIn = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const [display, thumbnail] = await Promise.all([
    s(data, rawIn).jpeg({ quality: 82 }).toBuffer(),
    s(data, rawIn).resize({ width: 400, withoutEnlargement: true }).jpeg({ quality: 75 }).toBuffer(),
  ]);
  return { m, display, thumbnail, phash: await phash(thumbnail) };
};
await t('alt processImage', () => alt(file));
await t('processImage', () => processImage(file));
s.concurrency(2);
await t('alt processImage, 2 threads', () => alt(file));
await t('processImage, 2 threads', () => processImage(file));
