/** The RSS feeds: latest chapters of the site, and of one series (docs/api.md, "Feeds"). */
import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import type { T } from '~/lib/i18n';
import { displayChapterName, parseImages } from '~/features/catalog';
import { findSeriesBySlug } from '~/features/catalog/index.server';
import { readerPath, seriesPath, mediaUrl, SITE_FEED_PATH, seriesFeedPath } from '~/lib/paths';
import { FEED_MAX_ITEMS, renderRss, type FeedItem } from './feeds';
import { releasesBetween, type ReleaseRow } from './repository.server';

interface FeedContext {
  site: Site;
  t: T;
  now: number;
  /** proto://host of the request (validated host). */
  origin: string;
}

function item(r: ReleaseRow, ctx: FeedContext, withSeries: boolean): FeedItem {
  const chapter = displayChapterName(ctx.t, ctx.site.locale, r, r.number);
  const named = r.title ? `${chapter}: ${r.title}` : chapter;
  return {
    title: withSeries ? ctx.t('feed.item.title', { series: r.name, chapter: named }) : named,
    link: ctx.origin + readerPath({ slug: r.slug, format: r.format }, r),
    guid: r.e4pid,
    pubDate: r.released_at,
    description: r.title,
    category: ctx.t(`format.${r.format}` as Parameters<T>[0]),
  };
}

/** The newest 50 released chapters of the site's language. */
export async function siteFeed(db: DB, ctx: FeedContext): Promise<string> {
  const rows = await releasesBetween(db, { language: ctx.site.language, after: 0, until: ctx.now, order: 'desc', limit: FEED_MAX_ITEMS });
  const name = ctx.t('site.name');
  return renderRss({
    title: ctx.t('feed.site.title', { site: name }),
    link: `${ctx.origin}/`,
    self: ctx.origin + SITE_FEED_PATH,
    description: ctx.t('feed.site.description', { site: name }),
    language: ctx.site.locale,
    items: rows.map((r) => item(r, ctx, true)),
  });
}

/** A series' newest 50 released chapters in the site's language; null for unknown, BLOCKED or REMOVED series. */
export async function seriesFeed(db: DB, slug: string, ctx: FeedContext): Promise<string | null> {
  if (!/^[a-z0-9-]{1,200}$/.test(slug)) return null;
  const series = await findSeriesBySlug(db, slug, ctx.site.language);
  if (!series || series.state !== 'ACTIVE') return null;
  const rows = await releasesBetween(db, { language: ctx.site.language, after: 0, until: ctx.now, seriesIds: [Number(series.id)], order: 'desc', limit: FEED_MAX_ITEMS });
  const site = ctx.t('site.name');
  const page = ctx.origin + seriesPath(series);
  const cover = mediaUrl(parseImages(series.images).thumbnail);
  return renderRss({
    title: ctx.t('feed.series.title', { name: series.name, site }),
    link: page,
    self: ctx.origin + seriesFeedPath(series.slug),
    description: ctx.t('feed.series.description', { name: series.name, site }),
    language: ctx.site.locale,
    image: cover ? { url: ctx.origin + cover, title: ctx.t('feed.series.title', { name: series.name, site }), link: page } : null,
    items: rows.map((r) => item(r, ctx, false)),
  });
}
