import { describe, expect, it } from 'vitest';
import { DIVINA_PROFILE, MANIFEST_TYPE, WEBPUB_CONTEXT, buildManifest, type ManifestInput } from './manifest';

const base = (over: Partial<ManifestInput> = {}): ManifestInput => ({
  selfHref: '/api/reader/EPI-k3j9d2ab/manifest/',
  readerHref: '/read/moon-harbor/k3j9d2ab/chapter-12-5/',
  identifier: 'EPI-k3j9d2ab',
  title: 'Chapter 12.5',
  language: 'en',
  number: 12.5,
  format: 'MANGA',
  series: { name: 'Moon Harbor', identifier: 'SER-moon', href: '/comics/moon-harbor/' },
  pages: [
    { href: '/media/p/EPI-k3j9d2ab/1.webp?exp=1&sig=a', width: 900, height: 1350 },
    { href: '/media/p/EPI-k3j9d2ab/2.webp?exp=1&sig=b', width: 1800, height: 1350 },
  ],
  ...over,
});

describe('buildManifest', () => {
  it('is a WebPub manifest with the DiViNa profile', () => {
    const m = buildManifest(base());
    expect(m['@context']).toBe(WEBPUB_CONTEXT);
    expect(m.metadata.conformsTo).toBe(DIVINA_PROFILE);
    expect(m.metadata.identifier).toBe('EPI-k3j9d2ab');
    expect(m.metadata.title).toBe('Chapter 12.5');
    expect(m.metadata.language).toBe('en');
    expect(m.metadata.number).toBe(12.5);
    expect(m.metadata.belongsTo.series[0]).toEqual({ name: 'Moon Harbor', identifier: 'SER-moon', position: 12.5, href: '/comics/moon-harbor/' });
  });

  it('reads manga right to left, paginated', () => {
    const m = buildManifest(base({ format: 'MANGA' }));
    expect(m.metadata.readingProgression).toBe('rtl');
    expect(m.metadata.presentation.overflow).toBe('paginated');
  });

  it('reads comics left to right, paginated', () => {
    const m = buildManifest(base({ format: 'COMIC' }));
    expect(m.metadata.readingProgression).toBe('ltr');
    expect(m.metadata.presentation).toMatchObject({ overflow: 'paginated', fit: 'contain' });
  });

  it('scrolls webtoons top to bottom as one continuous strip', () => {
    const m = buildManifest(base({ format: 'WEBTOON' }));
    expect(m.metadata.readingProgression).toBe('ttb');
    expect(m.metadata.presentation).toMatchObject({ overflow: 'scrolled', continuous: true, fit: 'width' });
  });

  it('lists the pages in order with type and size', () => {
    const m = buildManifest(base());
    expect(m.readingOrder).toEqual([
      { href: '/media/p/EPI-k3j9d2ab/1.webp?exp=1&sig=a', type: 'image/webp', width: 900, height: 1350 },
      { href: '/media/p/EPI-k3j9d2ab/2.webp?exp=1&sig=b', type: 'image/webp', width: 1800, height: 1350 },
    ]);
    expect(m.metadata.numberOfPages).toBe(2);
  });

  it('has no readingOrder for a locked chapter', () => {
    const m = buildManifest(base({ pages: null }));
    expect(m).not.toHaveProperty('readingOrder');
    expect(m.metadata).not.toHaveProperty('numberOfPages');
    expect(JSON.stringify(m)).not.toContain('/media/p/');
    expect(buildManifest(base({ pages: undefined }))).not.toHaveProperty('readingOrder');
  });

  it('links itself, its HTML page and the neighbouring chapters', () => {
    const m = buildManifest(base({
      prev: { href: '/api/reader/EPI-a/manifest/', title: 'Chapter 12' },
      next: { href: '/api/reader/EPI-b/manifest/', title: 'Chapter 13' },
    }));
    expect(m.links).toEqual([
      { rel: 'self', href: '/api/reader/EPI-k3j9d2ab/manifest/', type: MANIFEST_TYPE },
      { rel: 'alternate', href: '/read/moon-harbor/k3j9d2ab/chapter-12-5/', type: 'text/html' },
      { rel: 'prev', href: '/api/reader/EPI-a/manifest/', type: MANIFEST_TYPE, title: 'Chapter 12' },
      { rel: 'next', href: '/api/reader/EPI-b/manifest/', type: MANIFEST_TYPE, title: 'Chapter 13' },
    ]);
  });

  it('omits prev and next at the ends of a series', () => {
    const rels = buildManifest(base({ prev: null, next: null })).links.map((l) => l.rel);
    expect(rels).toEqual(['self', 'alternate']);
  });

  it('carries the chapter title as subtitle only when there is one', () => {
    expect(buildManifest(base({ subtitle: 'The Tide' })).metadata.subtitle).toBe('The Tide');
    expect(buildManifest(base({ subtitle: null })).metadata).not.toHaveProperty('subtitle');
  });

  it('serializes to plain JSON', () => {
    const m = buildManifest(base());
    expect(JSON.parse(JSON.stringify(m))).toEqual(m);
  });
});
