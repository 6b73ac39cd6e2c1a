/**
 * What the series page shows of comments: the count on each chapter row and the latest comments
 * across its chapters. Both come from two small queries (one grouped count, one newest-five),
 * kept per series and site in the one in-process cache, so a series page view costs no query
 * while it is fresh; a comment written or deleted in this process forgets its series' entry
 * (commentsChanged), other workers see it within COUNTS_TTL_MS (docs/decisions.md, "Comment counts").
 */
import type { DB } from '~/server/db';
import { createCache } from '~/server/cache';
import type { Site } from '~/lib/site';
import { chapterDate } from '~/lib/dates';
import { parseBody, type Segment } from './rules';
import * as repo from './repository.server';

/** How many of the latest comments the series page shows. */
export const SERIES_LATEST = 5;
const COUNTS_TTL_MS = 30_000;
/** The series page shows the start of each comment (the chapter's page has the rest): its weight stays small. */
export const EXCERPT_MAX = 280;

/**
 * The first EXCERPT_MAX characters of a comment, with "…" when cut. A cut never opens a spoiler:
 * a `||` left unclosed by the cut is dropped with what follows it, so no hidden text shows.
 */
export function excerpt(body: string): string {
  const chars = [...body];
  if (chars.length <= EXCERPT_MAX) return body;
  let cut = chars.slice(0, EXCERPT_MAX).join('');
  if ((cut.split('||').length - 1) % 2 === 1) cut = cut.slice(0, cut.lastIndexOf('||'));
  return `${cut.trimEnd()}…`;
}

interface SeriesCommentsData {
  counts: ReadonlyMap<number, number>;
  latest: readonly (repo.CommentRow & { e4pid: string; number: number })[];
}

const cache = createCache<SeriesCommentsData>({ ttlMs: COUNTS_TTL_MS, staleMs: COUNTS_TTL_MS, maxEntries: 5_000 });

/** A comment was written or deleted: that series' counts and latest comments are read again on that site (the others' stay cached). */
export function commentsChanged(siteId: number, seriesId: number | null): void {
  if (seriesId !== null) cache.delete(key(siteId, seriesId));
}

const key = (siteId: number, seriesId: number) => `${siteId}:${seriesId}`;

export interface LatestComment {
  id: number;
  author: string;
  staff: boolean;
  creator: boolean;
  segments: Segment[];
  spoiler: boolean;
  createdAt: number;
  when: string;
  edited: boolean;
  likes: number;
  /** The chapter it is under. */
  e4pid: string;
  number: number;
}

export interface SeriesComments {
  /** Comments per chapter id (chapters without any are absent). */
  counts: ReadonlyMap<number, number>;
  latest: LatestComment[];
}

export async function seriesComments(db: DB, seriesId: number, ctx: { site: Pick<Site, 'id' | 'locale' | 'timeZone'>; now: number }): Promise<SeriesComments> {
  const { site, now } = ctx;
  const data = await cache.get(key(site.id, seriesId), async () => {
    const [counts, latest] = await Promise.all([repo.countsForSeries(db, seriesId, site.id), repo.latestForSeries(db, seriesId, site.id, SERIES_LATEST)]);
    return { counts, latest };
  });
  return {
    counts: data.counts,
    latest: data.latest.map((r) => ({
      id: r.id, author: r.author, staff: r.staff, creator: r.creator, segments: parseBody(excerpt(r.body)), spoiler: r.spoiler, createdAt: r.createdAt,
      when: chapterDate(r.createdAt, now, site.locale, site.timeZone), edited: r.editedAt !== null, likes: r.likes, e4pid: r.e4pid, number: r.number,
    })),
  };
}
