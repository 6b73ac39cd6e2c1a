/** RSS 2.0 writing, pure (feeds.server.ts gathers the data). */

export const FEED_MAX_ITEMS = 50;
export const FEED_CACHE = 'public, max-age=300, s-maxage=600';
export const FEED_TYPE = 'application/rss+xml; charset=utf-8';

/** Escapes text for XML content and attributes and drops characters XML 1.0 forbids. */
export function xmlEscape(value: string): string {
  return value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** RFC 822 date as RSS wants it ("Sat, 21 Nov 2026 15:00:00 GMT"). */
export function rssDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toUTCString();
}

export interface FeedItem {
  title: string;
  /** Absolute URL. */
  link: string;
  /** Stable id (not a URL). */
  guid: string;
  pubDate: number;
  description?: string | null;
  category?: string | null;
}

export interface FeedChannel {
  title: string;
  /** Absolute URL of the page the feed describes. */
  link: string;
  /** Absolute URL of the feed itself (atom:link rel=self). */
  self: string;
  description: string;
  /** 'en' or 'pt-BR'. */
  language: string;
  image?: { url: string; title: string; link: string } | null;
  items: FeedItem[];
}

export function renderRss(channel: FeedChannel): string {
  const e = xmlEscape;
  const items = channel.items.slice(0, FEED_MAX_ITEMS);
  const built = items.length ? Math.max(...items.map((i) => i.pubDate)) : null;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '<channel>',
    `<title>${e(channel.title)}</title>`,
    `<link>${e(channel.link)}</link>`,
    `<description>${e(channel.description)}</description>`,
    `<language>${e(channel.language)}</language>`,
    `<atom:link href="${e(channel.self)}" rel="self" type="application/rss+xml"/>`,
    // The newest item's date, not the clock: the same catalogue gives the same bytes (cacheable).
    ...(built != null ? [`<lastBuildDate>${rssDate(built)}</lastBuildDate>`] : []),
    '<ttl>10</ttl>',
    ...(channel.image ? [`<image><url>${e(channel.image.url)}</url><title>${e(channel.image.title)}</title><link>${e(channel.image.link)}</link></image>`] : []),
    ...items.map((i) =>
      [
        '<item>',
        `<title>${e(i.title)}</title>`,
        `<link>${e(i.link)}</link>`,
        `<guid isPermaLink="false">${e(i.guid)}</guid>`,
        `<pubDate>${rssDate(i.pubDate)}</pubDate>`,
        ...(i.description ? [`<description>${e(i.description)}</description>`] : []),
        ...(i.category ? [`<category>${e(i.category)}</category>`] : []),
        '</item>',
      ].join(''),
    ),
    '</channel>',
    '</rss>',
    '',
  ];
  return lines.join('\n');
}
