/**
 * The relay answers: for some series, the episodes released in a window
 * (`updates`) or scheduled in one (`futures`), grouped per series. The same query feeds the
 * latest-updates list of the home page (latest.server.ts). Documented in docs/api.md ("Relay").
 */
import type { APIRoute } from 'astro';
import { getDb, type DB } from '~/server/db';
import { json, jsonError } from '~/server/http';
import type { Site } from '~/lib/site';
import type { T } from '~/lib/i18n';
import { isOnSale, toSeriesCard, type SeriesCard, type SeriesCardRow, displayChapterName } from '~/features/catalog';
import { readerPath, mediaUrl, absoluteUrl, type AbsoluteUrl } from '~/lib/paths';
import { RELAY_CACHE, RELAY_MAX_IDS, RELAY_MAX_ITEMS, inAskedOrder, parseAfter, parseBefore, parseClientId, parsePublisher, parseSeriesRefs, type RelayFailure } from './relay';
import { anonymousPricer, type AnonymousPricer } from '~/features/catalog/index.server';
import { findSiteSeries, newestReleased, publisherExists, releasesBetween, type ReleaseRow } from './repository.server';

export interface RelaySerie {
  id: number;
  e4pid: string;
  name: string;
  uslug: string;
  /** Absolute series page on the requesting host. */
  link: string;
  format: 'COMIC' | 'MANGA' | 'WEBTOON';
  color: string;
  adult: boolean;
  thumbnail: string | null;
  cover: string | null;
}

export interface RelayEpisode {
  /** EPI-… (also as e4pid). */
  id: string;
  e4pid: string;
  number: number;
  /** Localized display name ("Chapter 12.5"). */
  name: string;
  title: string | null;
  language: string;
  /** ISO 8601 UTC. */
  released_at: string;
  /** Unix seconds (schedule items). */
  saleAt: number;
  /** Absolute reader URL (a scheduled chapter's page says when it comes out). */
  link: string;
  free: boolean;
  final_price: number;
  original_price: number;
  on_sale: boolean;
  scheduled: boolean;
}

export interface RelayEntry {
  serie: RelaySerie;
  /** updates: newest first; futures: soonest first. At most 50. */
  items: RelayEpisode[];
  /** The series' newest released episode in the site's language (null when none yet). */
  latest: RelayEpisode | null;
}

export interface RelayAnswer {
  status: 'ok';
  data: { episodes: RelayEntry[] };
}

/** A series card in the relay's wire format (the original API's field names, absolute URLs). */
export function relaySerie(card: SeriesCard, abs: AbsoluteUrl): RelaySerie {
  return {
    id: card.id,
    e4pid: card.e4pid,
    name: card.name,
    uslug: card.slug,
    link: abs(card.href)!,
    format: card.format,
    color: card.color,
    adult: card.adult,
    thumbnail: abs(mediaUrl(card.images.thumbnail)),
    cover: abs(mediaUrl(card.images.cover)),
  };
}

export interface EpisodeContext {
  site: Site;
  t: T;
  now: number;
  abs: AbsoluteUrl;
  /** The one pricing rule, for a reader who is not signed in (the relay is public). */
  price: AnonymousPricer;
}

export function relayEpisode(r: ReleaseRow, ctx: EpisodeContext): RelayEpisode {
  // Every series of the answer was priced; the fallback only keeps the type honest.
  const access = ctx.price(r.series_id, r);
  const price = access?.finalPrice ?? r.original_price;
  const original = access?.originalPrice ?? r.original_price;
  return {
    id: r.e4pid,
    e4pid: r.e4pid,
    number: r.number,
    name: displayChapterName(ctx.t, ctx.site.locale, r, r.number),
    title: r.title,
    language: r.language,
    released_at: new Date(r.released_at * 1000).toISOString(),
    saleAt: r.sale_at,
    link: ctx.abs(readerPath({ slug: r.slug, format: r.format }, r))!,
    free: price === 0,
    final_price: price,
    original_price: original,
    on_sale: access ? isOnSale(access) : false,
    scheduled: r.released_at > ctx.now,
  };
}

export interface RelayQuery {
  site: Site;
  t: T;
  now: number;
  abs: AbsoluteUrl;
  series: readonly (SeriesCardRow & { id: number })[];
  mode: 'updates' | 'futures';
  /** updates: released after this; futures: ignored (from now). */
  after?: number;
  /** futures: scheduled up to this (already capped); updates: ignored (up to now). */
  before?: number;
}

/**
 * Entries for the series with at least one episode in the window, in the order the series were
 * given. Raw rows are returned too, for callers that render HTML (latest.server.ts).
 */
export async function relayEntries(db: DB, q: RelayQuery): Promise<{ entries: RelayEntry[]; rows: Map<number, ReleaseRow[]> }> {
  const series = q.series.slice(0, RELAY_MAX_IDS);
  const ids = series.map((s) => s.id);
  const language = q.site.language;
  const window = q.mode === 'updates'
    ? { after: q.after ?? q.now, until: q.now, order: 'desc' as const }
    : { after: q.now, until: q.before ?? q.now, order: 'asc' as const };
  const [rows, price] = await Promise.all([
    releasesBetween(db, { language, after: window.after, until: window.until, seriesIds: ids, order: window.order, limit: ids.length * RELAY_MAX_ITEMS }),
    anonymousPricer(db, ids, language, q.now),
  ]);
  const limit = ids.length * RELAY_MAX_ITEMS;
  const bySeries = new Map<number, ReleaseRow[]>();
  for (const r of rows) {
    const list = bySeries.get(r.series_id) ?? [];
    if (list.length < RELAY_MAX_ITEMS) list.push(r);
    bySeries.set(r.series_id, list);
  }
  // One query serves the usual short window. When it hit its limit (a long window over busy
  // series), series with fewer than 50 items may have been cut off: ask those one by one.
  if (rows.length >= limit) {
    const short = ids.filter((id) => (bySeries.get(id)?.length ?? 0) < RELAY_MAX_ITEMS);
    const more = await Promise.all(short.map((id) => releasesBetween(db, { language, after: window.after, until: window.until, seriesIds: [id], order: window.order, limit: RELAY_MAX_ITEMS })));
    short.forEach((id, i) => { if (more[i]!.length) bySeries.set(id, more[i]!); });
  }
  const withItems = series.filter((s) => bySeries.has(s.id));
  const latestRows = q.mode === 'updates'
    ? new Map(withItems.map((s) => [s.id, bySeries.get(s.id)![0]!]))
    : await newestReleased(db, withItems.map((s) => s.id), language, q.now);
  const ctx: EpisodeContext = { site: q.site, t: q.t, now: q.now, abs: q.abs, price };
  const entries = withItems.map((s) => {
    const latest = latestRows.get(s.id);
    return {
      serie: relaySerie(toSeriesCard(s), q.abs),
      items: bySeries.get(s.id)!.map((r) => relayEpisode(r, ctx)),
      latest: latest ? relayEpisode(latest, ctx) : null,
    };
  });
  return { entries, rows: bySeries };
}

/** Reads a relay request (path params and query) and answers it: the whole endpoint, shared by both routes. */
export async function relayResponse(
  db: DB,
  req: { publisher: string | undefined; ids: string | undefined; search: URLSearchParams; site: Site; t: T; now: number; abs: AbsoluteUrl },
  mode: 'updates' | 'futures',
): Promise<{ status: 200; body: RelayAnswer } | { status: 400 | 404 | 422; detail: string }> {
  const failure = (f: RelayFailure) => ({ status: f.status, detail: req.t(f.key, f.values) });
  const publisher = parsePublisher(req.publisher);
  if (!publisher.ok) return failure(publisher);
  const refs = parseSeriesRefs(req.ids);
  if (!refs.ok) return failure(refs);
  const client = parseClientId(req.search.get('clientid'));
  if (!client.ok) return failure(client);
  const bound = mode === 'updates' ? parseAfter(req.search.get('after'), req.now) : parseBefore(req.search.get('before'), req.now);
  if (!bound.ok) return failure(bound);
  const publisherId = publisher.value.kind === 'publisher' ? publisher.value.id : null;
  if (publisherId != null && !(await publisherExists(db, publisherId))) return failure({ status: 404, key: 'relay.error.publisher' });
  // The repository answers by id; the documented contract is the order asked.
  const series = inAskedOrder(await findSiteSeries(db, { siteId: req.site.id, ids: refs.value.ids, e4pids: refs.value.e4pids, publisherId }), refs.value.order);
  if (series.length === 0) return failure({ status: 404, key: 'relay.error.unknownSeries' });
  const { entries } = await relayEntries(db, {
    site: req.site, t: req.t, now: req.now, abs: req.abs, series, mode,
    after: mode === 'updates' ? bound.value : undefined,
    before: mode === 'futures' ? bound.value : undefined,
  });
  return { status: 200, body: { status: 'ok', data: { episodes: entries } } };
}

/** The GET handler of both relay routes (docs/api.md, "Relay"): JSON, open to any origin. */
export function relayRoute(mode: 'updates' | 'futures'): APIRoute {
  return async ({ params, url, locals }) => {
    const answer = await relayResponse(
      await getDb(),
      { publisher: params.publisher, ids: params.ids, search: url.searchParams, site: locals.site, t: locals.t, now: locals.now, abs: absoluteUrl(url) },
      mode,
    );
    if (answer.status !== 200) return jsonError(answer.status, answer.detail);
    return json(answer.body, { cache: RELAY_CACHE, headers: { 'Access-Control-Allow-Origin': '*' } });
  };
}
