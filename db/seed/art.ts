/**
 * Procedural demo art: series covers, banners, showcases, wallpapers and
 * logos, plus shared pools of chapter pages and chapter thumbnails. SVG is
 * built from the pieces in svg.ts and rendered to WebP with sharp. Every
 * image is a pure function of its name (seeded PRNG), and files that already
 * exist are not rendered again.
 */
import os from 'node:os';
import sharp from 'sharp';
import { DiskMediaStore, type MediaStore } from '~/server/media-store';
import { Rng, hashString } from './prng';
import {
  Doc,
  type FigureStyle,
  type Palette,
  bubble,
  bubbleSize,
  bust,
  caption,
  clouds,
  esc,
  figure,
  figureStyle,
  hills,
  landscape,
  mix,
  motionLines,
  palette,
  shade,
  sfx,
  silhouette,
  skyline,
  sky,
  speedLines,
  stars,
  sun,
  textWidth,
  titleText,
  wrap,
} from './svg';

export type Format = 'COMIC' | 'MANGA' | 'WEBTOON';

export interface SeriesArtSpec {
  slug: string;
  name: string;
  format: Format;
  /** '#rrggbb' */
  color: string;
  publisher: string;
  author: string;
}

export interface PoolImage {
  key: string;
  width: number;
  height: number;
}

export const POOL_SIZE = 24;
export const THUMB_WIDTH = 320;
export const THUMB_HEIGHT = 180;

// effort 2 encodes about twice as fast as the default 4 for a few percent more bytes.
const WEBP = { quality: 80, effort: 2 } as const;
const r1 = (v: number) => Math.round(v * 10) / 10;

// ---------------------------------------------------------------- keys

export type SeriesImageKind =
  | 'cover'
  | 'full_cover'
  | 'zoom_cover'
  | 'thumbnail'
  | 'thumbnail_140'
  | 'thumbnail_70'
  | 'banner'
  | 'showcase'
  | 'preview'
  | 'wallpaper'
  | 'logo';

/** The `images` JSON of a series whose art set is `artSlug` (its own slug for demo series). */
export function seriesImages(artSlug: string, format: Format): Record<SeriesImageKind, string> {
  const dir = `series/${artSlug}`;
  return {
    cover: `${dir}/cover-350.webp`,
    full_cover: `${dir}/cover-700.webp`,
    zoom_cover: `${dir}/cover-700.webp`,
    thumbnail: `${dir}/thumb-175.webp`,
    thumbnail_140: `${dir}/thumb-140.webp`,
    thumbnail_70: `${dir}/thumb-70.webp`,
    banner: `${dir}/banner.webp`,
    showcase: `${dir}/showcase.webp`,
    // Its own public file (a page-sized teaser drawn like one of the pool's pages): pool pages are
    // chapter pages, served only behind signed URLs, so a key there answered 404 (issue 30).
    preview: `${dir}/preview.webp`,
    wallpaper: `${dir}/wallpaper.webp`,
    logo: `${dir}/logo.webp`,
  };
}

const SPREADS = new Set([11, 20]);

/** The pool page a series' preview is drawn like (a single page, never a spread), by its art slug. */
function previewPage(artSlug: string, format: Format): { index: number; width: number; height: number } {
  const pages = poolPages(format).map((p, index) => ({ ...p, index })).filter((p) => p.width < p.height * 1.2);
  return pages[hashString(artSlug) % pages.length]!;
}

/** The page pool of a format, in order; sizes are fixed so rows can be built without rendering. */
export function poolPages(format: Format): PoolImage[] {
  const dir = format.toLowerCase();
  return Array.from({ length: POOL_SIZE }, (_, i) => {
    const key = `pool/${dir}/page-${String(i).padStart(2, '0')}.webp`;
    if (format === 'WEBTOON') return { key, width: 800, height: 1800 };
    return SPREADS.has(i) ? { key, width: 1800, height: 1350 } : { key, width: 900, height: 1350 };
  });
}

export function poolThumbs(): string[] {
  return Array.from({ length: POOL_SIZE }, (_, i) => `pool/thumbs/thumb-${String(i).padStart(2, '0')}.webp`);
}

// ---------------------------------------------------------------- covers and wide art

function fitTitle(name: string, width: number, maxSize: number, family: 'serif' | 'sans-serif', maxLines = 3, maxHeight = Infinity): { lines: string[]; size: number } {
  let best: { lines: string[]; size: number } | null = null;
  for (let chars = Math.max(6, Math.ceil(name.length / maxLines)); chars <= Math.max(name.length, 6); chars++) {
    const lines = wrap(name, chars);
    if (lines.length > maxLines) continue;
    const widest = Math.max(...lines.map((l) => textWidth(l, 1, family)));
    const size = Math.min(maxSize, width / widest, (maxSize * 2.6) / lines.length, maxHeight / (lines.length * 1.08));
    if (!best || size > best.size * 1.05) best = { lines, size };
  }
  return best ?? { lines: [name], size: maxSize };
}

function vignette(doc: Doc, w: number, h: number): string {
  return `<rect width="${w}" height="${h}" fill="${doc.radial([
    [0.55, '#000000', 0],
    [1, '#000000', 0.55],
  ])}"/>`;
}

function halftoneCorner(doc: Doc, w: number, h: number, color: string): string {
  const rng = doc.rng;
  const cx = rng.chance(0.5) ? w * rng.range(0.75, 1) : w * rng.range(0, 0.25);
  const cy = h * rng.range(0.05, 0.5);
  const r = Math.max(w, h) * rng.range(0.35, 0.55);
  const fill = doc.dots(color, Math.max(8, w / 44), Math.max(1.5, w / 260));
  return `<rect width="${w}" height="${h}" fill="${fill}" mask="${doc.fadeMask(cx, cy, r)}" opacity="0.5"/>`;
}

/** Series title lettering: large text with stroke, fitted to the width. */
function lettering(spec: SeriesArtSpec, x: number, y: number, width: number, maxSize: number, anchor: 'start' | 'middle', family: 'serif' | 'sans-serif', maxLines = 3, maxHeight = Infinity): { svg: string; bottom: number } {
  const { lines, size } = fitTitle(spec.name, width, maxSize, family, maxLines, maxHeight);
  const fill = mix(spec.color, '#ffffff', 0.78);
  const stroke = mix(spec.color, '#000000', 0.75);
  const svg = titleText(x, y + size * 0.8, lines, size, { family, fill, stroke, anchor });
  return { svg, bottom: y + size * 0.8 + (lines.length - 1) * size * 1.08 };
}

/** The series' protagonist: the same look on the cover, banner, showcase and wallpaper. */
function seriesCharacter(spec: SeriesArtSpec): FigureStyle {
  return figureStyle(new Rng(`character:${spec.slug}`), spec.color);
}

function coverSvg(spec: SeriesArtSpec): string {
  const W = 700;
  const H = 1000;
  const rng = new Rng(`cover:${spec.slug}`);
  const doc = new Doc(rng);
  const p = palette(rng, spec.color);
  const st = seriesCharacter(spec);
  const family = rng.chance(0.5) ? 'serif' : 'sans-serif';
  let body = sky(doc, 0, 0, W, H, p);
  if (p.night) body += stars(doc, 0, 0, W, H * 0.55, 90);
  const sx = W * rng.range(0.15, 0.85);
  const sy = H * rng.range(0.26, 0.42);
  body += sun(doc, sx, sy, rng.range(35, 70), p, rng.chance(0.7));
  body += clouds(doc, 0, H * 0.15, W, H * 0.3, mix(p.skyBottom, '#ffffff', 0.5), rng.int(2, 5));
  body += landscape(doc, 0, H * 0.38, W, H * 0.5, p);
  const mode = rng.float();
  if (mode < 0.55) {
    const cx = W * rng.range(0.38, 0.62);
    body += bust(doc, cx, H * rng.range(0.52, 0.58), W * rng.range(0.12, 0.15), H, st, rng.range(-1, 1));
  } else {
    if (rng.chance(0.5)) body += silhouette(doc, W * rng.range(0.08, 0.25), H * 0.9, H * 0.14, p.near) + silhouette(doc, W * rng.range(0.75, 0.92), H * 0.91, H * 0.16, p.near);
    body += hills(doc, 0, W, H * 0.93, H * 0.04, p.near, H);
    body += figure(doc, W * rng.range(0.42, 0.58), H * 0.97, H * rng.range(0.52, 0.58), st, rng.range(-1, 1));
  }
  body += halftoneCorner(doc, W, H, mix(spec.color, '#000000', 0.3));
  body += vignette(doc, W, H);
  // Title at the top; a band of colour behind the credits at the bottom.
  const t = lettering(spec, W / 2, 36, W * 0.88, 110, 'middle', family, 3, 300);
  body += t.svg;
  body += `<text x="${W / 2}" y="${r1(t.bottom + 44)}" font-family="sans-serif" font-size="22" letter-spacing="5" text-anchor="middle" fill="#fff" stroke="#000" stroke-width="3" paint-order="stroke">${esc(spec.author.toUpperCase())}</text>`;
  body += `<rect x="0" y="${H - 58}" width="${W}" height="58" fill="${mix(spec.color, '#000000', 0.6)}" opacity="0.85"/>`;
  body += `<text x="28" y="${H - 21}" font-family="sans-serif" font-weight="bold" font-size="22" letter-spacing="3" fill="#fff">${esc(spec.publisher.toUpperCase())}</text>`;
  body += `<rect x="${W - 150}" y="${H - 46}" width="124" height="34" rx="6" fill="${spec.color}" stroke="#fff" stroke-width="2"/>`;
  body += `<text x="${W - 88}" y="${H - 22}" font-family="sans-serif" font-weight="bold" font-size="18" text-anchor="middle" fill="#fff">${spec.format}</text>`;
  return doc.render(W, H, body);
}

function wideSvg(spec: SeriesArtSpec, W: number, H: number, kind: 'showcase' | 'wallpaper' | 'banner'): string {
  const rng = new Rng(`${kind}:${spec.slug}`);
  const doc = new Doc(rng);
  const p = palette(rng, spec.color);
  const st = seriesCharacter(spec);
  const family = rng.chance(0.5) ? 'serif' : 'sans-serif';
  let body = sky(doc, 0, 0, W, H, p);
  if (p.night) body += stars(doc, 0, 0, W, H * 0.6, Math.round(W / 8));
  body += sun(doc, W * rng.range(0.35, 0.6), H * rng.range(0.2, 0.45), H * 0.08, p, true);
  body += clouds(doc, 0, H * 0.1, W, H * 0.35, mix(p.skyBottom, '#ffffff', 0.5), rng.int(2, 5));
  body += landscape(doc, 0, H * 0.25, W, H * 0.75, p);
  // The character stands on one side, the title on the other.
  const right = rng.chance(0.7);
  const figW = Math.min(W * 0.4, H * 1.1);
  const cx = right ? W - figW / 2 : figW / 2;
  const r = Math.min(H * 0.15, figW * 0.15);
  body += bust(doc, cx, H - r * 4.2, r, H, st, right ? -0.8 : 0.8);
  body += halftoneCorner(doc, W, H, mix(spec.color, '#000000', 0.3));
  const pad = W * 0.05;
  const textW = W - figW - pad * 2;
  const tx = right ? pad : figW + pad;
  if (kind === 'banner') {
    const t = lettering(spec, tx, H * 0.1, textW, H * 0.42, 'start', family, 2, H * 0.78);
    body += t.svg;
  } else {
    const t = lettering(spec, tx, H * 0.1, textW, H * 0.22, 'start', family, 3, H * 0.6);
    body += t.svg;
    const credits = `${spec.author} · ${spec.publisher}`.toUpperCase();
    const cs = Math.min(H * 0.05, (textW * 0.8) / textWidth(credits, 1));
    body += `<text x="${r1(tx)}" y="${r1(Math.min(H - 20, t.bottom + H * 0.12))}" font-family="sans-serif" font-weight="bold" font-size="${r1(cs)}" letter-spacing="2" fill="#fff" stroke="#000" stroke-width="3" paint-order="stroke">${esc(credits)}</text>`;
  }
  return doc.render(W, H, body);
}

function logoSvg(spec: SeriesArtSpec): string {
  const W = 400;
  const H = 120;
  const rng = new Rng(`logo:${spec.slug}`);
  const doc = new Doc(rng);
  const family = rng.chance(0.5) ? 'serif' : 'sans-serif';
  const { lines, size } = fitTitle(spec.name, W * 0.92, 64, family, 2, H * 0.8);
  const total = lines.length * size * 1.02;
  const y0 = (H * 0.9 - total) / 2 + size * 0.8;
  const swashY = y0 + (lines.length - 1) * size * 1.02 + size * 0.22;
  const fill = doc.linear([
    [0, mix(spec.color, '#ffffff', 0.55)],
    [1, spec.color],
  ]);
  let body = '';
  // A swash under the lettering.
  body += `<path d="M${W * 0.1} ${r1(swashY)}Q${W / 2} ${r1(swashY - 10)} ${W * 0.9} ${r1(swashY)}L${W * 0.86} ${r1(swashY + 7)}Q${W / 2} ${r1(swashY - 2)} ${W * 0.14} ${r1(swashY + 7)}Z" fill="${shade(spec.color, -0.1)}" opacity="0.9"/>`;
  lines.forEach((l, i) => {
    const attrs = `font-family="${family}" font-weight="900" font-size="${r1(size)}" text-anchor="middle"`;
    const y = y0 + i * size * 1.02;
    body +=
      `<text x="${W / 2 + 3}" y="${r1(y + 3)}" ${attrs} fill="#000" opacity="0.5">${esc(l)}</text>` +
      `<text x="${W / 2}" y="${r1(y)}" ${attrs} fill="${fill}" stroke="#fff" stroke-width="${r1(size * 0.12)}" paint-order="stroke" stroke-linejoin="round">${esc(l)}</text>` +
      `<text x="${W / 2}" y="${r1(y)}" ${attrs} fill="none" stroke="${mix(spec.color, '#000000', 0.7)}" stroke-width="1.5">${esc(l)}</text>`;
  });
  return doc.render(W, H, body);
}

// ---------------------------------------------------------------- pages

const LINES = [
  'Wait!',
  'Where are you going?',
  "We can't stay here.",
  "It's coming!",
  'Did you hear that?',
  'Not again...',
  'Trust me.',
  'Run!',
  "I promised I'd come back.",
  'Who are you?',
  'This is it.',
  'Hold on!',
  'Look, up there!',
  'Heh. Too slow.',
  'The lantern is glowing...',
  'Stay behind me!',
  'Tomorrow, then.',
  'Is this the place?',
  "You're late.",
  "I won't lose again!",
  'What was that?!',
  'Follow the river.',
  'Keep it secret.',
  'Thank you.',
];
const SHOUTS = ['RUN!', 'NOW!', 'LOOK OUT!', 'STOP!', 'NO!!'];
const SFX = ['KRAK!', 'FWOOSH', 'BOOM!', 'SHING', 'THUD', 'ZAAP!', 'WHAM!', 'DOKUN'];
const CAPTIONS = ['Meanwhile...', 'Three days later.', 'The old harbour.', 'That night...', 'Somewhere north.', 'Long ago.'];

interface Cast {
  a: FigureStyle;
  b: FigureStyle;
  p: Palette;
}

type Poly = [number, number][];

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const bbox = (poly: Poly): Box => {
  const xs = poly.map((q) => q[0]);
  const ys = poly.map((q) => q[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
};
const polyPath = (poly: Poly) => `M${poly.map(([x, y]) => `${r1(x)} ${r1(y)}`).join('L')}Z`;

/** Rows of panels with gutters; some vertical dividers are slanted. */
function panelLayout(rng: Rng, x: number, y: number, w: number, h: number, gutter: number, maxRows = 4): Poly[] {
  const rows = rng.int(Math.min(2, maxRows), maxRows);
  const weights = Array.from({ length: rows }, () => rng.range(0.7, 1.4));
  const sum = weights.reduce((a, b) => a + b, 0);
  const panels: Poly[] = [];
  let cy = y;
  weights.forEach((wt) => {
    const rh = ((h - gutter * (rows - 1)) * wt) / sum;
    const cols = rows === 4 ? rng.int(1, 2) : rng.int(1, 3);
    const cw = Array.from({ length: cols }, () => rng.range(0.6, 1.4));
    const csum = cw.reduce((a, b) => a + b, 0);
    let cx = x;
    let prevSlant = 0;
    cw.forEach((c, ci) => {
      const pw = ((w - gutter * (cols - 1)) * c) / csum;
      const slant = ci < cols - 1 && rng.chance(0.35) ? rng.range(-0.12, 0.12) * pw : 0;
      const left = cx;
      const right = cx + pw;
      panels.push([
        [left + prevSlant, cy],
        [right + slant, cy],
        [right - slant, cy + rh],
        [left - prevSlant, cy + rh],
      ]);
      prevSlant = slant;
      cx = right + gutter;
    });
    cy += rh + gutter;
  });
  return panels;
}

/**
 * One scene inside a box (the caller clips it). Returns the SVG and where the
 * speakers' heads are, for bubble tails.
 */
function scene(doc: Doc, b: Box, cast: Cast, kind: string, manga: boolean): { svg: string; heads: [number, number][] } {
  const rng = doc.rng;
  const { p } = cast;
  const heads: [number, number][] = [];
  let out = '';
  const bg = manga ? '#ffffff' : mix(p.skyBottom, '#ffffff', 0.35);
  out += `<rect x="${r1(b.x)}" y="${r1(b.y)}" width="${r1(b.w)}" height="${r1(b.h)}" fill="${doc.c(bg)}"/>`;
  const unit = Math.min(b.w, b.h);
  if (kind === 'establishing') {
    if (!manga) out += sky(doc, b.x, b.y, b.w, b.h, p);
    else out += `<rect x="${r1(b.x)}" y="${r1(b.y)}" width="${r1(b.w)}" height="${r1(b.h * 0.6)}" fill="${doc.dots('#555555', 12, 2.2)}" opacity="0.55"/>`;
    out += sun(doc, b.x + b.w * rng.range(0.2, 0.8), b.y + b.h * 0.3, unit * 0.06, p, !manga && rng.chance(0.5));
    out += landscape(doc, b.x, b.y + b.h * 0.2, b.w, b.h * 0.8, manga ? { ...p, far: '#9a9a9a', mid: '#4a4a4a', near: '#111111' } : p);
    const n = rng.int(0, 2);
    for (let i = 0; i < n; i++) {
      const fx = b.x + b.w * rng.range(0.2, 0.8);
      out += silhouette(doc, fx, b.y + b.h * 0.97, b.h * 0.22, '#111111');
      heads.push([fx, b.y + b.h * 0.78]);
    }
  } else if (kind === 'closeup' || kind === 'eyes') {
    if (manga) {
      out += rng.chance(0.5)
        ? speedLines(doc, b.x + b.w / 2, b.y + b.h / 2, unit * 0.35, Math.hypot(b.w, b.h), '#111111', 90)
        : `<rect x="${r1(b.x)}" y="${r1(b.y)}" width="${r1(b.w)}" height="${r1(b.h)}" fill="${doc.dots('#333333', 11, 2.6)}" opacity="0.6"/>`;
    } else {
      out += `<rect x="${r1(b.x)}" y="${r1(b.y)}" width="${r1(b.w)}" height="${r1(b.h)}" fill="${doc.radial([
        [0, mix(p.sun, '#ffffff', 0.3), 1],
        [1, p.skyBottom, 1],
      ])}"/>`;
      out += `<rect x="${r1(b.x)}" y="${r1(b.y)}" width="${r1(b.w)}" height="${r1(b.h)}" fill="${doc.dots(p.accent, 14, 2.4)}" opacity="0.35"/>`;
    }
    const st = rng.chance(0.6) ? cast.a : cast.b;
    if (kind === 'eyes') {
      const r = b.w * 0.33;
      out += bust(doc, b.x + b.w / 2, b.y + b.h / 2 - r * 0.25, r, b.y + b.h + r * 4, st, rng.range(-1, 1));
    } else {
      const r = Math.min(b.w * 0.2, b.h * 0.26);
      const cx = b.x + b.w * rng.range(0.35, 0.65);
      const cy = b.y + b.h * 0.42;
      out += bust(doc, cx, cy, r, b.y + b.h, st, rng.range(-1, 1));
      heads.push([cx, cy + r * 1.2]);
    }
  } else if (kind === 'action') {
    const fx = b.x + b.w * rng.range(0.35, 0.65);
    if (manga) out += speedLines(doc, fx, b.y + b.h * 0.45, unit * 0.25, Math.hypot(b.w, b.h), '#111111', 120);
    else {
      out += sky(doc, b.x, b.y, b.w, b.h, p);
      out += speedLines(doc, fx, b.y + b.h * 0.45, unit * 0.3, Math.hypot(b.w, b.h), mix(p.sun, '#ffffff', 0.5), 70);
    }
    const h = Math.min(b.h * rng.range(0.85, 1.1), b.w * 1.3);
    out += figure(doc, fx, b.y + b.h * 0.05 + h, h, rng.chance(0.5) ? cast.a : cast.b, rng.range(-1, 1));
    out += motionLines(doc, b.x, b.y + b.h * 0.55, b.w, b.h * 0.4, manga ? '#222222' : '#ffffff', 10);
    // Sound effect lettering in the larger free space beside the figure.
    const word = rng.pick(SFX);
    const half = h * 0.28;
    const leftW = fx - half - b.x;
    const rightW = b.x + b.w - (fx + half);
    const room = Math.max(leftW, rightW, b.w * 0.3);
    const fs = Math.max(18, Math.min(unit * rng.range(0.14, 0.22), (room * 0.85) / textWidth(word, 1)));
    const sx = leftW >= rightW ? b.x + Math.max(8, leftW - textWidth(word, fs)) * rng.range(0.1, 0.6) : fx + half + 8;
    out += sfx(doc, sx, b.y + b.h * rng.range(0.3, 0.55), word, fs, rng.range(-18, 12), manga ? '#ffffff' : '#ffd23f');
  } else if (kind === 'two-shot') {
    if (manga) out += `<rect x="${r1(b.x)}" y="${r1(b.y + b.h * 0.55)}" width="${r1(b.w)}" height="${r1(b.h * 0.45)}" fill="${doc.hatch('#777777', 7, 1.5)}" opacity="0.6"/>`;
    else {
      out += sky(doc, b.x, b.y, b.w, b.h, p);
      out += skyline(doc, b.x, b.w, b.y + b.h * 0.75, b.h * 0.4, mix(p.far, '#ffffff', 0.2), null);
    }
    const r = Math.min(b.w * 0.13, b.h * 0.18);
    const y0 = b.y + b.h * 0.5;
    out += bust(doc, b.x + b.w * 0.27, y0, r, b.y + b.h, cast.a, 1);
    out += bust(doc, b.x + b.w * 0.73, y0 + r * 0.15, r * 0.95, b.y + b.h, cast.b, -1);
    heads.push([b.x + b.w * 0.27, y0 - r * 1.1], [b.x + b.w * 0.73, y0 - r]);
  } else {
    // interior: wall, a window onto the outside, a figure.
    const wall = manga ? '#dddddd' : mix(p.mid, '#ffffff', 0.55);
    out += `<rect x="${r1(b.x)}" y="${r1(b.y)}" width="${r1(b.w)}" height="${r1(b.h)}" fill="${doc.c(wall)}"/>`;
    const ww = b.w * 0.35;
    const wx = b.x + b.w * rng.range(0.08, 0.55);
    const wy = b.y + b.h * 0.12;
    const wh = b.h * 0.45;
    out += `<g clip-path="${doc.clipRect(wx, wy, ww, wh)}">${sky(doc, wx, wy, ww, wh, p)}${skyline(doc, wx, ww, wy + wh, wh * 0.6, p.mid, null)}</g>`;
    out += `<rect x="${r1(wx)}" y="${r1(wy)}" width="${r1(ww)}" height="${r1(wh)}" fill="none" stroke="${doc.c('#3b2b20')}" stroke-width="${r1(unit * 0.025)}"/><path d="M${r1(wx + ww / 2)} ${r1(wy)}V${r1(wy + wh)}M${r1(wx)} ${r1(wy + wh / 2)}H${r1(wx + ww)}" stroke="${doc.c('#3b2b20')}" stroke-width="${r1(unit * 0.015)}"/>`;
    out += `<rect x="${r1(b.x)}" y="${r1(b.y + b.h * 0.8)}" width="${r1(b.w)}" height="${r1(b.h * 0.2)}" fill="${doc.c(shade(wall, -0.25))}"/>`;
    const h = Math.min(b.h * 0.95, b.w * 1.3);
    const fx = b.x + b.w * rng.range(0.3, 0.75);
    out += figure(doc, fx, b.y + b.h * 0.05 + h, h, rng.chance(0.5) ? cast.a : cast.b, rng.range(-1, 1));
    heads.push([fx, b.y + b.h * 0.05 + h * 0.12]);
  }
  return { svg: out, heads };
}

function addBubbles(doc: Doc, b: Box, heads: [number, number][], size0: number, max: number): string {
  const rng = doc.rng;
  let out = '';
  const n = Math.min(max, heads.length === 0 ? (rng.chance(0.3) ? 1 : 0) : rng.int(1, Math.min(2, heads.length)));
  const texts = rng.sample(LINES, 2);
  for (let i = 0; i < n; i++) {
    const [hx, hy] = heads[i] ?? [b.x + b.w / 2, b.y + b.h];
    const shout = rng.chance(0.15);
    const text = shout ? rng.pick(SHOUTS) : texts[i]!;
    // Narrow panels get smaller lettering so the bubble fits.
    const natural = bubbleSize(text, size0).w;
    const size = natural > b.w * 0.9 ? Math.max(11, (size0 * b.w * 0.9) / natural) : size0;
    const { w, h } = bubbleSize(text, size);
    const left = n === 2 ? i === 0 : hx > b.x + b.w / 2;
    const want = left ? b.x + b.w * rng.range(0.2, 0.32) : b.x + b.w * rng.range(0.68, 0.8);
    // Keep the bubble inside the panel where it fits.
    const lo = b.x + w / 2 + size * 0.4;
    const hi = b.x + b.w - w / 2 - size * 0.4;
    const cx = lo > hi ? b.x + b.w / 2 : Math.min(hi, Math.max(lo, want));
    const cy = b.y + h / 2 + size * 0.5 + (n === 2 && i === 1 ? h * 0.35 : 0);
    out += bubble(doc, cx, cy, text, size, hx, Math.max(hy, cy + h), shout);
  }
  return out;
}

const KINDS = ['establishing', 'closeup', 'action', 'two-shot', 'interior', 'closeup', 'eyes'];

function newCast(rng: Rng): Cast {
  const base = rng.pick(['#c0392b', '#2e86de', '#16a085', '#8e44ad', '#e67e22', '#d35400', '#27ae60', '#2c3e50', '#e84393']);
  return { a: figureStyle(rng, base), b: figureStyle(rng, rng.pick(['#6c5ce7', '#00b894', '#fdcb6e', '#e17055', '#0984e3', '#b33771'])), p: palette(rng, base) };
}

function comicPageSvg(format: 'MANGA' | 'COMIC', index: number, W: number, H: number): string {
  const manga = format === 'MANGA';
  const rng = new Rng(`page:${format}:${index}`);
  const doc = new Doc(rng, manga);
  const cast = newCast(rng);
  const margin = W > H ? 50 : 42;
  const gutter = 16;
  const paper = manga ? '#ffffff' : '#fbf6ea';
  let body = '';
  let panels: Poly[];
  if (W > H) {
    // Double-page spread: a wide splash across the top, smaller panels below.
    const splashH = (H - margin * 2) * 0.58;
    panels = [
      [
        [margin, margin],
        [W - margin, margin],
        [W - margin, margin + splashH],
        [margin, margin + splashH],
      ],
      ...panelLayout(rng, margin, margin + splashH + gutter, W / 2 - margin - gutter / 2, H - margin * 2 - splashH - gutter, gutter, 2),
      ...panelLayout(rng, W / 2 + gutter / 2, margin + splashH + gutter, W / 2 - margin - gutter / 2, H - margin * 2 - splashH - gutter, gutter, 2),
    ];
  } else {
    panels = panelLayout(rng, margin, margin, W - margin * 2, H - margin * 2, gutter);
  }
  panels.forEach((poly, i) => {
    const b = bbox(poly);
    const size = Math.max(15, Math.min(24, Math.min(b.w, b.h) * 0.075));
    const kind = i === 0 && W > H ? 'action' : b.w < b.h * 0.6 ? rng.pick(['closeup', 'interior', 'action']) : rng.pick(KINDS);
    const sc = scene(doc, b, cast, kind, manga);
    const clip = doc.clipPath(polyPath(poly));
    const bubbles = b.w < 260 ? 1 : 2;
    const cap = bubbles === 1 && b.h > 200 && rng.chance(0.25) ? caption(doc, b.x + 6, b.y + b.h - 40, rng.pick(CAPTIONS), 17, manga ? '#ffffff' : '#ffe9a8') : '';
    body += `<g clip-path="${clip}">${sc.svg}${addBubbles(doc, b, sc.heads, size, bubbles)}${cap}</g>`;
    body += `<path d="${polyPath(poly)}" fill="none" stroke="#111" stroke-width="5" stroke-linejoin="miter"/>`;
  });
  return doc.render(W, H, body, paper);
}

function webtoonSvg(index: number): string {
  const W = 800;
  const H = 1800;
  const rng = new Rng(`page:WEBTOON:${index}`);
  const doc = new Doc(rng);
  const cast = newCast(rng);
  const dark = rng.chance(0.3);
  let body = '';
  const n = rng.int(3, 4);
  const kinds = rng.sample(['establishing', 'closeup', 'action', 'two-shot', 'interior', 'eyes'], n);
  const said = rng.sample(LINES, n);
  const gap = 90;
  const avail = H - 60 - gap * (n - 1);
  let y = 30;
  for (let i = 0; i < n; i++) {
    const h = (avail / n) * rng.range(0.85, 1.1);
    const full = rng.chance(0.4);
    const x = full ? 0 : rng.range(30, 70);
    const w = full ? W : W - x * 2;
    const b: Box = { x, y, w, h: Math.min(h, H - 30 - y) };
    const sc = scene(doc, b, cast, kinds[i]!, false);
    body += `<g clip-path="${doc.clipRect(b.x, b.y, b.w, b.h)}">${sc.svg}</g>`;
    if (!full) body += `<rect x="${r1(b.x)}" y="${r1(b.y)}" width="${r1(b.w)}" height="${r1(b.h)}" fill="none" stroke="${dark ? '#444' : '#222'}" stroke-width="3"/>`;
    // Bubbles sit in the gutter below a scene, as webtoons do.
    if (i < n - 1 || rng.chance(0.5)) {
      const cy = b.y + b.h + gap / 2;
      const head = sc.heads[0] ?? [b.x + b.w / 2, b.y + b.h * 0.5];
      const bx = W * rng.range(0.3, 0.7);
      body += bubble(doc, bx, Math.min(cy, H - 40), said[i]!, 24, head[0], Math.min(b.y + b.h - 10, head[1] + 40));
    }
    y += b.h + gap;
  }
  return doc.render(W, H, body, dark ? '#16141c' : '#ffffff');
}

function thumbSvg(index: number): string {
  const W = THUMB_WIDTH;
  const H = THUMB_HEIGHT;
  const rng = new Rng(`thumb:${index}`);
  const doc = new Doc(rng);
  const cast = newCast(rng);
  const sc = scene(doc, { x: 0, y: 0, w: W, h: H }, cast, rng.pick(['establishing', 'closeup', 'action', 'two-shot']), false);
  return doc.render(W, H, sc.svg + vignette(doc, W, H));
}

// ---------------------------------------------------------------- rendering

interface Job {
  /** Media keys this job writes; it runs only if one of them is missing. */
  keys: string[];
  run: () => Promise<Buffer[]>;
}

function svgToWebp(svg: string, width?: number, height?: number): Promise<Buffer> {
  const img = sharp(Buffer.from(svg));
  return (width ? img.resize(width, height) : img).webp(WEBP).toBuffer();
}

function seriesJobs(spec: SeriesArtSpec): Job[] {
  const k = seriesImages(spec.slug, spec.format);
  return [
    {
      keys: [k.full_cover, k.cover, k.thumbnail, k.thumbnail_140, k.thumbnail_70],
      run: async () => {
        // Render once at full size, then scale down for the smaller covers.
        const png = await sharp(Buffer.from(coverSvg(spec))).png({ compressionLevel: 0 }).toBuffer();
        const at = (w: number, h: number) => sharp(png).resize(w, h).webp(WEBP).toBuffer();
        return Promise.all([at(700, 1000), at(350, 500), at(175, 250), at(140, 200), at(70, 100)]);
      },
    },
    { keys: [k.showcase], run: async () => [await svgToWebp(wideSvg(spec, 800, 450, 'showcase'))] },
    { keys: [k.wallpaper], run: async () => [await svgToWebp(wideSvg(spec, 1280, 400, 'wallpaper'))] },
    { keys: [k.banner], run: async () => [await svgToWebp(wideSvg(spec, 726, 192, 'banner'), 363, 96)] },
    { keys: [k.logo], run: async () => [await svgToWebp(logoSvg(spec))] },
    {
      keys: [k.preview],
      run: async () => {
        const pg = previewPage(spec.slug, spec.format);
        const svg = spec.format === 'WEBTOON' ? webtoonSvg(pg.index) : comicPageSvg(spec.format, pg.index, pg.width, pg.height);
        return [await svgToWebp(svg, pg.width / 2, pg.height / 2)];
      },
    },
  ];
}

function poolJobs(): Job[] {
  const jobs: Job[] = [];
  for (const format of ['MANGA', 'COMIC', 'WEBTOON'] as const) {
    poolPages(format).forEach((pg, i) => {
      jobs.push({
        keys: [pg.key],
        run: async () => [await svgToWebp(format === 'WEBTOON' ? webtoonSvg(i) : comicPageSvg(format, i, pg.width, pg.height))],
      });
    });
  }
  poolThumbs().forEach((key, i) => jobs.push({ keys: [key], run: async () => [await svgToWebp(thumbSvg(i))] }));
  return jobs;
}

/** Runs the jobs whose files are missing from the store, a few at a time; returns the number of files written. */
async function runJobs(store: Pick<MediaStore, 'exists' | 'put'>, jobs: Job[], concurrency: number): Promise<number> {
  let written = 0;
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const present = await Promise.all(job.keys.map((k) => store.exists(k)));
      if (present.every(Boolean)) continue;
      const buffers = await job.run();
      await Promise.all(job.keys.map((k, i) => store.put(k, buffers[i]!, 'image/webp')));
      written += job.keys.length;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return written;
}

/**
 * Makes sure every image of the given series and the shared page and thumbnail pools exists in
 * the media store (a folder: the disk store there). Returns how many files were written.
 */
export async function ensureArt(media: string | MediaStore, series: SeriesArtSpec[], concurrency = Math.max(2, os.availableParallelism())): Promise<number> {
  const jobs = [...poolJobs(), ...series.flatMap(seriesJobs)];
  return runJobs(typeof media === 'string' ? new DiskMediaStore(media) : media, jobs, concurrency);
}

/** Every media key ensureArt writes for these series (pools included). */
export function plannedKeys(series: SeriesArtSpec[]): string[] {
  return [...poolJobs(), ...series.flatMap(seriesJobs)].flatMap((j) => j.keys);
}

/** The SVG sources, exported for inspection and tests. */
export const svgSources = { coverSvg, wideSvg, logoSvg, comicPageSvg, webtoonSvg, thumbSvg };
