/**
 * Files for the chapter upload tests (unit and integration): small real images made with
 * sharp, ZIPs made with yazl, and the hostile ones made by editing a good archive's bytes
 * (names yazl refuses to write, sizes an archive lies about) or by hand (a PNG header that
 * declares a huge image).
 */
import zlib from 'node:zlib';
import sharp from 'sharp';
import yazl from 'yazl';

/** A small real image of the format, its colour from `seed` (so pages differ). */
export async function makeImage(format: 'png' | 'jpeg' | 'webp' | 'gif' | 'avif' = 'png', seed = 0, width = 24, height = 32): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: (seed * 37) % 256, g: (seed * 91) % 256, b: 120 } } });
  return image.toFormat(format).toBuffer();
}

export interface ZipItem {
  name: string;
  data?: Buffer;
  /** Unix mode; 0o120777 makes a symlink entry (the data is its target). */
  mode?: number;
  /** Stored instead of deflated. */
  store?: boolean;
  directory?: boolean;
}

export async function makeZip(items: readonly ZipItem[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const item of items) {
    if (item.directory) zip.addEmptyDirectory(item.name);
    else zip.addBuffer(item.data ?? Buffer.alloc(0), item.name, { mode: item.mode, compress: !item.store });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The archive with every occurrence of one name replaced by another of the same length (local header and central directory). */
export function renameInZip(zip: Buffer, from: string, to: string): Buffer {
  const a = Buffer.from(from, 'latin1');
  const b = Buffer.from(to, 'latin1');
  if (a.length !== b.length) throw new Error('names must have the same length');
  const out = Buffer.from(zip);
  for (let at = out.indexOf(a); at >= 0; at = out.indexOf(a, at + 1)) b.copy(out, at);
  return out;
}

/** The archive with the central directory's uncompressed size of every entry set to `size` (a lie). */
export function declareSize(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  for (let at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) out.writeUInt32LE(size, at + 24);
  return out;
}

function crc32(bytes: Buffer): number {
  return zlib.crc32(bytes);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG whose header declares width × height (one row of data, so nothing big is ever made). */
export function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(width + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const COMIC_INFO = `<?xml version="1.0" encoding="utf-8"?>
<ComicInfo xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <Title>The Tower &amp; the Sea</Title>
  <Number>12.5</Number>
  <Summary>A storm &lt;arrives&gt;.</Summary>
  <Pages>
    <Page Image="2" Type="FrontCover" />
    <Page Image="0" />
    <Page Image="1" />
  </Pages>
</ComicInfo>`;

export interface Part {
  name: string;
  value?: string;
  file?: { name: string; data: Buffer; type?: string };
}

/** A multipart/form-data body as a browser sends it. */
export function multipart(parts: readonly Part[]): { body: Buffer; type: string } {
  const boundary = `----inkpass${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if (part.file) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.file.name}"\r\nContent-Type: ${part.file.type ?? 'application/octet-stream'}\r\n\r\n`));
      chunks.push(part.file.data, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value ?? ''}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}
