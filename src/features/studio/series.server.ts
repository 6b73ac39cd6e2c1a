/**
 * The studio's series editor (issue 27, docs/staff.md), for staff with `content`: the list of a
 * site's series and every draft, and creating and editing a series' names and texts (the original
 * in `series`, translations in `series_texts`), format, adult flag, update status, colour, slug,
 * the languages it is published in (`series_languages`: which site lists it) and its state.
 *
 * A form is read strictly: every refusal is a message per field, the values kept, never a 500.
 * Each write and its audit record commit together; after the commit the catalogue's caches and
 * the page cache are emptied and the series' search document rebuilt, so readers see the change
 * on their next request (and a draft disappears from everything at once).
 */
import crypto from 'node:crypto';
import type { SeriesRow } from '@db/schema';
import type { MessageKey } from '~/lib/i18n';
import { siteIdForLanguage, type SiteId } from '~/lib/site';
import { normalizeText } from '~/lib/search-text';
import { catalogChanged } from '~/server/cache';
import { writeAudit, type AuditActor } from '~/server/audit';
import { writeTransaction, type DB, type WriteTx } from '~/server/db';
import { reindexSeries } from '~/server/search-index';
import { refreshSearchIndexes } from '~/features/search/index.server';
import * as repo from './repository.server';

export const SERIES_STATES = ['DRAFT', 'ACTIVE', 'REMOVED', 'BLOCKED'] as const;
export type StudioSeriesState = (typeof SERIES_STATES)[number];
export const SERIES_FORMATS = ['COMIC', 'MANGA', 'WEBTOON'] as const;
/** The update statuses the site names (i18n `status.*`). */
export const UPDATE_STATUSES = ['UNKNOWN', 'COMING_SOON', 'DAILY', 'WEEKLY', 'BI_WEEKLY', 'MONTHLY', 'SUNDAYS', 'MONDAYS', 'TUESDAYS', 'WEDNESDAYS', 'THURSDAYS', 'FRIDAYS', 'SATURDAYS', 'HIATUS', 'COMPLETED'] as const;
/** The content languages the two sites show: a series published in one is listed by its site. */
export const SERIES_LANGUAGES = ['en', 'pt-br'] as const;
export type SeriesLanguage = (typeof SERIES_LANGUAGES)[number];
/** The texts each language has; the original's are the series' own columns. */
export const TEXT_FIELDS = ['name', 'description', 'excerpt', 'update_text', 'chapter_name_format'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/** Longest value per text field (the form says so with maxlength too). */
export const TEXT_LIMITS: Record<TextField, number> = { name: 200, description: 5000, excerpt: 500, update_text: 200, chapter_name_format: 100 };
const SLUG_MAX = 200;
const ALT_MAX = 2000;
export const STUDIO_SERIES_PAGE_SIZE = 50;
/**
 * The editor's form body cap: every text at its longest in three languages is about 20,000
 * characters, more than the site's usual 16 KB form cap once percent-encoded, so the editor takes
 * the most any request may carry (scripts/edge.mjs MAX_REQUEST_BODY, 64 KB).
 */
export const SERIES_FORM_MAX = 64 * 1024;

export type Texts = Record<TextField, string>;

/** The editor's values, as typed (the form shows them again after a refusal). */
export interface SeriesFormValues {
  original: Texts;
  alt: string;
  translations: Record<SeriesLanguage, Texts>;
  format: string;
  adult: boolean;
  updateStatus: string;
  color: string;
  slug: string;
  languages: string[];
  state: string;
}

/** A field's name in the form, also the key of its message. */
export type FieldName = `original.${TextField}` | `${SeriesLanguage}.${TextField}` | 'alt' | 'format' | 'update_status' | 'color' | 'slug' | 'languages' | 'state';
export type FieldErrors = Partial<Record<FieldName, MessageKey>>;

const emptyTexts = (): Texts => ({ name: '', description: '', excerpt: '', update_text: '', chapter_name_format: '' });

/** The values of a new series: a draft in the site's language. */
export function newSeriesValues(language: string): SeriesFormValues {
  return {
    original: emptyTexts(), alt: '', translations: { en: emptyTexts(), 'pt-br': emptyTexts() },
    format: 'COMIC', adult: false, updateStatus: 'UNKNOWN', color: '#3d5a80', slug: '', languages: [language], state: 'DRAFT',
  };
}

/** Text typed in a form: line ends as \n, no trailing spaces. */
const clean = (s: string) => s.replace(/\r\n?/g, '\n').trim();

/** "Coração de Aço!" -> "coracao-de-aco". */
export function slugify(text: string): string {
  return normalizeText(text.replace(/['’]/g, '')).replace(/\s+/g, '-').replace(/[^a-z0-9-]/g, '').replace(/-+/g, '-').replace(/^-|-$/g, '').slice(0, SLUG_MAX).replace(/-$/, '');
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * Reads the editor's form. Lengths are checked on what was sent (a field is never cut quietly);
 * an empty slug is made from the name later, when it can be checked against the others.
 */
export function readSeriesForm(form: URLSearchParams): { values: SeriesFormValues; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const text = (name: string) => clean(form.get(name) ?? '');
  const texts = (prefix: 'original' | SeriesLanguage): Texts => {
    const out = emptyTexts();
    for (const f of TEXT_FIELDS) {
      const v = text(`${prefix}.${f}`);
      out[f] = v;
      if (v.length > TEXT_LIMITS[f]) errors[`${prefix}.${f}`] = 'studio.series.error.tooLong';
      else if (f === 'chapter_name_format' && v && !v.includes('{num}')) errors[`${prefix}.${f}`] = 'studio.series.error.chapterFormat';
      else if (f !== 'description' && /\n/.test(v)) errors[`${prefix}.${f}`] = 'studio.series.error.oneLine';
    }
    return out;
  };
  const values: SeriesFormValues = {
    original: texts('original'),
    alt: text('alt'),
    translations: { en: texts('en'), 'pt-br': texts('pt-br') },
    format: text('format'),
    adult: form.get('adult') === '1',
    updateStatus: text('update_status'),
    color: text('color'),
    slug: text('slug').toLowerCase(),
    languages: form.getAll('languages').map((l) => l.trim()),
    state: text('state'),
  };
  if (!values.original.name) errors['original.name'] = 'studio.series.error.name';
  if (values.alt.length > ALT_MAX) errors.alt = 'studio.series.error.tooLong';
  if (!(SERIES_FORMATS as readonly string[]).includes(values.format)) errors.format = 'studio.series.error.choice';
  if (!(UPDATE_STATUSES as readonly string[]).includes(values.updateStatus)) errors.update_status = 'studio.series.error.choice';
  if (!COLOR.test(values.color)) errors.color = 'studio.series.error.color';
  if (values.slug && (values.slug.length > SLUG_MAX || !SLUG.test(values.slug))) errors.slug = 'studio.series.error.slug';
  if (values.languages.some((l) => !(SERIES_LANGUAGES as readonly string[]).includes(l)) || new Set(values.languages).size !== values.languages.length) errors.languages = 'studio.series.error.choice';
  if (!(SERIES_STATES as readonly string[]).includes(values.state)) errors.state = 'studio.series.error.choice';
  return { values, errors };
}

/** The editor's values of a stored series. */
export async function seriesValues(db: DB, id: number): Promise<SeriesFormValues | null> {
  const row = await repo.studioSeriesById(db, id);
  if (!row) return null;
  const [texts, languages] = await Promise.all([repo.studioSeriesTexts(db, id), repo.languagesOfSeries(db, [id])]);
  const translations: Record<SeriesLanguage, Texts> = { en: emptyTexts(), 'pt-br': emptyTexts() };
  for (const t of texts) {
    if (t.language !== 'en' && t.language !== 'pt-br') continue;
    for (const f of TEXT_FIELDS) translations[t.language][f] = t[f] ?? '';
  }
  return {
    original: { name: row.name, description: row.description, excerpt: row.excerpt, update_text: row.update_text ?? '', chapter_name_format: row.chapter_name_format ?? '' },
    alt: row.alt,
    translations,
    format: row.format,
    adult: Number(row.adult) === 1,
    updateStatus: row.update_status,
    color: row.color,
    slug: row.slug,
    languages: languages.map((l) => l.language),
    state: row.state,
  };
}

/** What the audit record keeps of a series: the fields, long texts cut. */
function summary(v: SeriesFormValues): Record<string, unknown> {
  const cut = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);
  const out: Record<string, unknown> = {
    name: v.original.name, slug: v.slug, state: v.state, format: v.format, adult: v.adult, update_status: v.updateStatus, color: v.color,
    languages: v.languages.join(', '), alt: cut(v.alt),
  };
  for (const f of TEXT_FIELDS) if (f !== 'name') out[f] = cut(v.original[f]);
  for (const l of SERIES_LANGUAGES) for (const f of TEXT_FIELDS) out[`${l}.${f}`] = cut(v.translations[l][f]);
  return out;
}

/** Only what changed, before and after (an edit's record says what it did, not the whole series). */
function changes(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const k of Object.keys(after)) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) {
      b[k] = before[k];
      a[k] = after[k];
    }
  }
  return { before: b, after: a };
}

export type SaveResult = { ok: true; id: number; changed: boolean } | { ok: false; values: SeriesFormValues; errors: FieldErrors } | { ok: false; notFound: true };

/** The default availability and free-access settings of a new series: nothing free, no pass, no ads. */
const NEW_STRATEGY = { starting_count: 0, simulpub: false, latest_only_free: false, fpf_becomes_paid: false, fpf_becomes_free: false, fpf_becomes_backlog: false, backlog_becomes_backlog: false, catchup_count: 0, latest_episode_double: false };
const NEW_FREE_AVAILABILITY = { daily_pass_enabled: false, daily_pass_ttl: 3 * 86400, daily_pass_recharge: 23 * 3600, ads_enabled: false, total_ads: 0, available_ads: 0, ads_ttl: 2 * 86400, subscribed: false, ads_hint: null };

function columns(v: SeriesFormValues) {
  const alt = v.alt.split('\n').map((s) => s.trim()).filter(Boolean);
  return {
    slug: v.slug,
    name: v.original.name,
    alt: alt.join('\n'),
    description: v.original.description,
    excerpt: v.original.excerpt,
    search_text: normalizeText([v.original.name, ...alt].join(' ')),
    adult: v.adult ? 1 : 0,
    format: v.format as SeriesRow['format'],
    update_status: v.updateStatus,
    update_text: v.original.update_text || null,
    chapter_name_format: v.original.chapter_name_format || null,
    color: v.color.toLowerCase(),
    state: v.state,
  };
}

/** A free slug from the name: the name's, or the first free `name-2`, `name-3`… */
async function freeSlug(db: DB, name: string): Promise<string> {
  const base = slugify(name) || 'series';
  const taken = await repo.slugsLike(db, base);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

async function newE4pid(db: DB): Promise<string> {
  for (;;) {
    const id = `SER-${crypto.randomBytes(6).toString('hex').slice(0, 8)}`;
    if (!(await repo.e4pidTaken(db, id))) return id;
  }
}

/**
 * After a committed write: the search document is rebuilt, every cache of the catalogue and the
 * page cache forget, and this process's search indexes are rebuilt before the answer, so the
 * staff member's next look (and every reader's) sees the change.
 */
async function published(db: DB, id: number): Promise<void> {
  await reindexSeries(db, [id]);
  catalogChanged();
  await refreshSearchIndexes(db);
}

async function writeTexts(tx: WriteTx, id: number, v: SeriesFormValues, now: number) {
  for (const l of SERIES_LANGUAGES) {
    const t = v.translations[l];
    const any = TEXT_FIELDS.some((f) => t[f]);
    await repo.replaceSeriesText(tx, id, l, any ? { name: t.name || null, description: t.description || null, excerpt: t.excerpt || null, update_text: t.update_text || null, chapter_name_format: t.chapter_name_format || null } : null);
  }
  await repo.setSeriesLanguages(tx, id, v.languages.map((language) => ({ language, siteId: siteIdForLanguage(language) as SiteId })), now);
}

/** Creates a series from the editor's form (a draft unless staff chose otherwise), with its audit record. */
export async function createSeries(db: DB, form: URLSearchParams, actor: AuditActor, now: number): Promise<SaveResult> {
  const { values, errors } = readSeriesForm(form);
  if (Object.keys(errors).length) return { ok: false, values, errors };
  if (values.slug) {
    if (await repo.slugTaken(db, values.slug, null)) return { ok: false, values, errors: { slug: 'studio.series.error.slugTaken' } };
  } else values.slug = await freeSlug(db, values.original.name);
  const e4pid = await newE4pid(db);
  let id: number;
  try {
    id = await writeTransaction(db, async (tx) => {
      const id = await repo.insertSeries(tx, {
        ...columns(values), e4pid,
        publisher_id: null, in_exclusive: 0, in_hype: 0, all_free: 0,
        availability_strategy: JSON.stringify(NEW_STRATEGY), free_availability: JSON.stringify(NEW_FREE_AVAILABILITY),
        geoblocks: '[]', chapter_title: null, images: '{}', copyright: null, cover_copyright: null, chapter_copyright: null, hints: '[]',
        popularity: 0, created_at: now, modified_at: now, last_updated: 0, largest_chapter: 0, chapter_count: 0,
      });
      await writeTexts(tx, id, values, now);
      await writeAudit(tx, actor, { action: 'series.create', object: { table: 'series', id }, before: null, after: { e4pid, ...summary(values) } }, now);
      return id;
    });
  } catch (e) {
    // Two staff taking the same slug at once: the unique index decides, the form says so.
    if (await repo.slugTaken(db, values.slug, null)) return { ok: false, values, errors: { slug: 'studio.series.error.slugTaken' } };
    throw e;
  }
  await published(db, id);
  return { ok: true, id, changed: true };
}

/** Saves the editor's form over series `id`; the audit record keeps what changed. */
export async function updateSeries(db: DB, id: number, form: URLSearchParams, actor: AuditActor, now: number): Promise<SaveResult> {
  const current = await seriesValues(db, id);
  if (!current) return { ok: false, notFound: true };
  const { values, errors } = readSeriesForm(form);
  if (Object.keys(errors).length) return { ok: false, values, errors };
  if (!values.slug) values.slug = current.slug;
  if (values.slug !== current.slug && (await repo.slugTaken(db, values.slug, id))) return { ok: false, values, errors: { slug: 'studio.series.error.slugTaken' } };
  const diff = changes(summary(current), summary(values));
  if (!Object.keys(diff.after).length) return { ok: true, id, changed: false };
  try {
    await writeTransaction(db, async (tx) => {
      await repo.updateSeries(tx, id, { ...columns(values), modified_at: now });
      await writeTexts(tx, id, values, now);
      await writeAudit(tx, actor, { action: 'series.update', object: { table: 'series', id }, before: diff.before, after: diff.after }, now);
    });
  } catch (e) {
    if (await repo.slugTaken(db, values.slug, id)) return { ok: false, values, errors: { slug: 'studio.series.error.slugTaken' } };
    throw e;
  }
  await published(db, id);
  return { ok: true, id, changed: true };
}

export interface StudioSeriesRow {
  id: number;
  name: string;
  slug: string;
  state: string;
  format: string;
  languages: string[];
  chapters: number;
}

export interface StudioSeriesQuery {
  q: string;
  state: string;
}

export type StudioSeriesList =
  | { ok: true; query: StudioSeriesQuery; page: number; rows: StudioSeriesRow[]; hasNext: boolean }
  | { ok: false; query: StudioSeriesQuery; error: MessageKey };

/** The studio's list: the site's series and every draft, filtered by text and state. */
export async function studioSeriesList(db: DB, siteId: number, params: URLSearchParams): Promise<StudioSeriesList> {
  const query: StudioSeriesQuery = { q: (params.get('q') ?? '').trim(), state: (params.get('state') ?? '').trim() };
  const fail = (error: MessageKey): StudioSeriesList => ({ ok: false, query, error });
  const rawPage = params.get('page');
  if (rawPage !== null && rawPage !== '' && !/^\d{1,6}$/.test(rawPage)) return fail('studio.series.error.page');
  const page = rawPage ? Number(rawPage) : 1;
  if (page < 1) return fail('studio.series.error.page');
  if (query.q.length > 100) return fail('studio.series.error.search');
  if (query.state && !(SERIES_STATES as readonly string[]).includes(query.state)) return fail('studio.series.error.state');
  const rows = await repo.listStudioSeries(db, { siteId, text: query.q.toLowerCase(), state: query.state || null }, (page - 1) * STUDIO_SERIES_PAGE_SIZE, STUDIO_SERIES_PAGE_SIZE);
  const shown = rows.slice(0, STUDIO_SERIES_PAGE_SIZE);
  const languages = await repo.languagesOfSeries(db, shown.map((r) => Number(r.id)));
  return {
    ok: true, query, page, hasNext: rows.length > STUDIO_SERIES_PAGE_SIZE,
    rows: shown.map((r) => ({
      id: Number(r.id), name: r.name, slug: r.slug, state: r.state, format: r.format, chapters: Number(r.chapter_count),
      languages: languages.filter((l) => Number(l.series_id) === Number(r.id)).map((l) => l.language),
    })),
  };
}

/** A series id from the address: digits only, within range; anything else finds nothing. */
export function studioSeriesId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,12}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && Number.isSafeInteger(id) ? id : null;
}
