import { describe, expect, it } from 'vitest';
import { FEED_MAX_ITEMS, renderRss, rssDate, xmlEscape } from './feeds';
import { seriesFeedPath } from '~/lib/paths';

describe('xmlEscape', () => {
  it('escapes markup characters and drops ones XML forbids', () => {
    expect(xmlEscape(`<b>"Tom" & 'Jerry'</b>`)).toBe('&lt;b&gt;&quot;Tom&quot; &amp; &apos;Jerry&apos;&lt;/b&gt;');
    expect(xmlEscape('a\u0000b\u0008c\u001Fd\uFFFEe')).toBe('abcde');
    expect(xmlEscape('tab\tnew\nline')).toBe('tab\tnew\nline');
    expect(xmlEscape('lone \uD800 surrogate 😀')).toBe('lone  surrogate 😀');
  });
});

describe('renderRss', () => {
  const item = (n: number) => ({ title: `Ch ${n} <i>`, link: `https://x.test/read/a/${n}/`, guid: `EPI-${n}`, pubDate: 1_800_000_000 + n, description: 'A & B' });
  it('writes an RSS 2.0 channel with atom self link, escaped text and newest date as lastBuildDate', () => {
    const xml = renderRss({ title: 'T & T', link: 'https://x.test/', self: 'https://x.test/feeds/latest.xml?a=1&b=2', description: 'D', language: 'pt-BR', items: [item(1), item(2)] });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">')).toBe(true);
    expect(xml).toContain('<title>T &amp; T</title>');
    expect(xml).toContain('<atom:link href="https://x.test/feeds/latest.xml?a=1&amp;b=2" rel="self" type="application/rss+xml"/>');
    expect(xml).toContain('<language>pt-BR</language>');
    expect(xml).toContain('<title>Ch 1 &lt;i&gt;</title>');
    expect(xml).toContain(`<lastBuildDate>${rssDate(1_800_000_002)}</lastBuildDate>`);
    expect(xml).toContain('<guid isPermaLink="false">EPI-2</guid>');
    expect(xml).not.toMatch(/<i>/);
  });
  it('keeps at most 50 items and omits lastBuildDate when empty', () => {
    const many = renderRss({ title: 't', link: 'l', self: 's', description: 'd', language: 'en', items: Array.from({ length: 80 }, (_, i) => item(i)) });
    expect(many.match(/<item>/g)).toHaveLength(FEED_MAX_ITEMS);
    const none = renderRss({ title: 't', link: 'l', self: 's', description: 'd', language: 'en', items: [] });
    expect(none).not.toContain('<item>');
    expect(none).not.toContain('lastBuildDate');
  });
  it('formats dates as RFC 822 and encodes slugs in paths', () => {
    expect(rssDate(Date.UTC(2026, 10, 21, 15) / 1000)).toBe('Sat, 21 Nov 2026 15:00:00 GMT');
    expect(seriesFeedPath('a b')).toBe('/feeds/comics/a%20b.xml');
  });
});
