import { describe, expect, it } from 'vitest';
import { isIgnoredEntry, isZip, naturalCompare, sniffImage, unsafeEntryName, UploadError, uploadErrorArgs, uploadErrorKey, UPLOAD_ERROR_CODES } from './uploads';
import { hasMessage, translate } from '~/lib/i18n';
import { comicInfoOrder, parseComicInfo } from './comic-info';

const bytes = (...parts: (string | number[])[]) => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('sniffImage (the format is the content, never the name)', () => {
  it('tells each accepted format by its first bytes', () => {
    expect(sniffImage(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImage(bytes([0x89], 'PNG', [13, 10, 26, 10]))).toBe('png');
    expect(sniffImage(bytes('GIF89a'))).toBe('gif');
    expect(sniffImage(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))).toBe('webp');
    expect(sniffImage(bytes([0, 0, 0, 28], 'ftypavif', [0, 0, 0, 0], 'avifmif1miaf'))).toBe('avif');
    expect(sniffImage(bytes([0, 0, 0, 28], 'ftypmif1', [0, 0, 0, 0], 'mif1avifmiaf'))).toBe('avif');
  });

  it('refuses text, HEIC, SVG, PDF and half a signature', () => {
    expect(sniffImage(bytes('hello world, a png?'))).toBeNull();
    expect(sniffImage(bytes([0, 0, 0, 24], 'ftypheic', [0, 0, 0, 0], 'mif1heic'))).toBeNull();
    expect(sniffImage(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffImage(bytes('%PDF-1.7'))).toBeNull();
    expect(sniffImage(bytes([0x89], 'PN'))).toBeNull();
    expect(sniffImage(bytes('RIFF', [0, 0, 0, 0], 'WAVE'))).toBeNull();
  });

  it('knows a ZIP by its header', () => {
    expect(isZip(bytes('PK', [3, 4]))).toBe(true);
    expect(isZip(bytes('PK', [5, 6]))).toBe(true);
    expect(isZip(bytes('PK'))).toBe(false);
  });
});

describe('archive entry names', () => {
  it.each(['../x.png', 'a/../../x.png', '/abs.png', 'a\\..\\b.png', 'C:/x.png', 'c:x.png', 'a\u0000.png', ''])('refuses %j', (name) => {
    expect(unsafeEntryName(name)).toBe('zipPath');
  });
  it.each(['1.png', 'chapter 1/002.jpg', 'a..b.png', '..png'])('takes %j', (name) => {
    expect(unsafeEntryName(name)).toBeNull();
  });
  it('ignores macOS forks, dotfiles and Windows thumbnails, not pages', () => {
    expect(['__MACOSX/._1.png', '.DS_Store', 'ch/.hidden.png', 'ch/Thumbs.db', 'desktop.ini'].every(isIgnoredEntry)).toBe(true);
    expect(['1.png', 'ch/2.png', 'MACOSX/1.png'].some(isIgnoredEntry)).toBe(false);
  });
});

describe('naturalCompare', () => {
  it('puts 2.png before 10.png, and keeps folders together', () => {
    const names = ['10.png', '2.png', '1.png', 'page 100.jpg', 'page 20.jpg', 'a/3.png', 'a/12.png', '002b.png', '002a.png'];
    expect([...names].sort(naturalCompare)).toEqual(['1.png', '2.png', '002a.png', '002b.png', '10.png', 'a/3.png', 'a/12.png', 'page 20.jpg', 'page 100.jpg']);
  });
});

describe('parseComicInfo', () => {
  it('reads title, number, summary and pages, decoding the predefined entities', () => {
    const info = parseComicInfo('<?xml version="1.0"?><ComicInfo><Title>A &amp; B &#233;&#x21;</Title><Number>7</Number><Summary><![CDATA[<b>bold</b> & co]]></Summary><Pages><Page Image="1"/><Page Image=\'0\' Type="FrontCover"/></Pages></ComicInfo>');
    expect(info).toEqual({ title: 'A & B é!', number: 7, summary: '<b>bold</b> & co', pages: [1, 0] });
    expect(comicInfoOrder(info, 2)).toEqual([1, 0]);
  });

  it('does not read a document that declares a DOCTYPE or entities (no expansion, no external fetch)', () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]><ComicInfo><Title>&x;</Title></ComicInfo>';
    expect(parseComicInfo(xxe)).toBeNull();
    expect(parseComicInfo('<NotComicInfo><Title>x</Title></NotComicInfo>')).toBeNull();
  });

  it('ignores a number that is not one, unknown entities, and a page order that is not a permutation', () => {
    const info = parseComicInfo('<ComicInfo><Title>&bogus; x</Title><Number>12a</Number><Pages><Page Image="0"/><Page Image="0"/></Pages></ComicInfo>');
    expect(info).toMatchObject({ title: '&bogus; x', number: null, pages: [0, 0] });
    expect(comicInfoOrder(info, 2)).toBeNull();
    expect(comicInfoOrder(parseComicInfo('<ComicInfo><Pages><Page Image="0"/><Page Image="5"/></Pages></ComicInfo>'), 2)).toBeNull();
    expect(comicInfoOrder(parseComicInfo('<ComicInfo><Pages><Page Image="0"/></Pages></ComicInfo>'), 2)).toBeNull();
  });
});

describe('refusal messages', () => {
  it('every refusal has a message in both languages that names the page and the file', () => {
    for (const code of UPLOAD_ERROR_CODES) {
      for (const locale of ['en', 'pt-BR'] as const) expect(hasMessage(locale, uploadErrorKey(code)), `${locale} ${code}`).toBe(true);
    }
    const error = new UploadError('notImage', 7, '007.png');
    expect(error.status).toBe(415);
    expect(translate('en', uploadErrorKey(error.code), uploadErrorArgs(error))).toBe('Page 7 (007.png) is not a JPEG, PNG, WebP, AVIF or GIF image.');
    expect(translate('pt-BR', uploadErrorKey(error.code), uploadErrorArgs(error))).toBe('A página 7 (007.png) não é uma imagem JPEG, PNG, WebP, AVIF ou GIF.');
    expect(translate('en', 'studio.upload.error.tooWide', uploadErrorArgs(new UploadError('tooWide', 2, 'a.png')))).toBe('Page 2 (a.png) is wider or taller than 10,000 pixels.');
    expect(translate('en', 'studio.upload.error.fileTooLarge', uploadErrorArgs(new UploadError('fileTooLarge', 2, 'a.png')))).toBe('a.png is larger than 20 MB, the limit for one page.');
  });
});
