/**
 * A BR Code drawn as an SVG QR code on the server, so the Pix widget shows it without a script
 * and the payer's phone can scan it from the screen (docs/payments.md, "Pix QR code").
 *
 * `qr` (paulmillr/qr: no dependencies, Node >= 20.19) computes the module matrix; the SVG is
 * drawn here so its colours, size and accessible name are ours.
 */
import encodeQR from 'qr';
import { escapeHtml } from '~/lib/html';

/** Medium error correction (~15 % of the symbol recoverable): a phone camera reading a screen
 * needs little, and a BR Code of 150 to 250 characters stays at version 8 to 11 (49 to 61
 * modules a side), so each module stays large on a small screen. */
const ECC = 'medium';
/** The quiet zone the QR standard requires: 4 modules of white on every side. */
const QUIET = 4;
/** CSS pixels per module for the intrinsic size; the page may scale it (it is a vector). */
const PIXELS_PER_MODULE = 4;

/**
 * A self-contained `<svg>`: `role="img"` with `<title>` (the label) as its accessible name, black
 * modules on a white square whatever the site's theme (a scanner needs dark on light), the
 * quiet zone included.
 */
export function qrSvg(text: string, opts: { label?: string } = {}): string {
  if (!text) throw new RangeError('qrSvg needs some text to encode');
  const modules = encodeQR(text, 'raw', { ecc: ECC, border: QUIET });
  const size = modules.length;
  // One subpath per horizontal run of dark modules: the manual's example has 1,156 dark modules
  // in 636 runs, so the path is about half as long as one square per module.
  let path = '';
  modules.forEach((row, y) => {
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      let run = 1;
      while (row[x + run]) run++;
      path += `M${x} ${y}h${run}v1h-${run}z`;
      x += run;
    }
  });
  const px = size * PIXELS_PER_MODULE;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 ${size} ${size}" width="${px}" height="${px}" shape-rendering="crispEdges">` +
    `<title>${escapeHtml(opts.label ?? 'QR code')}</title>` +
    `<rect width="${size}" height="${size}" fill="#fff"/>` +
    `<path fill="#000" d="${path}"/>` +
    `</svg>`
  );
}
