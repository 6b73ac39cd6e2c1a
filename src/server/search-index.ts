/**
 * The search's SQL (docs/search.md): the search documents in series_search (migration
 * 2026-11-21T03-search), rebuilt by reindexSeries, which must run whenever a series, its
 * translations, credits, tags or keywords change (docs/content.md); the rows the in-process
 * search index is built from; and the listing's "id is one of the hits" condition. Matching
 * itself happens in src/features/search/fuzzy.ts, the same on both databases.
 */
import { PostgresAdapter, sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '@db/schema';
import { normalizeText, searchDocument } from '~/lib/search-text';

type AnyDb = Kysely<Database> | Transaction<Database>;

const CHUNK = 500;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function inTransaction<T>(db: AnyDb, run: (trx: AnyDb) => Promise<T>): Promise<T> {
  if (db.isTransaction) return run(db);
  return (db as Kysely<Database>).transaction().execute(run);
}

/** Builds the documents of these series (ids that no longer exist are skipped). */
async function buildDocuments(db: AnyDb, ids: readonly number[]): Promise<{ series_id: number; name: string; document: string }[]> {
  if (!ids.length) return [];
  const [series, people, tags, keywords, texts] = await Promise.all([
    db.selectFrom('series').select(['id', 'name', 'alt']).where('id', 'in', ids).orderBy('id').execute(),
    db.selectFrom('series_people').innerJoin('people', 'people.id', 'series_people.person_id')
      .select(['series_people.series_id as sid', 'people.name', 'people.alt'])
      .where('series_people.series_id', 'in', ids).orderBy('series_people.series_id').orderBy('series_people.role').orderBy('series_people.position').execute(),
    db.selectFrom('series_tags').innerJoin('tags', 'tags.id', 'series_tags.tag_id')
      .select(['series_tags.series_id as sid', 'tags.name', 'tags.name_pt'])
      .where('series_tags.series_id', 'in', ids).orderBy('series_tags.series_id').orderBy('series_tags.position').execute(),
    db.selectFrom('series_keywords').innerJoin('keywords', 'keywords.id', 'series_keywords.keyword_id')
      .select(['series_keywords.series_id as sid', 'keywords.word'])
      .where('series_keywords.series_id', 'in', ids).orderBy('series_keywords.series_id').orderBy('keywords.word').execute(),
    // Translated names: a series is found by its name on either site.
    db.selectFrom('series_texts').select(['series_id as sid', 'name'])
      .where('series_id', 'in', ids).where('name', 'is not', null).orderBy('series_id').orderBy('language').execute(),
  ]);
  const extra = new Map<number, (string | null)[]>();
  const add = (sid: number, ...texts: (string | null)[]) => {
    const list = extra.get(Number(sid)) ?? [];
    list.push(...texts);
    extra.set(Number(sid), list);
  };
  for (const p of people) add(p.sid, p.name, p.alt);
  for (const t of tags) add(t.sid, t.name, t.name_pt);
  for (const k of keywords) add(k.sid, k.word);
  for (const t of texts) add(t.sid, t.name);
  return series.map((s) => ({
    series_id: Number(s.id),
    name: normalizeText(s.name),
    document: searchDocument([s.name, ...s.alt.split('\n'), ...(extra.get(Number(s.id)) ?? [])]),
  }));
}

let indexGeneration = 0;

/**
 * Bumped whenever this process rebuilds search documents, so caches of search results in this
 * process (the suggestions cache) drop what they hold. Other processes rely on their caches' TTL.
 */
export function searchIndexGeneration(): number {
  return indexGeneration;
}

/**
 * Rebuilds the search documents of these series, or of every series when `seriesIds` is
 * omitted. Runs in a transaction per chunk of 500 series (or inside the caller's transaction).
 * Returns the number of documents written.
 */
export async function reindexSeries(db: AnyDb, seriesIds?: readonly number[]): Promise<number> {
  indexGeneration++;
  let ids: number[];
  if (seriesIds) ids = [...new Set(seriesIds.map(Number).filter(Number.isSafeInteger))];
  else ids = (await db.selectFrom('series').select('id').orderBy('id').execute()).map((r) => Number(r.id));
  let written = 0;
  for (const chunk of chunks(ids, CHUNK)) {
    written += await inTransaction(db, async (trx) => {
      const docs = await buildDocuments(trx, chunk);
      await trx.deleteFrom('series_search').where('series_id', 'in', chunk).execute();
      if (docs.length) await trx.insertInto('series_search').values(docs).execute();
      return docs.length;
    });
  }
  return written;
}

/**
 * A condition on `series.id` being one of `ids` (the listing's search hits, possibly thousands),
 * sent as one parameter: a JSON array on SQLite, an integer array on PostgreSQL.
 */
export function seriesIdIn(db: AnyDb, ids: readonly number[]): Expression<SqlBool> {
  const clean = ids.map(Number).filter(Number.isSafeInteger);
  if (isPostgres(db)) return sql<SqlBool>`${sql.ref('series.id')} = any(${clean}::bigint[])`;
  return sql<SqlBool>`${sql.ref('series.id')} in (select value from json_each(${JSON.stringify(clean)}))`;
}

/** The sites (1, 3) each series is shown on, ascending. */
export async function seriesSites(db: AnyDb, ids: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await db.selectFrom('series_languages').select(['series_id', 'site_id']).distinct()
    .where('series_id', 'in', ids).where('site_id', 'in', [1, 3]).execute();
  for (const r of rows) out.get(Number(r.series_id))?.push(Number(r.site_id));
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

/** What the search index holds of one series (src/features/search/fuzzy.ts). */
export interface SuggestionRow {
  id: number;
  slug: string;
  /** ACTIVE or REMOVED (the listing lists removed series; suggestions leave them out). */
  state: string;
  /** The original name and excerpt, and this language's translations (null: none). */
  name: string;
  excerpt: string;
  t_name: string | null;
  t_excerpt: string | null;
  /** Alternative names, one per line. */
  alt: string;
  /** Translated names in every language, one per line. */
  names: string;
  images: string;
  popularity: number;
  /** JSON arrays of country codes: the series' own geoblocks and its publisher's. */
  geoblocks: string;
  publisher_geoblocks: string | null;
  /** The full-text document (authors, tags, keywords, names), already normalised. */
  document: string;
}

/**
 * Every series the search may find on these sites: ACTIVE and REMOVED (BLOCKED and DRAFT never
 * appear, as in the listing), shown on one of the sites, with its texts in `language` and its search
 * document. One query for SQLite and PostgreSQL.
 */
export async function suggestionRows(db: AnyDb, siteIds: readonly number[], language: string): Promise<SuggestionRow[]> {
  const ids = [...new Set(siteIds.map(Number).filter(Number.isSafeInteger))];
  if (!ids.length) return [];
  const rows = await db.selectFrom('series as s')
    .leftJoin('series_search as ss', 'ss.series_id', 's.id')
    .leftJoin('publishers as p', 'p.id', 's.publisher_id')
    .leftJoin('series_texts as t', (j) => j.onRef('t.series_id', '=', 's.id').on('t.language', '=', language))
    .select(['s.id', 's.slug', 's.state', 's.name', 's.excerpt', 's.alt', 's.images', 's.popularity', 's.geoblocks', 'p.geoblocks as publisher_geoblocks',
      'ss.document', 't.name as t_name', 't.excerpt as t_excerpt'])
    // Never a blocked series (as in the listing) nor a draft (not yet published).
    .where('s.state', 'not in', ['BLOCKED', 'DRAFT'])
    .where((eb) => eb.exists(eb.selectFrom('series_languages as sl').select('sl.series_id').whereRef('sl.series_id', '=', 's.id').where('sl.site_id', 'in', ids)))
    .orderBy('s.id')
    .execute();
  const names = new Map<number, string[]>();
  for (const t of await db.selectFrom('series_texts').select(['series_id', 'name']).where('name', 'is not', null).execute()) {
    const list = names.get(Number(t.series_id)) ?? [];
    list.push(t.name!);
    names.set(Number(t.series_id), list);
  }
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    popularity: Number(r.popularity),
    document: r.document ?? '',
    names: (names.get(Number(r.id)) ?? []).join('\n'),
  }));
}
