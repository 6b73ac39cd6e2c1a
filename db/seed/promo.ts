/**
 * Demo promotional visuals (issue 30): an animated WebP (ANIMATED_IMAGE), and short WebM videos
 * (ANIMATION, VIDEO) with their posters, made at seed time from the series' own showcase art.
 * Nothing is downloaded and no encoder is needed: sharp draws each frame and encodes it as a lossy
 * WebP, whose 'VP8 ' chunk is a VP8 key frame, and those frames are written into a minimal WebM
 * (Matroska) file, every frame a key frame. Files are small (tens of KB) and, like the other
 * art, a pure function of the series: files that exist are not made again.
 */
import sharp from 'sharp';
import type { MediaStore } from '~/server/media-store';
import type { VisualFit, VisualType } from '~/features/catalog';
import { svgSources, type SeriesArtSpec } from './art';

export interface PromoDef {
  type: VisualType;
  fit?: VisualFit;
  label?: string;
  label_pt?: string;
  button?: string;
  button_pt?: string;
  /** '#rrggbb'; the series' colour when absent. */
  background?: string;
  text?: string;
}

/** The width and height of every demo promotional visual (16:9, the hero's narrow frame). */
export const PROMO_WIDTH = 640;
export const PROMO_HEIGHT = 360;
const FRAMES = 12;
const FPS = 8;

/** The media keys of a series' promotional visual. */
export function promoKeys(slug: string, type: VisualType): { media: string; poster: string | null } {
  const dir = `series/${slug}`;
  if (type === 'ANIMATED_IMAGE') return { media: `${dir}/promo-anim.webp`, poster: null };
  if (type === 'ANIMATION' || type === 'VIDEO') return { media: `${dir}/promo-${type.toLowerCase()}.webm`, poster: `${dir}/promo-poster.webp` };
  return { media: `${dir}/showcase.webp`, poster: null };
}

// ---------------------------------------------------------------- frames

/** A light sweep across the frame and a pulsing ring: enough motion to see, cheap to encode. */
function overlaySvg(i: number, n: number, color: string): Buffer {
  const t = i / n;
  const x = Math.round(-PROMO_WIDTH * 0.4 + t * PROMO_WIDTH * 1.8);
  const r = Math.round(30 + 24 * Math.sin(t * Math.PI * 2));
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PROMO_WIDTH}" height="${PROMO_HEIGHT}">` +
      `<defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset="0.5" stop-color="#fff" stop-opacity="0.45"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient></defs>` +
      `<polygon points="${x},0 ${x + 120},0 ${x + 40},${PROMO_HEIGHT} ${x - 80},${PROMO_HEIGHT}" fill="url(#g)"/>` +
      `<circle cx="${PROMO_WIDTH - 70}" cy="70" r="${r}" fill="none" stroke="${color}" stroke-width="8" opacity="0.9"/>` +
      `</svg>`,
  );
}

async function frames(spec: SeriesArtSpec): Promise<Buffer[]> {
  const base = await sharp(Buffer.from(svgSources.wideSvg(spec, 800, 450, 'showcase'))).resize(PROMO_WIDTH, PROMO_HEIGHT).png({ compressionLevel: 0 }).toBuffer();
  return Promise.all(Array.from({ length: FRAMES }, (_, i) => sharp(base).composite([{ input: overlaySvg(i, FRAMES, spec.color) }]).removeAlpha().png({ compressionLevel: 0 }).toBuffer()));
}

// ---------------------------------------------------------------- WebM

/** The VP8 key frame inside a simple lossy WebP ('RIFF' size 'WEBP' 'VP8 ' size data). */
export function vp8FrameOf(webp: Buffer): Buffer {
  if (webp.toString('ascii', 0, 4) !== 'RIFF' || webp.toString('ascii', 8, 12) !== 'WEBP') throw new Error('not a WebP');
  let at = 12;
  while (at + 8 <= webp.length) {
    const id = webp.toString('ascii', at, at + 4);
    const size = webp.readUInt32LE(at + 4);
    if (id === 'VP8 ') return webp.subarray(at + 8, at + 8 + size);
    at += 8 + size + (size % 2);
  }
  throw new Error('the WebP has no lossy VP8 frame');
}

function vint(n: number): Buffer {
  for (let len = 1; len <= 8; len++) {
    if (n < 2 ** (7 * len) - 1) {
      const out = Buffer.alloc(len);
      let v = n;
      for (let i = len - 1; i >= 0; i--) {
        out[i] = v % 256;
        v = Math.floor(v / 256);
      }
      out[0]! |= 1 << (8 - len);
      return out;
    }
  }
  throw new Error('element too large');
}

function uint(n: number): Buffer {
  const bytes: number[] = [];
  let v = n;
  do {
    bytes.unshift(v % 256);
    v = Math.floor(v / 256);
  } while (v > 0);
  return Buffer.from(bytes);
}

function el(id: number, data: Buffer | Buffer[]): Buffer {
  const body = Array.isArray(data) ? Buffer.concat(data) : data;
  return Buffer.concat([uint(id), vint(body.length), body]);
}

function float64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(n);
  return b;
}

/** A WebM of VP8 key frames (each a WebP's 'VP8 ' chunk), `fps` frames a second, with cues so players can seek to the start (loop). */
export function webmOf(vp8Frames: Buffer[], width: number, height: number, fps: number): Buffer {
  const frameMs = 1000 / fps;
  const header = el(0x1a45dfa3, [
    el(0x4286, uint(1)), el(0x42f7, uint(1)), el(0x42f2, uint(4)), el(0x42f3, uint(8)),
    el(0x4282, Buffer.from('webm')), el(0x4287, uint(2)), el(0x4285, uint(2)),
  ]);
  const info = el(0x1549a966, [
    el(0x2ad7b1, uint(1_000_000)),
    el(0x4d80, Buffer.from('inkpass-seed')),
    el(0x5741, Buffer.from('inkpass-seed')),
    el(0x4489, float64(vp8Frames.length * frameMs)),
  ]);
  const tracks = el(0x1654ae6b, el(0xae, [
    el(0xd7, uint(1)), el(0x73c5, uint(1)), el(0x83, uint(1)), el(0x86, Buffer.from('V_VP8')), el(0x9c, uint(0)),
    el(0x23e383, uint(Math.round(frameMs * 1_000_000))),
    el(0xe0, [el(0xb0, uint(width)), el(0xba, uint(height))]),
  ]));
  const blocks = vp8Frames.map((f, i) => {
    const head = Buffer.alloc(4);
    head[0] = 0x81; // track 1
    head.writeInt16BE(Math.round(i * frameMs), 1);
    head[3] = 0x80; // key frame
    return el(0xa3, Buffer.concat([head, f]));
  });
  const cluster = el(0x1f43b675, [el(0xe7, uint(0)), ...blocks]);
  const clusterAt = info.length + tracks.length;
  const cues = el(0x1c53bb6b, el(0xbb, [el(0xb3, uint(0)), el(0xb7, [el(0xf7, uint(1)), el(0xf1, uint(clusterAt))])]));
  const segment = el(0x18538067, [info, tracks, cluster, cues]);
  return Buffer.concat([header, segment]);
}

// ---------------------------------------------------------------- files

/** Makes the promotional media of these series that the store lacks; returns how many files were written. */
export async function ensurePromoMedia(store: Pick<MediaStore, 'exists' | 'put'>, items: { spec: SeriesArtSpec; promo: PromoDef }[]): Promise<number> {
  let written = 0;
  for (const { spec, promo } of items) {
    const keys = promoKeys(spec.slug, promo.type);
    if (promo.type === 'IMAGE') continue; // the showcase, made with the other art
    const present = await Promise.all([keys.media, keys.poster].filter((k): k is string => !!k).map((k) => store.exists(k)));
    if (present.every(Boolean)) continue;
    const pngs = await frames(spec);
    if (promo.type === 'ANIMATED_IMAGE') {
      const anim = await sharp(pngs, { join: { animated: true } }).webp({ quality: 60, effort: 2, loop: 0, delay: pngs.map(() => Math.round(1000 / FPS)) }).toBuffer();
      await store.put(keys.media, anim, 'image/webp');
      written += 1;
      continue;
    }
    const webps = await Promise.all(pngs.map((p) => sharp(p).webp({ quality: 40, effort: 2 }).toBuffer()));
    await store.put(keys.media, webmOf(webps.map(vp8FrameOf), PROMO_WIDTH, PROMO_HEIGHT, FPS), 'video/webm');
    await store.put(keys.poster!, await sharp(pngs[0]!).webp({ quality: 75, effort: 2 }).toBuffer(), 'image/webp');
    written += 2;
  }
  return written;
}
