/**
 * SVG building blocks for the procedural demo art: colours, skies,
 * silhouettes, figures, speech bubbles, halftone and speed lines. Every
 * function is pure given its Rng; they return SVG fragments as strings.
 * Text uses only the generic 'serif' and 'sans-serif' families.
 */
import type { Rng } from './prng';

// ---------------------------------------------------------------- colours

export interface Hsl { h: number; s: number; l: number }

export function hexToHsl(hex: string): Hsl {
  const n = parseInt(hex.replace('#', ''), 16);
  const r = ((n >> 16) & 255) / 255;
  const g = ((n >> 8) & 255) / 255;
  const b = (n & 255) / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  let h = 0;
  let s = 0;
  if (max !== min) {
    const d = max - min;
    s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
    if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
    h *= 60;
  }
  return { h, s, l };
}

export function hsl(h: number, s: number, l: number): string {
  h = ((h % 360) + 360) % 360;
  s = Math.min(1, Math.max(0, s));
  l = Math.min(1, Math.max(0, l));
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    h < 60 ? [c, x, 0] : h < 120 ? [x, c, 0] : h < 180 ? [0, c, x] : h < 240 ? [0, x, c] : h < 300 ? [x, 0, c] : [c, 0, x];
  const to = (v: number) => Math.round((v + m) * 255).toString(16).padStart(2, '0');
  return `#${to(r)}${to(g)}${to(b)}`;
}

/** The colour with its lightness moved by `dl` and saturation scaled by `ks`. */
export function shade(hex: string, dl: number, ks = 1): string {
  const c = hexToHsl(hex);
  return hsl(c.h, c.s * ks, c.l + dl);
}

export function mix(a: string, b: string, t: number): string {
  const pa = parseInt(a.slice(1), 16);
  const pb = parseInt(b.slice(1), 16);
  const ch = (p: number, sh: number) => (p >> sh) & 255;
  const m = (sh: number) => Math.round(ch(pa, sh) * (1 - t) + ch(pb, sh) * t).toString(16).padStart(2, '0');
  return `#${m(16)}${m(8)}${m(0)}`;
}

/** Grey of the same perceived lightness (for manga pages). */
export function grey(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  const y = Math.round(0.3 * ((n >> 16) & 255) + 0.59 * ((n >> 8) & 255) + 0.11 * (n & 255));
  const v = y.toString(16).padStart(2, '0');
  return `#${v}${v}${v}`;
}

// ---------------------------------------------------------------- document

export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const r1 = (v: number) => Math.round(v * 10) / 10;

/** Collects <defs> and hands out ids that are unique within one document. */
export class Doc {
  private n = 0;
  readonly defs: string[] = [];
  constructor(readonly rng: Rng, readonly mono = false) {}

  id(prefix: string): string {
    return `${prefix}${++this.n}`;
  }

  /** Colour as used in this document: grey for manga (monochrome) pages. */
  c(hex: string): string {
    return this.mono ? grey(hex) : hex;
  }

  linear(stops: [number, string][], x2 = 0, y2 = 1): string {
    const id = this.id('lg');
    this.defs.push(
      `<linearGradient id="${id}" x1="0" y1="0" x2="${x2}" y2="${y2}">${stops
        .map(([o, col]) => `<stop offset="${o}" stop-color="${this.c(col)}"/>`)
        .join('')}</linearGradient>`,
    );
    return `url(#${id})`;
  }

  radial(stops: [number, string, number][], cx = 0.5, cy = 0.5, r = 0.5): string {
    const id = this.id('rg');
    this.defs.push(
      `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stops
        .map(([o, col, op]) => `<stop offset="${o}" stop-color="${this.c(col)}" stop-opacity="${op}"/>`)
        .join('')}</radialGradient>`,
    );
    return `url(#${id})`;
  }

  /**
   * A halftone dot pattern (Ben-Day dots / screentone) in a 45-degree grid.
   * Integer tile sizes and no patternTransform: librsvg renders rotated or
   * fractional pattern tiles an order of magnitude slower.
   */
  dots(color: string, size: number, radius: number): string {
    const id = this.id('dt');
    const s = Math.max(4, Math.round(size));
    const h = s / 2;
    const r = r1(radius);
    const c = this.c(color);
    this.defs.push(
      `<pattern id="${id}" width="${s}" height="${s}" patternUnits="userSpaceOnUse">` +
        `<circle cx="${h}" cy="${h}" r="${r}" fill="${c}"/><circle cx="0" cy="0" r="${r}" fill="${c}"/><circle cx="${s}" cy="0" r="${r}" fill="${c}"/>` +
        `<circle cx="0" cy="${s}" r="${r}" fill="${c}"/><circle cx="${s}" cy="${s}" r="${r}" fill="${c}"/></pattern>`,
    );
    return `url(#${id})`;
  }

  /** Diagonal (45-degree) hatching lines, drawn inside an unrotated tile. */
  hatch(color: string, gap: number, width: number): string {
    const id = this.id('ht');
    const g = Math.max(4, Math.round(gap));
    this.defs.push(
      `<pattern id="${id}" width="${g}" height="${g}" patternUnits="userSpaceOnUse">` +
        `<path d="M-1 ${g + 1}L${g + 1} -1M${-1 - g / 2} ${g / 2 + 1}L${g / 2 + 1} ${-1 - g / 2}M${g / 2 - 1} ${g * 1.5 + 1}L${g * 1.5 + 1} ${g / 2 - 1}" stroke="${this.c(color)}" stroke-width="${r1(width)}"/></pattern>`,
    );
    return `url(#${id})`;
  }

  clipRect(x: number, y: number, w: number, h: number): string {
    const id = this.id('cp');
    this.defs.push(`<clipPath id="${id}"><rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}"/></clipPath>`);
    return `url(#${id})`;
  }

  clipPath(d: string): string {
    const id = this.id('cp');
    this.defs.push(`<clipPath id="${id}"><path d="${d}"/></clipPath>`);
    return `url(#${id})`;
  }

  /** A mask that fades from opaque at (cx, cy) to transparent at radius r (user units). */
  fadeMask(cx: number, cy: number, r: number): string {
    const g = this.id('mg');
    const id = this.id('mk');
    this.defs.push(
      `<radialGradient id="${g}" gradientUnits="userSpaceOnUse" cx="${r1(cx)}" cy="${r1(cy)}" r="${r1(r)}">` +
        `<stop offset="0" stop-color="#fff" stop-opacity="1"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>` +
        `<mask id="${id}"><rect x="${r1(cx - r)}" y="${r1(cy - r)}" width="${r1(2 * r)}" height="${r1(2 * r)}" fill="url(#${g})"/></mask>`,
    );
    return `url(#${id})`;
  }

  render(width: number, height: number, body: string, background?: string): string {
    const bg = background ? `<rect width="${width}" height="${height}" fill="${this.c(background)}"/>` : '';
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
      `<defs>${this.defs.join('')}</defs>${bg}${body}</svg>`
    );
  }
}

// ---------------------------------------------------------------- palettes

export interface Palette {
  skyTop: string;
  skyBottom: string;
  sun: string;
  far: string;
  mid: string;
  near: string;
  accent: string;
  night: boolean;
}

const SKIES: { top: string; bottom: string; sun: string; night: boolean }[] = [
  { top: '#1b1f4b', bottom: '#f08a5d', sun: '#ffd98e', night: false }, // dusk
  { top: '#0b1330', bottom: '#2e5c8a', sun: '#f4f1de', night: true }, // moonlit
  { top: '#3a7bd5', bottom: '#cfe9ff', sun: '#fff6d5', night: false }, // day
  { top: '#2d1b3d', bottom: '#c9485b', sun: '#ffcf70', night: false }, // red sunset
  { top: '#102a2a', bottom: '#6fb3a0', sun: '#e8ffd9', night: true }, // teal night
  { top: '#3b2f63', bottom: '#f7b267', sun: '#fff1c1', night: false }, // violet dawn
  { top: '#2b2b2b', bottom: '#8a9a9a', sun: '#f0f0e0', night: false }, // storm
];

/** A scene palette: one of the skies, nudged towards the series colour. */
export function palette(rng: Rng, base: string): Palette {
  const sky = rng.pick(SKIES);
  const top = mix(sky.top, base, 0.25);
  const bottom = mix(sky.bottom, base, 0.15);
  const far = mix(mix(top, bottom, 0.6), '#ffffff', sky.night ? 0.05 : 0.18);
  const mid = mix(mix(top, '#000000', 0.35), base, 0.2);
  const near = mix(top, '#000000', 0.7);
  return { skyTop: top, skyBottom: bottom, sun: sky.sun, far, mid, near, accent: shade(base, 0.15, 1.1), night: sky.night };
}

// ---------------------------------------------------------------- backgrounds

export function sky(doc: Doc, x: number, y: number, w: number, h: number, p: Palette): string {
  const fill = doc.linear([
    [0, p.skyTop],
    [0.7, mix(p.skyTop, p.skyBottom, 0.7)],
    [1, p.skyBottom],
  ]);
  return `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" fill="${fill}"/>`;
}

export function stars(doc: Doc, x: number, y: number, w: number, h: number, count: number): string {
  const rng = doc.rng;
  let out = '';
  for (let i = 0; i < count; i++) {
    const r = rng.chance(0.15) ? rng.range(1.4, 2.4) : rng.range(0.5, 1.2);
    out += `<circle cx="${r1(x + rng.float() * w)}" cy="${r1(y + rng.float() * h)}" r="${r1(r)}" fill="#fff" opacity="${r1(rng.range(0.4, 1))}"/>`;
  }
  return out;
}

/** Sun or moon with a soft glow and optional light rays. */
export function sun(doc: Doc, cx: number, cy: number, r: number, p: Palette, rays: boolean): string {
  const rng = doc.rng;
  let out = `<circle cx="${r1(cx)}" cy="${r1(cy)}" r="${r1(r * 4)}" fill="${doc.radial([
    [0, p.sun, 0.55],
    [1, p.sun, 0],
  ])}"/>`;
  if (rays) {
    const n = rng.int(9, 16);
    const len = r * rng.range(14, 22);
    let tris = '';
    for (let i = 0; i < n; i++) {
      const a = (i / n) * Math.PI * 2 + rng.range(-0.1, 0.1);
      const spread = rng.range(0.03, 0.08);
      const ax = cx + Math.cos(a - spread) * len;
      const ay = cy + Math.sin(a - spread) * len;
      const bx = cx + Math.cos(a + spread) * len;
      const by = cy + Math.sin(a + spread) * len;
      tris += `<path d="M${r1(cx)} ${r1(cy)}L${r1(ax)} ${r1(ay)}L${r1(bx)} ${r1(by)}Z"/>`;
    }
    out += `<g fill="${doc.c(p.sun)}" opacity="0.13">${tris}</g>`;
  }
  out += `<circle cx="${r1(cx)}" cy="${r1(cy)}" r="${r1(r)}" fill="${doc.c(p.sun)}"/>`;
  if (p.night) {
    out += `<circle cx="${r1(cx + r * 0.35)}" cy="${r1(cy - r * 0.2)}" r="${r1(r * 0.85)}" fill="${doc.c(p.skyTop)}" opacity="0.35"/>`;
  }
  return out;
}

export function clouds(doc: Doc, x: number, y: number, w: number, h: number, color: string, count: number): string {
  const rng = doc.rng;
  let out = '';
  for (let i = 0; i < count; i++) {
    const cx = x + rng.float() * w;
    const cy = y + rng.float() * h;
    const s = rng.range(0.6, 1.4) * Math.min(w, 400) * 0.12;
    out +=
      `<g fill="${doc.c(color)}" opacity="${r1(rng.range(0.25, 0.55))}">` +
      `<ellipse cx="${r1(cx)}" cy="${r1(cy)}" rx="${r1(s * 2.2)}" ry="${r1(s * 0.45)}"/>` +
      `<ellipse cx="${r1(cx - s * 0.6)}" cy="${r1(cy - s * 0.3)}" rx="${r1(s * 0.9)}" ry="${r1(s * 0.55)}"/>` +
      `<ellipse cx="${r1(cx + s * 0.5)}" cy="${r1(cy - s * 0.4)}" rx="${r1(s * 1.1)}" ry="${r1(s * 0.7)}"/></g>`;
  }
  return out;
}

export function mountains(doc: Doc, x: number, w: number, baseY: number, amp: number, color: string, snow: boolean): string {
  const rng = doc.rng;
  const n = rng.int(4, 8);
  const step = w / n;
  const pts: [number, number][] = [[x - 10, baseY]];
  const peaks: [number, number][] = [];
  for (let i = 0; i <= n; i++) {
    const px = x + i * step + rng.range(-step * 0.3, step * 0.3);
    const py = baseY - amp * rng.range(0.45, 1);
    pts.push([px - step * 0.5, baseY - amp * rng.range(0.1, 0.35)]);
    pts.push([px, py]);
    peaks.push([px, py]);
  }
  pts.push([x + w + 10, baseY - amp * 0.2], [x + w + 10, baseY + 2]);
  let out = `<path d="M${pts.map(([a, b]) => `${r1(a)} ${r1(b)}`).join('L')}Z" fill="${doc.c(color)}"/>`;
  if (snow) {
    for (const [px, py] of peaks) {
      const s = amp * 0.12;
      out += `<path d="M${r1(px)} ${r1(py)}L${r1(px - s)} ${r1(py + s * 1.2)}L${r1(px - s * 0.3)} ${r1(py + s * 0.9)}L${r1(px + s * 0.2)} ${r1(py + s * 1.3)}L${r1(px + s)} ${r1(py + s * 1.1)}Z" fill="#fff" opacity="0.75"/>`;
    }
  }
  return out;
}

export function hills(doc: Doc, x: number, w: number, baseY: number, amp: number, color: string, bottom: number): string {
  const rng = doc.rng;
  const n = rng.int(2, 4);
  const step = w / n;
  let d = `M${r1(x - 5)} ${r1(bottom)}L${r1(x - 5)} ${r1(baseY - amp * rng.float())}`;
  for (let i = 0; i < n; i++) {
    const x1 = x + (i + 0.5) * step;
    const x2 = x + (i + 1) * step;
    d += `Q${r1(x1)} ${r1(baseY - amp * rng.range(0.6, 1.4))} ${r1(x2 + (i === n - 1 ? 5 : 0))} ${r1(baseY - amp * rng.range(0, 0.4))}`;
  }
  d += `L${r1(x + w + 5)} ${r1(bottom)}Z`;
  return `<path d="${d}" fill="${doc.c(color)}"/>`;
}

export function skyline(doc: Doc, x: number, w: number, baseY: number, maxH: number, color: string, windows: string | null): string {
  const rng = doc.rng;
  let out = '';
  let win = '';
  let cx = x - rng.range(0, 20);
  const unit = Math.max(8, w / 40);
  while (cx < x + w) {
    const bw = unit * rng.range(1.6, 4.5);
    const bh = maxH * rng.range(0.3, 1);
    const top = baseY - bh;
    out += `<rect x="${r1(cx)}" y="${r1(top)}" width="${r1(bw)}" height="${r1(bh + 2)}"/>`;
    const roof = rng.float();
    if (roof < 0.2) out += `<path d="M${r1(cx)} ${r1(top)}L${r1(cx + bw / 2)} ${r1(top - bw * 0.5)}L${r1(cx + bw)} ${r1(top)}Z"/>`;
    else if (roof < 0.4) out += `<rect x="${r1(cx + bw / 2 - 1)}" y="${r1(top - bh * 0.25)}" width="2" height="${r1(bh * 0.25)}"/>`;
    else if (roof < 0.5) out += `<rect x="${r1(cx + bw * 0.2)}" y="${r1(top - unit * 0.8)}" width="${r1(bw * 0.6)}" height="${r1(unit * 0.8 + 1)}"/>`;
    if (windows) {
      const ws = unit * 0.35;
      for (let wy = top + ws; wy < baseY - ws * 2; wy += ws * 2.2) {
        for (let wx = cx + ws * 0.7; wx < cx + bw - ws * 1.2; wx += ws * 1.8) {
          if (rng.chance(0.35)) win += `<rect x="${r1(wx)}" y="${r1(wy)}" width="${r1(ws)}" height="${r1(ws * 1.2)}"/>`;
        }
      }
    }
    cx += bw + rng.range(-unit * 0.3, unit * 0.8);
  }
  return `<g fill="${doc.c(color)}">${out}</g>` + (win ? `<g fill="${doc.c(windows!)}" opacity="0.85">${win}</g>` : '');
}

export function forest(doc: Doc, x: number, w: number, baseY: number, maxH: number, color: string): string {
  const rng = doc.rng;
  let out = '';
  let cx = x - 10;
  while (cx < x + w + 10) {
    const h = maxH * rng.range(0.45, 1);
    const tw = h * rng.range(0.3, 0.42);
    if (rng.chance(0.7)) {
      // pine: three stacked triangles
      for (let k = 0; k < 3; k++) {
        const ty = baseY - h + (k * h) / 4;
        const kw = tw * (0.55 + k * 0.25);
        out += `<path d="M${r1(cx)} ${r1(ty)}L${r1(cx - kw / 2)} ${r1(ty + h * 0.45)}L${r1(cx + kw / 2)} ${r1(ty + h * 0.45)}Z"/>`;
      }
      out += `<rect x="${r1(cx - tw * 0.06)}" y="${r1(baseY - h * 0.2)}" width="${r1(tw * 0.12)}" height="${r1(h * 0.2 + 2)}"/>`;
    } else {
      out += `<circle cx="${r1(cx)}" cy="${r1(baseY - h * 0.6)}" r="${r1(tw * 0.6)}"/><circle cx="${r1(cx - tw * 0.35)}" cy="${r1(baseY - h * 0.45)}" r="${r1(tw * 0.45)}"/><circle cx="${r1(cx + tw * 0.35)}" cy="${r1(baseY - h * 0.45)}" r="${r1(tw * 0.45)}"/><rect x="${r1(cx - tw * 0.07)}" y="${r1(baseY - h * 0.35)}" width="${r1(tw * 0.14)}" height="${r1(h * 0.35 + 2)}"/>`;
    }
    cx += tw * rng.range(0.5, 0.9);
  }
  return `<g fill="${doc.c(color)}">${out}</g>`;
}

export function sea(doc: Doc, x: number, w: number, y: number, h: number, p: Palette): string {
  const rng = doc.rng;
  const fill = doc.linear([
    [0, mix(p.skyBottom, p.mid, 0.4)],
    [1, p.near],
  ]);
  let out = `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" fill="${fill}"/>`;
  for (let i = 0; i < 14; i++) {
    const wy = y + h * (i / 14) ** 1.5 + 3;
    const wx = x + rng.float() * w;
    const ww = (w / 10) * (0.4 + (i / 14) * 1.5);
    out += `<rect x="${r1(wx)}" y="${r1(wy)}" width="${r1(ww)}" height="${r1(1 + i / 6)}" fill="${doc.c(p.sun)}" opacity="0.35"/>`;
  }
  return out;
}

/** One of several silhouette landscapes across the lower part of a frame. */
export function landscape(doc: Doc, x: number, y: number, w: number, h: number, p: Palette, kind?: string): string {
  const rng = doc.rng;
  const scene = kind ?? rng.pick(['mountains', 'city', 'forest', 'sea', 'ruins']);
  const base = y + h;
  let out = '';
  if (scene === 'mountains') {
    out += mountains(doc, x, w, base - h * 0.28, h * 0.35, p.far, rng.chance(0.5));
    out += mountains(doc, x, w, base - h * 0.12, h * 0.25, p.mid, false);
    out += forest(doc, x, w, base - h * 0.02, h * 0.12, p.near);
  } else if (scene === 'city') {
    out += skyline(doc, x, w, base - h * 0.18, h * 0.5, p.far, null);
    out += skyline(doc, x, w, base - h * 0.04, h * 0.38, p.mid, p.night ? '#ffe28a' : mix(p.sun, '#ffffff', 0.3));
  } else if (scene === 'forest') {
    out += hills(doc, x, w, base - h * 0.3, h * 0.12, p.far, base);
    out += forest(doc, x, w, base - h * 0.16, h * 0.3, p.mid);
    out += forest(doc, x, w, base + 4, h * 0.22, p.near);
  } else if (scene === 'sea') {
    out += mountains(doc, x, w * 0.5, base - h * 0.3, h * 0.2, p.far, false);
    out += sea(doc, x, w, base - h * 0.3, h * 0.3, p);
  } else {
    out += hills(doc, x, w, base - h * 0.25, h * 0.1, p.far, base);
    let cx = x + rng.range(0, w * 0.1);
    let cols = '';
    while (cx < x + w) {
      const ch = h * rng.range(0.15, 0.45);
      const cw = Math.max(6, w * 0.025);
      cols += `<rect x="${r1(cx)}" y="${r1(base - h * 0.12 - ch)}" width="${r1(cw)}" height="${r1(ch)}"/>`;
      if (rng.chance(0.4)) cols += `<rect x="${r1(cx - cw * 0.3)}" y="${r1(base - h * 0.12 - ch - cw * 0.5)}" width="${r1(cw * 3.2)}" height="${r1(cw * 0.5)}"/>`;
      cx += cw * rng.range(2, 5);
    }
    out += `<g fill="${doc.c(p.mid)}">${cols}</g>`;
    out += hills(doc, x, w, base - h * 0.1, h * 0.06, p.near, base + 2);
  }
  return out;
}

// ---------------------------------------------------------------- figures

export interface FigureStyle {
  cloth: string;
  clothDark: string;
  hair: string;
  skin: string;
  line: string;
  rim: string | null;
  hairStyle: 'spiky' | 'long' | 'bob' | 'bun' | 'short';
  eyes: string;
  prop: 'sword' | 'staff' | 'lantern' | 'none';
  cape: boolean;
}

const SKINS = ['#f6d7c3', '#eac0a2', '#d9a07d', '#b97a56', '#8d5a3b', '#fbe3d3'];
const HAIRS = ['#1d1a2b', '#3b2418', '#7a3b1d', '#d9b25f', '#e8e4dc', '#b3263a', '#2f4f9e', '#5b2f7a', '#f08db5'];

export function figureStyle(rng: Rng, base: string): FigureStyle {
  const cloth = base;
  return {
    cloth,
    clothDark: shade(cloth, -0.18),
    hair: rng.pick(HAIRS),
    skin: rng.pick(SKINS),
    line: '#15121c',
    rim: rng.chance(0.6) ? '#fff4d6' : null,
    hairStyle: rng.pick(['spiky', 'long', 'bob', 'bun', 'short'] as const),
    eyes: rng.pick(['#2a6fdb', '#1c7c54', '#8a3b12', '#5e2a84', '#c0392b', '#222222']),
    prop: rng.pick(['sword', 'staff', 'lantern', 'none'] as const),
    cape: rng.chance(0.45),
  };
}

/** Back hair (drawn before the face). */
function hairBack(doc: Doc, cx: number, cy: number, r: number, st: FigureStyle): string {
  const c = doc.c(st.hair);
  if (st.hairStyle === 'long') {
    return `<path d="M${r1(cx - r * 1.15)} ${r1(cy - r * 0.2)}C${r1(cx - r * 1.6)} ${r1(cy + r * 1.6)} ${r1(cx - r * 1.3)} ${r1(cy + r * 2.6)} ${r1(cx - r * 0.9)} ${r1(cy + r * 3)}L${r1(cx + r * 0.9)} ${r1(cy + r * 3)}C${r1(cx + r * 1.3)} ${r1(cy + r * 2.6)} ${r1(cx + r * 1.6)} ${r1(cy + r * 1.6)} ${r1(cx + r * 1.15)} ${r1(cy - r * 0.2)}Z" fill="${c}" stroke="${doc.c(st.line)}" stroke-width="${r1(r * 0.05)}"/>`;
  }
  if (st.hairStyle === 'bob') {
    return `<path d="M${r1(cx - r * 1.2)} ${r1(cy - r * 0.1)}Q${r1(cx - r * 1.35)} ${r1(cy + r * 1.1)} ${r1(cx - r * 0.95)} ${r1(cy + r * 1.25)}L${r1(cx + r * 0.95)} ${r1(cy + r * 1.25)}Q${r1(cx + r * 1.35)} ${r1(cy + r * 1.1)} ${r1(cx + r * 1.2)} ${r1(cy - r * 0.1)}Z" fill="${c}" stroke="${doc.c(st.line)}" stroke-width="${r1(r * 0.05)}"/>`;
  }
  if (st.hairStyle === 'bun') {
    return `<circle cx="${r1(cx + r * 0.2)}" cy="${r1(cy - r * 1.15)}" r="${r1(r * 0.5)}" fill="${c}" stroke="${doc.c(st.line)}" stroke-width="${r1(r * 0.05)}"/>`;
  }
  return '';
}

/** Front hair: a cap over the skull with a fringe of spikes. */
function hairFront(doc: Doc, cx: number, cy: number, r: number, st: FigureStyle): string {
  const rng = doc.rng;
  const R = r * 1.12;
  const spikesOut = st.hairStyle === 'spiky';
  let d = `M${r1(cx - R)} ${r1(cy + r * 0.15)}`;
  // Cap over the top, from left to right, with outward spikes for the spiky style.
  const n = spikesOut ? 7 : 10;
  for (let i = 1; i <= n; i++) {
    const a = Math.PI + (i / n) * Math.PI;
    const rr = spikesOut && i < n ? R * rng.range(1.25, 1.55) : R * rng.range(1, 1.06);
    const am = Math.PI + ((i - 0.5) / n) * Math.PI;
    if (spikesOut && i < n) {
      d += `L${r1(cx + Math.cos(am) * rr)} ${r1(cy + Math.sin(am) * rr)}L${r1(cx + Math.cos(a) * R)} ${r1(cy + Math.sin(a) * R)}`;
    } else {
      d += `Q${r1(cx + Math.cos(am) * rr * 1.04)} ${r1(cy + Math.sin(am) * rr * 1.04)} ${r1(cx + Math.cos(a) * R)} ${r1(cy + Math.sin(a) * R)}`;
    }
  }
  // Fringe back from right to left: pointed locks over the forehead.
  const locks = rng.int(4, 6);
  const part = rng.range(-0.3, 0.3);
  d += `L${r1(cx + R)} ${r1(cy + r * (st.hairStyle === 'short' ? 0 : 0.45))}`;
  for (let i = locks; i >= 0; i--) {
    const t = i / locks;
    const xx = cx - R + t * 2 * R;
    const tipY = cy + r * (0.1 + 0.35 * Math.sin(Math.PI * t) * rng.range(0.6, 1.1)) - (Math.abs(t - 0.5 - part / 2) < 0.12 ? r * 0.25 : 0);
    const baseY = cy - r * 0.35;
    d += `L${r1(xx + R / locks / 2)} ${r1(baseY)}L${r1(xx)} ${r1(tipY)}`;
  }
  d += 'Z';
  const c = doc.c(st.hair);
  const shine = doc.c(mix(st.hair, '#ffffff', 0.45));
  return (
    `<path d="${d}" fill="${c}" stroke="${doc.c(st.line)}" stroke-width="${r1(r * 0.05)}" stroke-linejoin="round"/>` +
    `<path d="M${r1(cx - r * 0.6)} ${r1(cy - r * 0.7)}Q${r1(cx - r * 0.1)} ${r1(cy - r * 0.95)} ${r1(cx + r * 0.5)} ${r1(cy - r * 0.75)}" fill="none" stroke="${shine}" stroke-width="${r1(r * 0.09)}" stroke-linecap="round" opacity="0.7"/>`
  );
}

/** Face: head shape with a pointed chin, eyes with highlights, brows, mouth. */
function face(doc: Doc, cx: number, cy: number, r: number, st: FigureStyle, look: number): string {
  const lw = r1(r * 0.05);
  const line = doc.c(st.line);
  const head = `<path d="M${r1(cx - r)} ${r1(cy)}A${r1(r)} ${r1(r)} 0 0 1 ${r1(cx + r)} ${r1(cy)}Q${r1(cx + r * 0.95)} ${r1(cy + r * 0.85)} ${r1(cx)} ${r1(cy + r * 1.3)}Q${r1(cx - r * 0.95)} ${r1(cy + r * 0.85)} ${r1(cx - r)} ${r1(cy)}Z" fill="${doc.c(st.skin)}" stroke="${line}" stroke-width="${lw}"/>`;
  const ex = r * 0.42;
  const ey = cy + r * 0.25;
  let eyes = '';
  for (const s of [-1, 1]) {
    const x = cx + s * ex + look * r * 0.08;
    eyes +=
      `<ellipse cx="${r1(x)}" cy="${r1(ey)}" rx="${r1(r * 0.2)}" ry="${r1(r * 0.27)}" fill="#fff" stroke="${line}" stroke-width="${lw}"/>` +
      `<ellipse cx="${r1(x + look * r * 0.05)}" cy="${r1(ey + r * 0.03)}" rx="${r1(r * 0.14)}" ry="${r1(r * 0.21)}" fill="${doc.c(st.eyes)}"/>` +
      `<circle cx="${r1(x + look * r * 0.05)}" cy="${r1(ey + r * 0.05)}" r="${r1(r * 0.07)}" fill="#111"/>` +
      `<circle cx="${r1(x - r * 0.05)}" cy="${r1(ey - r * 0.08)}" r="${r1(r * 0.055)}" fill="#fff"/>` +
      `<path d="M${r1(x - r * 0.22)} ${r1(ey - r * 0.38 + s * r * 0.02)}L${r1(x + r * 0.2)} ${r1(ey - r * 0.42 - s * r * 0.04)}" stroke="${line}" stroke-width="${r1(r * 0.07)}" stroke-linecap="round"/>`;
  }
  const mouth = `<path d="M${r1(cx - r * 0.14)} ${r1(cy + r * 0.82)}Q${r1(cx)} ${r1(cy + r * 0.9)} ${r1(cx + r * 0.14)} ${r1(cy + r * 0.8)}" fill="none" stroke="${line}" stroke-width="${lw}" stroke-linecap="round"/>`;
  const blush = `<ellipse cx="${r1(cx - r * 0.55)}" cy="${r1(cy + r * 0.6)}" rx="${r1(r * 0.14)}" ry="${r1(r * 0.06)}" fill="#e76f6f" opacity="0.35"/><ellipse cx="${r1(cx + r * 0.55)}" cy="${r1(cy + r * 0.6)}" rx="${r1(r * 0.14)}" ry="${r1(r * 0.06)}" fill="#e76f6f" opacity="0.35"/>`;
  return head + eyes + mouth + (doc.mono ? '' : blush);
}

function prop(doc: Doc, hx: number, hy: number, len: number, angle: number, st: FigureStyle): string {
  const line = doc.c(st.line);
  const lw = r1(len * 0.012);
  const rot = `transform="rotate(${r1(angle)} ${r1(hx)} ${r1(hy)})"`;
  if (st.prop === 'sword') {
    const w = len * 0.045;
    return `<g ${rot}><path d="M${r1(hx - w / 2)} ${r1(hy - len * 0.15)}L${r1(hx - w / 2)} ${r1(hy - len)}L${r1(hx)} ${r1(hy - len - w * 2)}L${r1(hx + w / 2)} ${r1(hy - len)}L${r1(hx + w / 2)} ${r1(hy - len * 0.15)}Z" fill="${doc.c('#dfe6ee')}" stroke="${line}" stroke-width="${lw}"/><rect x="${r1(hx - w * 2.2)}" y="${r1(hy - len * 0.16)}" width="${r1(w * 4.4)}" height="${r1(w * 0.9)}" fill="${doc.c('#c9a227')}" stroke="${line}" stroke-width="${lw}"/><rect x="${r1(hx - w * 0.45)}" y="${r1(hy - len * 0.15)}" width="${r1(w * 0.9)}" height="${r1(len * 0.2)}" fill="${doc.c('#5a3a22')}" stroke="${line}" stroke-width="${lw}"/></g>`;
  }
  if (st.prop === 'staff') {
    const w = len * 0.03;
    return `<g ${rot}><rect x="${r1(hx - w / 2)}" y="${r1(hy - len * 0.9)}" width="${r1(w)}" height="${r1(len * 1.1)}" fill="${doc.c('#6b4426')}" stroke="${line}" stroke-width="${lw}"/><circle cx="${r1(hx)}" cy="${r1(hy - len * 0.95)}" r="${r1(w * 2.2)}" fill="${doc.c(st.rim ?? '#9be7ff')}" stroke="${line}" stroke-width="${lw}"/><circle cx="${r1(hx)}" cy="${r1(hy - len * 0.95)}" r="${r1(w * 6)}" fill="${doc.c('#ffffff')}" opacity="0.18"/></g>`;
  }
  if (st.prop === 'lantern') {
    const s = len * 0.12;
    return `<g><path d="M${r1(hx)} ${r1(hy)}L${r1(hx)} ${r1(hy + s * 0.6)}" stroke="${line}" stroke-width="${lw}"/><circle cx="${r1(hx)}" cy="${r1(hy + s * 1.3)}" r="${r1(s * 2.2)}" fill="${doc.c('#ffd36b')}" opacity="0.25"/><rect x="${r1(hx - s * 0.5)}" y="${r1(hy + s * 0.6)}" width="${r1(s)}" height="${r1(s * 1.3)}" rx="${r1(s * 0.2)}" fill="${doc.c('#ffd36b')}" stroke="${line}" stroke-width="${lw}"/></g>`;
  }
  return '';
}

/**
 * A head-and-shoulders character: r is the head radius; the body extends down
 * to `bottom`. `look` (-1..1) shifts the gaze.
 */
export function bust(doc: Doc, cx: number, cy: number, r: number, bottom: number, st: FigureStyle, look = 0): string {
  const line = doc.c(st.line);
  const lw = r1(r * 0.06);
  const sh = cy + r * 2.1;
  let body =
    `<path d="M${r1(cx - r * 3.4)} ${r1(bottom + 2)}C${r1(cx - r * 3.3)} ${r1(sh + r * 0.6)} ${r1(cx - r * 2.6)} ${r1(sh)} ${r1(cx - r * 1.5)} ${r1(sh - r * 0.2)}` +
    `L${r1(cx - r * 0.45)} ${r1(cy + r * 1.1)}L${r1(cx + r * 0.45)} ${r1(cy + r * 1.1)}L${r1(cx + r * 1.5)} ${r1(sh - r * 0.2)}` +
    `C${r1(cx + r * 2.6)} ${r1(sh)} ${r1(cx + r * 3.3)} ${r1(sh + r * 0.6)} ${r1(cx + r * 3.4)} ${r1(bottom + 2)}Z" fill="${doc.c(st.cloth)}" stroke="${line}" stroke-width="${lw}"/>`;
  // Neck, collar and a fold line.
  body +=
    `<path d="M${r1(cx - r * 0.38)} ${r1(cy + r * 0.9)}L${r1(cx - r * 0.42)} ${r1(sh - r * 0.1)}L${r1(cx)} ${r1(sh + r * 0.5)}L${r1(cx + r * 0.42)} ${r1(sh - r * 0.1)}L${r1(cx + r * 0.38)} ${r1(cy + r * 0.9)}Z" fill="${doc.c(shade(st.skin, -0.08))}" stroke="${line}" stroke-width="${lw}"/>` +
    `<path d="M${r1(cx - r * 1.4)} ${r1(sh - r * 0.2)}L${r1(cx)} ${r1(sh + r * 1.3)}L${r1(cx + r * 1.4)} ${r1(sh - r * 0.2)}L${r1(cx + r * 0.7)} ${r1(sh - r * 0.4)}L${r1(cx)} ${r1(sh + r * 0.6)}L${r1(cx - r * 0.7)} ${r1(sh - r * 0.4)}Z" fill="${doc.c(st.clothDark)}" stroke="${line}" stroke-width="${lw}"/>` +
    `<path d="M${r1(cx - r * 2.2)} ${r1(sh + r * 1.2)}Q${r1(cx - r * 2)} ${r1(sh + r * 2.2)} ${r1(cx - r * 2.3)} ${r1(bottom)}M${r1(cx + r * 2.1)} ${r1(sh + r * 1.4)}Q${r1(cx + r * 1.9)} ${r1(sh + r * 2.4)} ${r1(cx + r * 2.2)} ${r1(bottom)}" fill="none" stroke="${line}" stroke-width="${lw}" opacity="0.6"/>`;
  if (st.rim) {
    body += `<path d="M${r1(cx + r * 1.55)} ${r1(sh - r * 0.1)}C${r1(cx + r * 2.6)} ${r1(sh + r * 0.1)} ${r1(cx + r * 3.2)} ${r1(sh + r * 0.7)} ${r1(cx + r * 3.25)} ${r1(bottom)}" fill="none" stroke="${doc.c(st.rim)}" stroke-width="${r1(r * 0.12)}" opacity="0.8"/>`;
  }
  return `<g>${hairBack(doc, cx, cy, r, st)}${body}${face(doc, cx, cy, r, st, look)}${hairFront(doc, cx, cy, r, st)}</g>`;
}

/** A full standing figure, feet at (cx, feetY), total height h. */
export function figure(doc: Doc, cx: number, feetY: number, h: number, st: FigureStyle, look = 0): string {
  const rng = doc.rng;
  const line = doc.c(st.line);
  const r = h / 7.4 / 1.15;
  const cy = feetY - h + r * 1.1;
  const lw = r1(r * 0.07);
  const sh = cy + r * 1.9;
  const waist = sh + r * 2.6;
  const hem = waist + r * 1.8;
  const legW = r * 0.45;
  const stance = r * rng.range(0.6, 1.2);
  let out = '';
  if (st.cape) {
    // Hangs from the shoulders behind the body and flares a little to one side, with a wavy hem.
    const sway = r * rng.range(0.4, 1.2) * (rng.chance(0.5) ? 1 : -1);
    const hemY = feetY - r * 0.4;
    const l = cx - r * 2.1 + sway;
    const rr = cx + r * 2.1 + sway;
    let hemPath = '';
    const waves = 4;
    for (let i = 1; i <= waves; i++) {
      const x0 = rr - ((i - 0.5) / waves) * (rr - l);
      const x1 = rr - (i / waves) * (rr - l);
      hemPath += `Q${r1(x0)} ${r1(hemY + (i % 2 ? r * 0.35 : -r * 0.2))} ${r1(x1)} ${r1(hemY)}`;
    }
    out += `<path d="M${r1(cx - r * 1.25)} ${r1(sh)}L${r1(cx + r * 1.25)} ${r1(sh)}Q${r1(cx + r * 1.9 + sway * 0.5)} ${r1(waist)} ${r1(rr)} ${r1(hemY)}${hemPath}Q${r1(cx - r * 1.9 + sway * 0.5)} ${r1(waist)} ${r1(cx - r * 1.25)} ${r1(sh)}Z" fill="${doc.c(st.clothDark)}" stroke="${line}" stroke-width="${lw}" stroke-linejoin="round"/>`;
  }
  // Legs and boots.
  for (const s of [-1, 1]) {
    const fx = cx + s * stance;
    out +=
      `<path d="M${r1(cx + s * r * 0.3 - legW / 2)} ${r1(waist)}L${r1(fx - legW / 2)} ${r1(feetY - r * 0.3)}L${r1(fx + legW / 2)} ${r1(feetY - r * 0.3)}L${r1(cx + s * r * 0.3 + legW / 2)} ${r1(waist)}Z" fill="${doc.c(shade(st.clothDark, -0.1))}" stroke="${line}" stroke-width="${lw}"/>` +
      `<path d="M${r1(fx - legW * 0.7)} ${r1(feetY - r * 0.9)}L${r1(fx + legW * 0.6)} ${r1(feetY - r * 0.9)}L${r1(fx + legW * 0.6 + s * r * 0.35)} ${r1(feetY)}L${r1(fx - legW * 0.7)} ${r1(feetY)}Z" fill="${doc.c('#2b2230')}" stroke="${line}" stroke-width="${lw}"/>`;
  }
  // Coat: shoulders to a flared hem.
  out += `<path d="M${r1(cx - r * 1.35)} ${r1(sh)}L${r1(cx + r * 1.35)} ${r1(sh)}L${r1(cx + r * 0.85)} ${r1(waist)}L${r1(cx + r * 1.5)} ${r1(hem)}L${r1(cx - r * 1.5)} ${r1(hem)}L${r1(cx - r * 0.85)} ${r1(waist)}Z" fill="${doc.c(st.cloth)}" stroke="${line}" stroke-width="${lw}" stroke-linejoin="round"/>`;
  out += `<rect x="${r1(cx - r * 0.9)}" y="${r1(waist - r * 0.25)}" width="${r1(r * 1.8)}" height="${r1(r * 0.4)}" fill="${doc.c(st.clothDark)}" stroke="${line}" stroke-width="${lw}"/>`;
  out += `<path d="M${r1(cx)} ${r1(sh)}L${r1(cx)} ${r1(hem)}" stroke="${line}" stroke-width="${lw}" opacity="0.6"/>`;
  // Arms: left hangs, right raised holding the prop.
  const armW = r * 0.42;
  out += `<path d="M${r1(cx - r * 1.3)} ${r1(sh + r * 0.1)}L${r1(cx - r * 1.9)} ${r1(waist + r * 0.3)}L${r1(cx - r * 1.9 + armW)} ${r1(waist + r * 0.45)}L${r1(cx - r * 1.0)} ${r1(sh + r * 0.7)}Z" fill="${doc.c(st.cloth)}" stroke="${line}" stroke-width="${lw}"/>`;
  out += `<circle cx="${r1(cx - r * 1.75)}" cy="${r1(waist + r * 0.55)}" r="${r1(r * 0.28)}" fill="${doc.c(st.skin)}" stroke="${line}" stroke-width="${lw}"/>`;
  const raise = rng.range(0.3, 1);
  const hx = cx + r * 2.2;
  const hy = sh + r * (2.6 - raise * 2.4);
  out += `<path d="M${r1(cx + r * 1.25)} ${r1(sh + r * 0.05)}L${r1(hx - armW / 2)} ${r1(hy)}L${r1(hx + armW / 2)} ${r1(hy + armW * 0.6)}L${r1(cx + r * 1.0)} ${r1(sh + r * 0.75)}Z" fill="${doc.c(st.cloth)}" stroke="${line}" stroke-width="${lw}"/>`;
  out += prop(doc, hx, hy, h * 0.55, rng.range(-10, 35), st);
  out += `<circle cx="${r1(hx)}" cy="${r1(hy + armW * 0.2)}" r="${r1(r * 0.28)}" fill="${doc.c(st.skin)}" stroke="${line}" stroke-width="${lw}"/>`;
  // Neck and head.
  out += `<rect x="${r1(cx - r * 0.3)}" y="${r1(cy + r * 0.9)}" width="${r1(r * 0.6)}" height="${r1(sh - cy - r * 0.8)}" fill="${doc.c(shade(st.skin, -0.08))}" stroke="${line}" stroke-width="${lw}"/>`;
  out = hairBack(doc, cx, cy, r, st) + out + face(doc, cx, cy, r, st, look) + hairFront(doc, cx, cy, r, st);
  if (st.rim) {
    out += `<path d="M${r1(cx + r * 1.4)} ${r1(sh + r * 0.2)}L${r1(cx + r * 0.95)} ${r1(waist)}L${r1(cx + r * 1.55)} ${r1(hem)}" fill="none" stroke="${doc.c(st.rim)}" stroke-width="${r1(r * 0.14)}" opacity="0.7"/>`;
  }
  return `<g>${out}</g>`;
}

/** A dark silhouette of a figure (for crowds and backgrounds). */
export function silhouette(doc: Doc, cx: number, feetY: number, h: number, color: string): string {
  const r = h / 7.5;
  const c = doc.c(color);
  return (
    `<g fill="${c}"><circle cx="${r1(cx)}" cy="${r1(feetY - h + r)}" r="${r1(r)}"/>` +
    `<path d="M${r1(cx - r * 1.3)} ${r1(feetY - h + r * 2.3)}L${r1(cx + r * 1.3)} ${r1(feetY - h + r * 2.3)}L${r1(cx + r * 0.9)} ${r1(feetY - r * 3)}L${r1(cx + r * 0.9)} ${r1(feetY)}L${r1(cx - r * 0.9)} ${r1(feetY)}L${r1(cx - r * 0.9)} ${r1(feetY - r * 3)}Z"/></g>`
  );
}

// ---------------------------------------------------------------- comic devices

/** Radial speed lines converging on (fx, fy), clipped by the caller. */
export function speedLines(doc: Doc, fx: number, fy: number, inner: number, outer: number, color: string, count: number): string {
  const rng = doc.rng;
  let d = '';
  for (let i = 0; i < count; i++) {
    const a = rng.float() * Math.PI * 2;
    const w = rng.range(0.004, 0.015);
    const ri = inner * rng.range(0.9, 1.6);
    d += `M${r1(fx + Math.cos(a) * ri)} ${r1(fy + Math.sin(a) * ri)}L${r1(fx + Math.cos(a - w) * outer)} ${r1(fy + Math.sin(a - w) * outer)}L${r1(fx + Math.cos(a + w) * outer)} ${r1(fy + Math.sin(a + w) * outer)}Z`;
  }
  return `<path d="${d}" fill="${doc.c(color)}"/>`;
}

/** Horizontal motion lines. */
export function motionLines(doc: Doc, x: number, y: number, w: number, h: number, color: string, count: number): string {
  const rng = doc.rng;
  let d = '';
  for (let i = 0; i < count; i++) {
    const ly = y + rng.float() * h;
    const lx = x + rng.float() * w * 0.6;
    const lw = w * rng.range(0.2, 0.5);
    const t = rng.range(0.8, 3);
    d += `M${r1(lx)} ${r1(ly)}L${r1(lx + lw)} ${r1(ly - t / 2)}L${r1(lx + lw)} ${r1(ly + t / 2)}Z`;
  }
  return `<path d="${d}" fill="${doc.c(color)}"/>`;
}

/** Approximate width of text in a bold font (for fitting titles and bubbles). */
export function textWidth(text: string, size: number, family: 'serif' | 'sans-serif' = 'sans-serif'): number {
  let units = 0;
  for (const ch of text) {
    if (ch === ' ') units += 0.32;
    else if ('il.,:;!|\''.includes(ch)) units += 0.34;
    else if ('mwMW'.includes(ch)) units += 0.95;
    else if (ch >= 'A' && ch <= 'Z') units += 0.74;
    else units += 0.6;
  }
  return units * size * (family === 'serif' ? 1.02 : 1);
}

/** Breaks text into lines of at most `maxChars` characters. */
export function wrap(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const word of text.split(/\s+/)) {
    if (cur && (cur + ' ' + word).length > maxChars) {
      lines.push(cur);
      cur = word;
    } else cur = cur ? `${cur} ${word}` : word;
  }
  if (cur) lines.push(cur);
  return lines;
}

/** Width and height of the bubble `bubble` draws for this text. */
export function bubbleSize(text: string, size: number): { w: number; h: number; lines: string[] } {
  const lines = wrap(text, 14);
  return { w: Math.max(...lines.map((l) => textWidth(l, size))) + size * 1.6, h: lines.length * size * 1.2 + size * 1.2, lines };
}

/** A speech bubble centred on (cx, cy) with a short tail pointing towards (tx, ty). */
export function bubble(doc: Doc, cx: number, cy: number, text: string, size: number, tx: number, ty: number, shout = false): string {
  const { w, h, lines } = bubbleSize(text, size);
  const rx = w / 2;
  const ry = h / 2;
  const line = doc.c('#111111');
  const sw = r1(Math.max(1.5, size * 0.12));
  // Tail: a narrow triangle from inside the bubble towards the speaker, at most a few letters long.
  const ang = Math.atan2(ty - cy, tx - cx);
  const edge = Math.hypot(Math.cos(ang) * rx, Math.sin(ang) * ry);
  const len = Math.min(Math.hypot(tx - cx, ty - cy), edge + size * 2.6);
  const ex = cx + Math.cos(ang) * len;
  const ey = cy + Math.sin(ang) * len;
  const bx = cx + Math.cos(ang) * edge * 0.7;
  const by = cy + Math.sin(ang) * edge * 0.7;
  const px = -Math.sin(ang) * size * 0.45;
  const py = Math.cos(ang) * size * 0.45;
  const tail = `<path d="M${r1(bx - px)} ${r1(by - py)}L${r1(ex)} ${r1(ey)}L${r1(bx + px)} ${r1(by + py)}Z" fill="#fff" stroke="${line}" stroke-width="${sw}" stroke-linejoin="round"/>`;
  let shape: string;
  if (shout) {
    const n = 18;
    let d = '';
    for (let i = 0; i < n * 2; i++) {
      const a = (i / (n * 2)) * Math.PI * 2;
      const k = i % 2 === 0 ? 1.18 : 0.95;
      d += `${i ? 'L' : 'M'}${r1(cx + Math.cos(a) * rx * k)} ${r1(cy + Math.sin(a) * ry * k)}`;
    }
    shape = `<path d="${d}Z" fill="#fff" stroke="${line}" stroke-width="${sw}" stroke-linejoin="round"/>`;
  } else {
    shape = `<ellipse cx="${r1(cx)}" cy="${r1(cy)}" rx="${r1(rx)}" ry="${r1(ry)}" fill="#fff" stroke="${line}" stroke-width="${sw}"/>`;
  }
  const cover = `<ellipse cx="${r1(cx)}" cy="${r1(cy)}" rx="${r1(rx - 1.5)}" ry="${r1(ry - 1.5)}" fill="#fff"/>`;
  const y0 = cy - ((lines.length - 1) * size * 1.2) / 2 + size * 0.35;
  const txt = lines
    .map((l, i) => `<text x="${r1(cx)}" y="${r1(y0 + i * size * 1.2)}" font-family="sans-serif" font-weight="bold" font-size="${r1(size)}" text-anchor="middle" fill="${line}">${esc(l)}</text>`)
    .join('');
  return `<g>${tail}${shape}${shout ? '' : cover}${txt}</g>`;
}

/** A rectangular narration caption box. */
export function caption(doc: Doc, x: number, y: number, text: string, size: number, fill: string): string {
  const w = textWidth(text, size) * 0.92 + size * 1.4;
  const h = size * 1.9;
  return `<g><rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" fill="${doc.c(fill)}" stroke="#111" stroke-width="${r1(size * 0.1)}"/><text x="${r1(x + size * 0.7)}" y="${r1(y + size * 1.3)}" font-family="serif" font-style="italic" font-size="${r1(size)}" fill="#111">${esc(text)}</text></g>`;
}

/** Big sound-effect lettering. */
export function sfx(doc: Doc, x: number, y: number, text: string, size: number, angle: number, fill: string): string {
  return `<text x="${r1(x)}" y="${r1(y)}" transform="rotate(${r1(angle)} ${r1(x)} ${r1(y)})" font-family="sans-serif" font-weight="900" font-style="italic" font-size="${r1(size)}" fill="${doc.c(fill)}" stroke="#111" stroke-width="${r1(size * 0.08)}" paint-order="stroke" stroke-linejoin="round">${esc(text)}</text>`;
}

/** Title lettering: large text with a heavy outline and a drop shadow. */
export function titleText(
  x: number,
  y: number,
  lines: string[],
  size: number,
  opts: { family: 'serif' | 'sans-serif'; fill: string; stroke: string; anchor?: 'start' | 'middle' | 'end'; spacing?: number },
): string {
  const anchor = opts.anchor ?? 'middle';
  const sp = opts.spacing ?? 1.08;
  let out = '';
  lines.forEach((l, i) => {
    const ly = y + i * size * sp;
    const attrs = `font-family="${opts.family}" font-weight="900" font-size="${r1(size)}" text-anchor="${anchor}"`;
    out +=
      `<text x="${r1(x + size * 0.06)}" y="${r1(ly + size * 0.07)}" ${attrs} fill="#000" opacity="0.45">${esc(l)}</text>` +
      `<text x="${r1(x)}" y="${r1(ly)}" ${attrs} fill="${opts.fill}" stroke="${opts.stroke}" stroke-width="${r1(size * 0.09)}" paint-order="stroke" stroke-linejoin="round">${esc(l)}</text>`;
  });
  return out;
}
