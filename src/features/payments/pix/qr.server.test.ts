import decodeQR from 'qr/decode.js';
import { describe, expect, it } from 'vitest';
import { generateBrCode } from './brcode';
import { qrSvg } from './qr.server';

const MANUAL = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
const DYNAMIC = generateBrCode({
  account: { url: 'pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25' },
  merchantName: 'Inkpass Quadrinhos Ltda',
  merchantCity: 'Sao Paulo',
  amount: 4990,
  txid: 'INK0123456789ABCDEFGHIJKL',
  pointOfInitiation: 'one-time',
});

/** The whole document, as qrSvg writes it: any other shape is a bug. */
const SHAPE = /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" role="img" viewBox="0 0 (\d+) \1" width="(\d+)" height="\2" shape-rendering="crispEdges"><title>([^<>]*)<\/title><rect width="\1" height="\1" fill="#fff"\/><path fill="#000" d="((?:M\d+ \d+h\d+v1h-\d+z)+)"\/><\/svg>$/;

/** The dark modules the path draws, read back from its subpaths. */
function modulesOf(svg: string): { size: number; dark: boolean[][] } {
  const m = SHAPE.exec(svg);
  if (!m) throw new Error('not the expected SVG');
  const size = Number(m[1]);
  const dark = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [, x, y, run] of m[4]!.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) for (let i = 0; i < Number(run); i++) dark[Number(y)]![Number(x) + i] = true;
  return { size, dark };
}

/** What a camera would see: the modules as an RGB bitmap, `scale` pixels each. */
function bitmap(dark: boolean[][], scale = 4) {
  const width = dark.length * scale;
  const data = new Uint8Array(width * width * 3).fill(255);
  dark.forEach((row, y) =>
    row.forEach((on, x) => {
      if (!on) return;
      for (let dy = 0; dy < scale; dy++) data.fill(0, ((y * scale + dy) * width + x * scale) * 3, ((y * scale + dy) * width + (x + 1) * scale) * 3);
    }),
  );
  return { width, height: width, data };
}

describe('the Pix QR code as SVG', () => {
  it('is one well-formed <svg> with role="img", the label as <title>, black on white', () => {
    const svg = qrSvg(MANUAL, { label: 'QR Code Pix' });
    const m = SHAPE.exec(svg);
    expect(m).not.toBeNull();
    expect(m![3]).toBe('QR Code Pix');
    expect(Number(m![2])).toBe(Number(m![1]) * 4);
    expect(svg).not.toMatch(/currentColor|var\(|class=|style=/);
    expect(SHAPE.exec(qrSvg(MANUAL))![3]).toBe('QR code');
    expect(SHAPE.exec(qrSvg(MANUAL, { label: 'Pague <já> & "agora"' }))![3]).toBe('Pague &lt;já&gt; &amp; &quot;agora&quot;');
  });

  it('draws modules that decode to the BR Code, with a 4-module quiet zone', () => {
    for (const text of [MANUAL, DYNAMIC]) {
      const { size, dark } = modulesOf(qrSvg(text, { label: 'Pix' }));
      for (let i = 0; i < size; i++) for (const at of [0, 1, 2, 3, size - 4, size - 3, size - 2, size - 1]) expect(dark[i]![at] || dark[at]![i]).toBe(false);
      expect(decodeQR(bitmap(dark))).toBe(text);
    }
  });

  it('is the same for the same text and grows with a longer payload', () => {
    expect(qrSvg(DYNAMIC)).toBe(qrSvg(DYNAMIC));
    expect(modulesOf(qrSvg(DYNAMIC)).size).toBeGreaterThan(modulesOf(qrSvg('0002012')).size);
    expect(() => qrSvg('')).toThrow(RangeError);
  });
});
