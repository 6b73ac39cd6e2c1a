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
import { firstLanguage, isHintIcon, parsePreviewPages, type HintIcon } from '~/features/catalog';
import { accountEmails, accountIdsByEmail } from '~/features/accounts/index.server';
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

/** What becomes of a chapter after its first period (free period, catch-up): the strategy's fpf_* flags, at most one set. */
export const FPF_MODES = ['', 'backlog', 'paid', 'free'] as const;
const MAX_TAGS = 20;
const MAX_NOTES = 10;
const MAX_NEW_TAGS = 10;
const MAX_PEOPLE = 20;
/** A series' creator accounts (writer, artist, a few assistants). */
const MAX_CREATORS = 10;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;
const MAX_COUNT = 10_000;
/** Longest rental or recharge the form takes: a year, in hours. */
const MAX_HOURS = 8760;

/** The availability strategy (series.availability_strategy), as typed. */
export interface StrategyValues {
  starting_count: string;
  catchup_count: string;
  simulpub: boolean;
  latest_only_free: boolean;
  fpf: string;
  backlog_becomes_backlog: boolean;
  latest_episode_double: boolean;
}

/** The daily pass and ads (series.free_availability), as typed; durations in hours. */
export interface FreeValues {
  daily_pass_enabled: boolean;
  daily_pass_ttl: string;
  daily_pass_recharge: string;
  ads_enabled: boolean;
  total_ads: string;
  ads_ttl: string;
  ads_hint: string;
}

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
  /** Chosen tag ids, in order. */
  tags: string[];
  /** New tags, one a line: "English name | nome em português". */
  newTags: string;
  /** Names, one a line, in order; an unknown name makes a new person. */
  authors: string;
  artists: string;
  /** A publisher id, or '' for none. */
  publisher: string;
  /** ISO 3166-1 codes where the series is blocked, as typed ("BR, PT"). */
  geoblocks: string;
  /** First pages of a locked chapter shown as its preview, as typed ("3"; 0 or empty: none). */
  previewPages: string;
  /** The creators' accounts, by email, one a line: their comments carry a "Creator" badge. */
  creators: string;
  allFree: boolean;
  strategy: StrategyValues;
  free: FreeValues;
  /** The series page's notes ("New chapters every Friday"), one a line, per site language. */
  notes: Record<SeriesLanguage, string>;
}

/** The editor's choices: every tag and publisher. */
export interface SeriesFormOptions {
  tags: { id: number; slug: string; name: string; namePt: string }[];
  publishers: { id: number; name: string }[];
}

/** A field's name in the form, also the key of its message. */
export type FieldName = `original.${TextField}` | `${SeriesLanguage}.${TextField}` | 'alt' | 'format' | 'update_status' | 'color' | 'slug' | 'languages' | 'state'
  | 'tags' | 'new_tags' | 'authors' | 'artists' | 'publisher' | 'geoblocks' | 'preview_pages' | 'creators' | 'starting_count' | 'catchup_count' | 'fpf'
  | 'daily_pass_ttl' | 'daily_pass_recharge' | 'total_ads' | 'ads_ttl' | 'ads_hint' | `notes.${SeriesLanguage}`;
export type FieldErrors = Partial<Record<FieldName, MessageKey>>;

const emptyTexts = (): Texts => ({ name: '', description: '', excerpt: '', update_text: '', chapter_name_format: '' });

/** The values of a new series: a draft in the site's language. */
export function newSeriesValues(language: string): SeriesFormValues {
  return {
    original: emptyTexts(), alt: '', translations: { en: emptyTexts(), 'pt-br': emptyTexts() },
    format: 'COMIC', adult: false, updateStatus: 'UNKNOWN', color: '#3d5a80', slug: '', languages: [language], state: 'DRAFT',
    tags: [], newTags: '', authors: '', artists: '', publisher: '', geoblocks: '', previewPages: '0', creators: '', allFree: false,
    strategy: { starting_count: '0', catchup_count: '0', simulpub: false, latest_only_free: false, fpf: '', backlog_becomes_backlog: false, latest_episode_double: false },
    free: { daily_pass_enabled: false, daily_pass_ttl: '72', daily_pass_recharge: '23', ads_enabled: false, total_ads: '0', ads_ttl: '48', ads_hint: '' },
    notes: { en: '', 'pt-br': '' },
  };
}

/** Text typed in a form: line ends as \n, no trailing spaces. */
const clean = (s: string) => s.replace(/\r\n?/g, '\n').trim();

/** "Coração de Aço!" -> "coracao-de-aco". */
export function slugify(text: string): string {
  return normalizeText(text.replace(/['’]/g, '')).replace(/\s+/g, '-').replace(/[^a-z0-9-]/g, '').replace(/-+/g, '-').replace(/^-|-$/g, '').slice(0, SLUG_MAX).replace(/-$/, '');
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const WHOLE = /^\d{1,6}$/;
const HOURS = /^\d{1,4}(?:\.\d{1,2})?$/;
const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** Non-empty lines, trimmed. */
const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

/** An ISO 3166-1 alpha-2 code of a real region ("BR"), as ICU knows them; not "EU", not "ZZ". */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !['EU', 'EZ', 'UN', 'ZZ', 'QO', 'XA', 'XB'].includes(code) && regions.of(code) !== undefined;
}

/** Country codes as typed ("br, pt pt"): upper-cased, deduplicated, sorted; null when one is not a country. */
export function parseCountries(text: string): string[] | null {
  const codes = [...new Set(text.split(/[\s,;]+/).map((c) => c.trim().toUpperCase()).filter(Boolean))].sort();
  return codes.length <= 250 && codes.every(isCountryCode) ? codes : null;
}

/** New tags as typed, one a line: "English | Português"; null when a line lacks a name. */
export function parseNewTags(text: string): { name: string; namePt: string }[] | null {
  const out: { name: string; namePt: string }[] = [];
  for (const line of lines(text)) {
    const [name = '', namePt = '', ...rest] = line.split('|').map((p) => p.trim());
    if (!name || !namePt || rest.length || name.length > 60 || namePt.length > 60 || !slugify(name)) return null;
    out.push({ name, namePt });
  }
  return out.length <= MAX_NEW_TAGS ? out : null;
}

/** Hours typed ("72", "0.5") as seconds. */
const seconds = (hours: string) => Math.round(Number(hours) * 3600);
/** Seconds as the hours the form shows. */
const hoursOf = (s: number) => String(Math.round((s / 3600) * 100) / 100);

/** The stored shapes of the settings (docs/pricing.md): what the pricing rule reads. */
function strategyOf(v: StrategyValues) {
  return {
    starting_count: Number(v.starting_count), simulpub: v.simulpub, latest_only_free: v.latest_only_free,
    fpf_becomes_paid: v.fpf === 'paid', fpf_becomes_free: v.fpf === 'free', fpf_becomes_backlog: v.fpf === 'backlog',
    backlog_becomes_backlog: v.backlog_becomes_backlog, catchup_count: Number(v.catchup_count), latest_episode_double: v.latest_episode_double,
  };
}

function freeOf(v: FreeValues) {
  const total = Number(v.total_ads);
  return {
    daily_pass_enabled: v.daily_pass_enabled, daily_pass_ttl: seconds(v.daily_pass_ttl), daily_pass_recharge: seconds(v.daily_pass_recharge),
    ads_enabled: v.ads_enabled, total_ads: total, available_ads: total, ads_ttl: seconds(v.ads_ttl), ads_hint: v.ads_hint || null,
  };
}

/** A JSON object column, leniently (a malformed one reads as empty; the form then writes a good one). */
function jsonObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
const bool = (v: unknown) => v === true || v === 1;
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
    tags: form.getAll('tags').map((t) => t.trim()),
    newTags: text('new_tags'),
    authors: text('authors'),
    artists: text('artists'),
    publisher: text('publisher'),
    geoblocks: text('geoblocks'),
    previewPages: text('preview_pages'),
    creators: text('creators'),
    allFree: form.get('all_free') === '1',
    strategy: {
      starting_count: text('starting_count'), catchup_count: text('catchup_count'),
      simulpub: form.get('simulpub') === '1', latest_only_free: form.get('latest_only_free') === '1', fpf: text('fpf'),
      backlog_becomes_backlog: form.get('backlog_becomes_backlog') === '1', latest_episode_double: form.get('latest_episode_double') === '1',
    },
    free: {
      daily_pass_enabled: form.get('daily_pass_enabled') === '1', daily_pass_ttl: text('daily_pass_ttl'), daily_pass_recharge: text('daily_pass_recharge'),
      ads_enabled: form.get('ads_enabled') === '1', total_ads: text('total_ads'), ads_ttl: text('ads_ttl'), ads_hint: text('ads_hint'),
    },
    notes: { en: text('notes.en'), 'pt-br': text('notes.pt-br') },
  };
  if (!values.original.name) errors['original.name'] = 'studio.series.error.name';
  if (values.alt.length > ALT_MAX) errors.alt = 'studio.series.error.tooLong';
  if (!(SERIES_FORMATS as readonly string[]).includes(values.format)) errors.format = 'studio.series.error.choice';
  if (!(UPDATE_STATUSES as readonly string[]).includes(values.updateStatus)) errors.update_status = 'studio.series.error.choice';
  if (!COLOR.test(values.color)) errors.color = 'studio.series.error.color';
  if (values.slug && (values.slug.length > SLUG_MAX || !SLUG.test(values.slug))) errors.slug = 'studio.series.error.slug';
  if (values.languages.some((l) => !(SERIES_LANGUAGES as readonly string[]).includes(l)) || new Set(values.languages).size !== values.languages.length) errors.languages = 'studio.series.error.choice';
  if (!(SERIES_STATES as readonly string[]).includes(values.state)) errors.state = 'studio.series.error.choice';
  if (values.tags.length > MAX_TAGS || values.tags.some((t) => !/^\d{1,12}$/.test(t)) || new Set(values.tags).size !== values.tags.length) errors.tags = 'studio.series.error.choice';
  if (values.newTags.length > 2000 || parseNewTags(values.newTags) === null) errors.new_tags = 'studio.series.error.newTags';
  for (const role of ['authors', 'artists'] as const) {
    const names = lines(values[role]);
    if (values[role].length > 3000 || names.length > MAX_PEOPLE || names.some((n) => n.length > 120)) errors[role] = 'studio.series.error.people';
  }
  if (values.publisher && !/^\d{1,12}$/.test(values.publisher)) errors.publisher = 'studio.series.error.choice';
  if (values.geoblocks.length > 1000 || parseCountries(values.geoblocks) === null) errors.geoblocks = 'studio.series.error.countries';
  if (parsePreviewPages(values.previewPages) === null) errors.preview_pages = 'studio.series.error.previewPages';
  const creators = lines(values.creators);
  if (values.creators.length > 3000 || creators.length > MAX_CREATORS || creators.some((e) => e.length > 254 || !EMAIL_SHAPE.test(e))) errors.creators = 'studio.series.error.creators';
  for (const k of ['starting_count', 'catchup_count'] as const) {
    if (!WHOLE.test(values.strategy[k]) || Number(values.strategy[k]) > MAX_COUNT) errors[k] = 'studio.series.error.count';
  }
  if (!(FPF_MODES as readonly string[]).includes(values.strategy.fpf)) errors.fpf = 'studio.series.error.choice';
  for (const k of ['daily_pass_ttl', 'daily_pass_recharge', 'ads_ttl'] as const) {
    if (!HOURS.test(values.free[k]) || Number(values.free[k]) <= 0 || Number(values.free[k]) > MAX_HOURS) errors[k] = 'studio.series.error.hours';
  }
  if (!WHOLE.test(values.free.total_ads) || Number(values.free.total_ads) > 100) errors.total_ads = 'studio.series.error.ads';
  else if (values.free.ads_enabled && Number(values.free.total_ads) < 1) errors.total_ads = 'studio.series.error.adsNone';
  for (const l of SERIES_LANGUAGES) {
    const notes = lines(values.notes[l]);
    if (values.notes[l].length > 2500 || notes.length > MAX_NOTES || notes.some((n) => n.length > 200)) errors[`notes.${l}`] = 'studio.series.error.notes';
  }
  if (values.free.ads_hint.length > 200) errors.ads_hint = 'studio.series.error.tooLong';
  else if (/\n/.test(values.free.ads_hint)) errors.ads_hint = 'studio.series.error.oneLine';
  return { values, errors };
}

/** The editor's values of a stored series. */
export async function seriesValues(db: DB, id: number): Promise<SeriesFormValues | null> {
  const row = await repo.studioSeriesById(db, id);
  if (!row) return null;
  const [texts, languages, tags, people] = await Promise.all([repo.studioSeriesTexts(db, id), repo.languagesOfSeries(db, [id]), repo.tagsOfSeries(db, id), repo.peopleOfSeries(db, id)]);
  const strategy = jsonObject(row.availability_strategy);
  const free = jsonObject(row.free_availability);
  const notes = notesOf(row.hints, languages.map((l) => l.language));
  let geoblocks: unknown = [];
  try {
    geoblocks = JSON.parse(row.geoblocks);
  } catch { /* read as none; the form writes a good one */ }
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
    tags: tags.map((t) => String(t.tag_id)),
    newTags: '',
    authors: people.filter((p) => p.role === 'author').map((p) => p.name).join('\n'),
    artists: people.filter((p) => p.role === 'artist').map((p) => p.name).join('\n'),
    publisher: row.publisher_id === null ? '' : String(row.publisher_id),
    geoblocks: Array.isArray(geoblocks) ? geoblocks.filter((c): c is string => typeof c === 'string').join(', ') : '',
    previewPages: String(Number(row.preview_pages) || 0),
    creators: await creatorEmails(db, id),
    allFree: Number(row.all_free) === 1,
    strategy: {
      starting_count: String(num(strategy.starting_count)), catchup_count: String(num(strategy.catchup_count)),
      simulpub: bool(strategy.simulpub), latest_only_free: bool(strategy.latest_only_free),
      fpf: bool(strategy.fpf_becomes_paid) ? 'paid' : bool(strategy.fpf_becomes_free) ? 'free' : bool(strategy.fpf_becomes_backlog) ? 'backlog' : '',
      backlog_becomes_backlog: bool(strategy.backlog_becomes_backlog), latest_episode_double: bool(strategy.latest_episode_double),
    },
    free: {
      daily_pass_enabled: bool(free.daily_pass_enabled), daily_pass_ttl: hoursOf(num(free.daily_pass_ttl) || 3 * 86400), daily_pass_recharge: hoursOf(num(free.daily_pass_recharge) || 23 * 3600),
      ads_enabled: bool(free.ads_enabled), total_ads: String(num(free.total_ads)), ads_ttl: hoursOf(num(free.ads_ttl) || 2 * 86400),
      ads_hint: typeof free.ads_hint === 'string' ? free.ads_hint : '',
    },
    notes: { en: notes.en.map((n) => n.text).join('\n'), 'pt-br': notes['pt-br'].map((n) => n.text).join('\n') },
  };
}

interface Note { text: string; icon: string; language?: string }

const hintIconOr = (icon: unknown): HintIcon => (isHintIcon(icon) ? icon : 'NONE');

/** The stored notes (series.hints) by the site language they show on (a note without one is in the series' first language, as the series page reads it); others kept aside. */
function notesOf(hintsJson: string, seriesLanguages: readonly string[]): Record<SeriesLanguage, Note[]> & { other: Note[] } {
  const out: Record<SeriesLanguage, Note[]> & { other: Note[] } = { en: [], 'pt-br': [], other: [] };
  let list: unknown = [];
  try {
    list = JSON.parse(hintsJson);
  } catch { /* none */ }
  const first = firstLanguage(seriesLanguages);
  for (const h of Array.isArray(list) ? list : []) {
    if (!h || typeof h !== 'object' || typeof (h as Note).text !== 'string') continue;
    const note = h as Note;
    const language = typeof note.language === 'string' ? note.language : first;
    if (language === 'en' || language === 'pt-br') out[language].push(note);
    else out.other.push(note);
  }
  return out;
}

/**
 * The notes to store: each language's lines, with the language named (so a language added later
 * does not move them), an unchanged note keeping its icon (new ones have none); notes of other
 * languages kept as they were.
 */
function hintsJson(stored: string, seriesLanguages: readonly string[], v: SeriesFormValues): string {
  const before = notesOf(stored, seriesLanguages);
  const out: Note[] = [];
  for (const l of SERIES_LANGUAGES) {
    // Only icons of the one list are written (an old free string becomes NONE).
    for (const text of lines(v.notes[l])) out.push({ text, icon: hintIconOr(before[l].find((n) => n.text === text)?.icon), language: l });
  }
  return JSON.stringify([...out, ...before.other]);
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
  out.tags = v.tags.join(', ');
  out.new_tags = lines(v.newTags).join('; ');
  out.authors = lines(v.authors).join(', ');
  out.artists = lines(v.artists).join(', ');
  out.publisher_id = v.publisher ? Number(v.publisher) : null;
  out.geoblocks = (parseCountries(v.geoblocks) ?? []).join(', ');
  out.preview_pages = parsePreviewPages(v.previewPages) ?? 0;
  out.creators = [...new Set(lines(v.creators).map((e) => e.toLowerCase()))].join(', ');
  out.all_free = v.allFree;
  out.availability_strategy = JSON.stringify(strategyOf(v.strategy));
  out.free_availability = JSON.stringify(freeOf(v.free));
  for (const l of SERIES_LANGUAGES) out[`notes.${l}`] = lines(v.notes[l]).join(' / ');
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

export type SaveResult = { ok: true; id: number; changed: boolean } | { ok: false; values: SeriesFormValues; errors: FieldErrors; options: SeriesFormOptions } | { ok: false; notFound: true };

/** The free-access keys of a new series the form does not edit (the seed's shape). */
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
    publisher_id: v.publisher ? Number(v.publisher) : null,
    geoblocks: JSON.stringify(parseCountries(v.geoblocks) ?? []),
    preview_pages: parsePreviewPages(v.previewPages) ?? 0,
    all_free: v.allFree ? 1 : 0,
    availability_strategy: JSON.stringify(strategyOf(v.strategy)),
  };
}

/** The choices exist: the tags and the publisher picked (a stale or forged id is a field message). */
function checkChoices(v: SeriesFormValues, options: SeriesFormOptions): FieldErrors {
  const errors: FieldErrors = {};
  const tagIds = new Set(options.tags.map((t) => t.id));
  if (v.tags.some((t) => !tagIds.has(Number(t)))) errors.tags = 'studio.series.error.choice';
  if (v.publisher && !options.publishers.some((p) => p.id === Number(v.publisher))) errors.publisher = 'studio.series.error.choice';
  return errors;
}

/** The editor of a stored series: its values and the choices; null when there is no such series. */
export async function seriesEditor(db: DB, id: number): Promise<{ values: SeriesFormValues; options: SeriesFormOptions } | null> {
  const [values, options] = await Promise.all([seriesValues(db, id), seriesFormOptions(db)]);
  return values && { values, options };
}

/** The editor of a new series: a draft in the site's language. */
export async function newSeriesEditor(db: DB, language: string): Promise<{ values: SeriesFormValues; options: SeriesFormOptions }> {
  return { values: newSeriesValues(language), options: await seriesFormOptions(db) };
}

/** The creators' emails of a stored series, one a line, in order. */
async function creatorEmails(db: DB, seriesId: number): Promise<string> {
  const ids = await repo.seriesCreatorIds(db, seriesId);
  const emails = await accountEmails(db, ids);
  return ids.map((id) => emails.get(id)).filter((e): e is string => !!e).join('\n');
}

/** The creators' accounts, in the form's order; an email with no account is a field message. */
async function resolveCreators(db: DB, v: SeriesFormValues, errors: FieldErrors): Promise<number[]> {
  const emails = [...new Set(lines(v.creators).map((e) => e.toLowerCase()))];
  const found = await accountIdsByEmail(db, emails);
  const ids = emails.map((e) => found.get(e));
  if (ids.some((id) => id === undefined)) errors.creators = 'studio.series.error.creatorUnknown';
  return ids.filter((id): id is number => id !== undefined);
}

/** Every tag and publisher, for the form. */
export async function seriesFormOptions(db: DB): Promise<SeriesFormOptions> {
  const [tags, publishers] = await Promise.all([repo.allTags(db), repo.allPublishers(db)]);
  return {
    tags: tags.map((t) => ({ id: Number(t.id), slug: t.slug, name: t.name, namePt: t.name_pt })),
    publishers: publishers.map((p) => ({ id: Number(p.id), name: p.name })),
  };
}

/** A free slug in `slugs` from `name`: the name's, or the first free `name-2`, `name-3`… */
function firstFree(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * The tags and people of the form, inside the write: new tags made (or found by their slug), names
 * matched to people ignoring case (a new name makes a person), the lists replaced in order.
 */
async function writeCredits(tx: WriteTx, id: number, v: SeriesFormValues): Promise<void> {
  const tagIds = v.tags.map(Number);
  for (const t of parseNewTags(v.newTags) ?? []) {
    const slug = slugify(t.name);
    const found = await repo.tagBySlug(tx, slug);
    const tagId = found ? Number(found.id) : await repo.insertTag(tx, { slug, name: t.name, name_pt: t.namePt });
    if (!tagIds.includes(tagId)) tagIds.push(tagId);
  }
  await repo.setSeriesTags(tx, id, tagIds.slice(0, MAX_TAGS + MAX_NEW_TAGS));
  const people: { personId: number; role: 'author' | 'artist'; position: number }[] = [];
  for (const [role, text] of [['author', v.authors], ['artist', v.artists]] as const) {
    const names = [...new Map(lines(text).map((n) => [n.toLowerCase(), n])).values()];
    const known = await repo.peopleNamed(tx, names.map((n) => n.toLowerCase()));
    for (const [position, name] of names.entries()) {
      let personId = known.find((p) => p.name.toLowerCase() === name.toLowerCase())?.id;
      if (personId === undefined) {
        const base = slugify(name) || 'person';
        personId = await repo.insertPerson(tx, { name, slug: firstFree(base, await repo.peopleSlugsLike(tx, base)) });
      }
      people.push({ personId: Number(personId), role, position });
    }
  }
  await repo.setSeriesPeople(tx, id, people);
}

/** A free slug from the name: the name's, or the first free `name-2`, `name-3`… */
async function freeSlug(db: DB, name: string): Promise<string> {
  const base = slugify(name) || 'series';
  return firstFree(base, await repo.slugsLike(db, base));
}

async function newE4pid(db: DB): Promise<string> {
  for (;;) {
    const id = `SER-${crypto.randomBytes(6).toString('hex').slice(0, 8)}`;
    if (!(await repo.seriesE4pidTaken(db, id))) return id;
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
  await writeCredits(tx, id, v);
}

/** Creates a series from the editor's form (a draft unless staff chose otherwise), with its audit record. */
export async function createSeries(db: DB, form: URLSearchParams, actor: AuditActor, now: number): Promise<SaveResult> {
  const { values, errors } = readSeriesForm(form);
  const options = await seriesFormOptions(db);
  Object.assign(errors, checkChoices(values, options), errors);
  const creatorIds = errors.creators ? [] : await resolveCreators(db, values, errors);
  if (Object.keys(errors).length) return { ok: false, values, errors, options };
  if (values.slug) {
    if (await repo.slugTaken(db, values.slug, null)) return { ok: false, values, errors: { slug: 'studio.series.error.slugTaken' }, options };
  } else values.slug = await freeSlug(db, values.original.name);
  const e4pid = await newE4pid(db);
  let id: number;
  try {
    id = await writeTransaction(db, async (tx) => {
      const id = await repo.insertSeries(tx, {
        ...columns(values), e4pid,
        in_exclusive: 0, in_hype: 0,
        free_availability: JSON.stringify({ ...NEW_FREE_AVAILABILITY, ...freeOf(values.free) }),
        chapter_title: null, images: '{}', copyright: null, cover_copyright: null, chapter_copyright: null, hints: hintsJson('[]', values.languages, values),
        popularity: 0, created_at: now, modified_at: now, last_updated: 0, largest_chapter: 0, chapter_count: 0,
      });
      await writeTexts(tx, id, values, now);
      await repo.setSeriesCreators(tx, id, creatorIds);
      await writeAudit(tx, actor, { action: 'series.create', object: { table: 'series', id }, before: null, after: { e4pid, ...summary(values) } }, now);
      return id;
    });
  } catch (e) {
    // Two staff taking the same slug at once: the unique index decides, the form says so.
    if (await repo.slugTaken(db, values.slug, null)) return { ok: false, values, errors: { slug: 'studio.series.error.slugTaken' }, options };
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
  const options = await seriesFormOptions(db);
  Object.assign(errors, checkChoices(values, options), errors);
  const creatorIds = errors.creators ? [] : await resolveCreators(db, values, errors);
  if (Object.keys(errors).length) return { ok: false, values, errors, options };
  if (!values.slug) values.slug = current.slug;
  if (values.slug !== current.slug && (await repo.slugTaken(db, values.slug, id))) return { ok: false, values, errors: { slug: 'studio.series.error.slugTaken' }, options };
  const stored = await repo.studioSeriesById(db, id);
  const diff = changes(summary(current), summary(values));
  if (!Object.keys(diff.after).length) return { ok: true, id, changed: false };
  try {
    await writeTransaction(db, async (tx) => {
      // The free-availability JSON keeps the keys the form does not edit (its shape stays the seed's).
      await repo.updateSeries(tx, id, {
        ...columns(values),
        free_availability: JSON.stringify({ ...jsonObject(stored?.free_availability ?? '{}'), ...freeOf(values.free) }),
        hints: hintsJson(stored?.hints ?? '[]', current.languages, values),
        modified_at: now,
      });
      await writeTexts(tx, id, values, now);
      await repo.setSeriesCreators(tx, id, creatorIds);
      await writeAudit(tx, actor, { action: 'series.update', object: { table: 'series', id }, before: diff.before, after: diff.after }, now);
    });
  } catch (e) {
    if (await repo.slugTaken(db, values.slug, id)) return { ok: false, values, errors: { slug: 'studio.series.error.slugTaken' }, options };
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
