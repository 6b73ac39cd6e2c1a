import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed. Full-text search over series (issue 4; src/features/search/).
// series_search holds one normalised document per series (lower case, accent-free words of
// the name, alt names, authors, artists, tag names in en and pt, keywords) and the normalised
// name (for exact / prefix ranking). The dialect-specific index sits on top of it:
//   SQLite      external-content FTS5 table series_fts kept in step by triggers
//   PostgreSQL  GIN index on to_tsvector('simple', document) (no extension: already accent-free)
// src/features/search/index.server.ts rebuilds documents (reindexSeries) and queries them.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.createTable('series_search')
    .addColumn('series_id', 'integer', (c) => c.primaryKey().references('series.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('document', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  if (isPg) {
    await sql`create index series_search_document_gin on series_search using gin (to_tsvector('simple', document))`.execute(db);
  } else {
    await sql`create virtual table series_fts using fts5(document, content='series_search', content_rowid='series_id', tokenize='unicode61 remove_diacritics 2')`.execute(db);
    await sql`create trigger series_search_ai after insert on series_search begin
      insert into series_fts(rowid, document) values (new.series_id, new.document);
    end`.execute(db);
    await sql`create trigger series_search_ad after delete on series_search begin
      insert into series_fts(series_fts, rowid, document) values ('delete', old.series_id, old.document);
    end`.execute(db);
    await sql`create trigger series_search_au after update on series_search begin
      insert into series_fts(series_fts, rowid, document) values ('delete', old.series_id, old.document);
      insert into series_fts(rowid, document) values (new.series_id, new.document);
    end`.execute(db);
  }

  await populate(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (!isPg) {
    for (const t of ['series_search_ai', 'series_search_ad', 'series_search_au']) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
    await sql`drop table if exists series_fts`.execute(db);
  }
  await db.schema.dropTable('series_search').ifExists().execute();
}

// A frozen copy of the normalisation (src/features/search/normalize.ts at the time of writing),
// so this migration keeps doing what it did when the app code moves on.
function normalize(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().normalize('NFC').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Fills series_search for the series already in the database (none on a fresh one). */
async function populate(db: Kysely<any>): Promise<void> {
  const series: { id: number; name: string; alt: string }[] = await db.selectFrom('series').select(['id', 'name', 'alt']).orderBy('id').execute();
  if (!series.length) return;
  const extra = new Map<number, string[]>();
  const add = (id: number, ...texts: (string | null)[]) => {
    let list = extra.get(Number(id));
    if (!list) extra.set(Number(id), (list = []));
    for (const t of texts) if (t) list.push(t);
  };
  const people = await db.selectFrom('series_people').innerJoin('people', 'people.id', 'series_people.person_id')
    .select(['series_people.series_id as sid', 'people.name', 'people.alt']).orderBy('series_people.series_id').orderBy('series_people.position').execute();
  for (const p of people) add(p.sid, p.name, p.alt);
  const tags = await db.selectFrom('series_tags').innerJoin('tags', 'tags.id', 'series_tags.tag_id')
    .select(['series_tags.series_id as sid', 'tags.name', 'tags.name_pt']).orderBy('series_tags.series_id').orderBy('series_tags.position').execute();
  for (const t of tags) add(t.sid, t.name, t.name_pt);
  const keywords = await db.selectFrom('series_keywords').innerJoin('keywords', 'keywords.id', 'series_keywords.keyword_id')
    .select(['series_keywords.series_id as sid', 'keywords.word']).execute();
  for (const k of keywords) add(k.sid, k.word);

  const rows = series.map((s) => ({
    series_id: Number(s.id),
    name: normalize(s.name),
    document: [s.name, ...s.alt.split('\n'), ...(extra.get(Number(s.id)) ?? [])].map(normalize).filter(Boolean).join(' '),
  }));
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('series_search').values(rows.slice(i, i + 500)).execute();
}
