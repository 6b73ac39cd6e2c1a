/**
 * Turns the catalogue definitions into database rows, entirely in memory and
 * deterministically from `now`: release schedules, prices, numbering, ids
 * and the denormalised counters. Nothing here touches the database or disk.
 */
import type { Insertable } from 'kysely';
import type { CampaignTable, ChapterTable, SeriesPromotionTable, SeriesTable, SeriesTextTable } from '../schema';
import { PROMO_HEIGHT, PROMO_WIDTH, promoKeys, type PromoDef } from './promo';
import { PT_DESCRIPTIONS, PT_NAME_FORMATS } from './catalog-pt';
import { type Format, type PoolImage, type SeriesArtSpec, poolPages, poolThumbs, seriesImages } from './art';
import { KEYWORDS, PUBLISHERS, type SeriesDef, TAGS, type UpdateStatus } from './catalog';
import { Rng } from './prng';
import { isHintIcon, promotionProblem } from '~/features/catalog';

/** A series' hints, each icon checked against the one list (a typo fails the seed, not the page). */
function checkedHints(def: SeriesDef): NonNullable<SeriesDef['hints']> {
  for (const h of def.hints ?? []) if (!isHintIcon(h.icon)) throw new Error(`seed: series ${def.name}: hint icon ${String(h.icon)} is not a hint icon`);
  return def.hints ?? [];
}

export const DAY = 86400;
export const HOUR = 3600;

export type Language = 'en' | 'pt-br' | 'es';
export const SITE_OF: Record<Language, number> = { en: 1, 'pt-br': 3, es: 0 };

export type SeriesRowData = Omit<Insertable<SeriesTable>, 'id' | 'publisher_id'>;
export type ChapterRowData = Omit<Insertable<ChapterTable>, 'id' | 'series_id'>;
export type CampaignRowData = Omit<Insertable<CampaignTable>, 'id' | 'series_id'>;

export interface BuiltLanguage {
  language: Language;
  site_id: number;
  chapter_count: number;
  last_updated: number;
}

export interface BuiltSeries {
  row: SeriesRowData;
  publisher: string;
  languages: BuiltLanguage[];
  tags: string[];
  keywords: string[];
  people: { name: string; role: 'author' | 'artist'; position: number }[];
  campaigns: CampaignRowData[];
  chapters: ChapterRowData[];
  /** The series' texts in other languages (series_texts without series_id). */
  texts: SeriesTextData[];
  /** Its promotional visual (series_promotions without series_id), if any. */
  promotion?: PromotionData;
}

export type PromotionData = Omit<Insertable<SeriesPromotionTable>, 'series_id'>;

/** The series_promotions row of a demo series' promo (media keys from promo.ts; checked by the catalogue's rule). */
export function promotionRow(slug: string, color: string, promo: PromoDef, now: number): PromotionData {
  const keys = promoKeys(slug, promo.type);
  const still = promo.type === 'IMAGE';
  const row: PromotionData = {
    visual_type: promo.type,
    fit: promo.fit ?? 'COVER',
    media_key: keys.media,
    poster_key: keys.poster,
    width: still ? 800 : PROMO_WIDTH,
    height: still ? 450 : PROMO_HEIGHT,
    background_color: promo.background ?? color,
    text_color: promo.text ?? '#ffffff',
    label: promo.label ?? null,
    label_pt: promo.label_pt ?? null,
    button: promo.button ?? null,
    button_pt: promo.button_pt ?? null,
    modified_at: now,
  };
  const problem = promotionProblem({ ...row, poster_key: row.poster_key ?? null, fit: row.fit ?? 'COVER' });
  if (problem) throw new Error(`the promo of ${slug} is not well-formed: ${problem}`);
  return row;
}

export type SeriesTextData = Omit<Insertable<SeriesTextTable>, 'series_id'>;

// ---------------------------------------------------------------- text helpers

/** Lower-case, accents removed (NFD, combining marks dropped). */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** ASCII kebab-case: "Coração de Aço" -> "coracao-de-aco". */
export function slugify(text: string): string {
  return fold(text)
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function searchText(name: string, alt: string[]): string {
  return fold([name, ...alt].join(' ')).replace(/\s+/g, ' ').trim();
}

export function firstSentence(text: string): string {
  const m = /^.*?[.!?](?=\s|$)/.exec(text);
  return (m ? m[0] : text).trim();
}

// ---------------------------------------------------------------- chapter titles

const EN_ADJ = ['Lantern', 'Silent', 'Broken', 'Hidden', 'Last', 'Burning', 'Frozen', 'Hollow', 'Golden', 'Crimson', 'Quiet', 'Endless', 'Forgotten', 'Distant', 'Midnight', 'Iron', 'Paper', 'Wandering', 'Falling', 'Sleeping'];
const EN_NOUN = ['Road', 'Moon', 'Gate', 'River', 'Promise', 'Tower', 'Harbor', 'Storm', 'Letter', 'Crown', 'Garden', 'Bridge', 'Shadow', 'Flame', 'Song', 'Door', 'Mirror', 'Map', 'Tide', 'Bell', 'Station', 'Festival', 'Key', 'Winter'];
const EN_PATTERNS: ((r: Rng) => string)[] = [
  (r) => `The ${r.pick(EN_ADJ)} ${r.pick(EN_NOUN)}`,
  (r) => `${r.pick(['Beneath', 'Beyond', 'Across', 'Inside', 'Before'])} the ${r.pick(EN_NOUN)}`,
  (r) => `A ${r.pick(EN_NOUN)} of ${r.pick(['Ashes', 'Glass', 'Thorns', 'Stars', 'Salt', 'Smoke', 'Silver'])}`,
  (r) => `${r.pick(['Crossing', 'Finding', 'Keeping', 'Breaking', 'Waking', 'Chasing'])} the ${r.pick(EN_NOUN)}`,
  (r) => `${r.pick(EN_ADJ)} ${r.pick(EN_NOUN)}s`,
  (r) => r.pick(['First Light', 'No Way Back', 'Old Friends', 'The Long Night', 'Homecoming', 'Face to Face', 'A New Deal', 'Second Wind', 'The Offer', 'Fine Print', 'Checkmate', 'Rainy Season']),
];

type G = 'm' | 'f';
const PT_NOUN: [string, G][] = [['Estrada', 'f'], ['Lua', 'f'], ['Portão', 'm'], ['Rio', 'm'], ['Promessa', 'f'], ['Torre', 'f'], ['Porto', 'm'], ['Tempestade', 'f'], ['Carta', 'f'], ['Coroa', 'f'], ['Jardim', 'm'], ['Ponte', 'f'], ['Sombra', 'f'], ['Chama', 'f'], ['Canção', 'f'], ['Espelho', 'm'], ['Mapa', 'm'], ['Sino', 'm'], ['Inverno', 'm'], ['Segredo', 'm']];
const PT_ADJ: [string, string][] = [['Silencioso', 'Silenciosa'], ['Perdido', 'Perdida'], ['Escondido', 'Escondida'], ['Último', 'Última'], ['Dourado', 'Dourada'], ['Congelado', 'Congelada'], ['Esquecido', 'Esquecida'], ['Vermelho', 'Vermelha'], ['Quebrado', 'Quebrada'], ['Distante', 'Distante']];
const PT_PATTERNS: ((r: Rng) => string)[] = [
  (r) => {
    const [n, g] = r.pick(PT_NOUN);
    const [m, f] = r.pick(PT_ADJ);
    return `${g === 'm' ? 'O' : 'A'} ${n} ${g === 'm' ? m : f}`;
  },
  (r) => {
    const [n, g] = r.pick(PT_NOUN);
    return `${g === 'm' ? 'O' : 'A'} ${n} de ${r.pick(['Cinzas', 'Vidro', 'Prata', 'Sal', 'Fogo', 'Papel', 'Ferro', 'Estrelas'])}`;
  },
  (r) => {
    const [n, g] = r.pick(PT_NOUN);
    return `${r.pick(['Além', 'Depois', 'Antes', 'Perto'])} ${g === 'm' ? 'do' : 'da'} ${n}`;
  },
  (r) => r.pick(['Primeira Luz', 'Sem Volta', 'Velhos Amigos', 'A Longa Noite', 'Volta para Casa', 'Cara a Cara', 'Um Novo Acordo', 'Segunda Chance', 'A Proposta', 'Xeque-Mate', 'Tempo de Chuva', 'Coração Partido']),
];
const ES_TITLES = ['El Camino de las Linternas', 'La Luna Silenciosa', 'Primera Luz', 'Sin Vuelta Atrás', 'El Puerto Escondido', 'La Larga Noche', 'Viejos Amigos', 'La Promesa', 'Cara a Cara', 'El Último Mapa'];

/** [part 1, part 2, season finale, ...occasional extras]. */
const SUBTITLES: Record<Language, string[]> = {
  en: ['Part 1', 'Part 2', 'Season Finale', 'Side Story', 'Special Episode', 'Flashback'],
  'pt-br': ['Parte 1', 'Parte 2', 'Final de Temporada', 'História Paralela', 'Episódio Especial', 'Flashback'],
  es: ['Parte 1', 'Parte 2', 'Final de Temporada', 'Historia Paralela', 'Episodio Especial'],
};
const SEASON = 40;

function chapterTitle(rng: Rng, language: Language, index: number): string {
  if (language === 'es') return ES_TITLES[index % ES_TITLES.length]!;
  return rng.pick(language === 'en' ? EN_PATTERNS : PT_PATTERNS)(rng);
}

// ---------------------------------------------------------------- ids

/** Hands out unique e4pids drawn from a per-item PRNG (stable regardless of order, except on collisions). */
export class IdBook {
  private readonly used = new Set<string>();

  take(prefix: 'SER-' | 'EPI-', length: number, seed: string): string {
    const rng = new Rng(seed);
    for (;;) {
      const id = prefix + rng.base36(length);
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }
}

export class SlugBook {
  private readonly used = new Set<string>();

  has(slug: string): boolean {
    return this.used.has(slug);
  }

  take(name: string): string {
    const base = slugify(name) || 'series';
    let slug = base;
    for (let i = 2; this.used.has(slug); i++) slug = `${base}-${i}`;
    this.used.add(slug);
    return slug;
  }
}

// ---------------------------------------------------------------- schedules

const WEEKDAY: Partial<Record<UpdateStatus, number>> = { SUNDAYS: 0, MONDAYS: 1, TUESDAYS: 2, WEDNESDAYS: 3, THURSDAYS: 4, FRIDAYS: 5, SATURDAYS: 6 };
const WEEKDAY_EN = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const WEEKDAY_PT = ['domingo', 'segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira', 'sábado'];

export function isOngoing(status: UpdateStatus): boolean {
  return status === 'DAILY' || status === 'WEEKLY' || status === 'BI_WEEKLY' || status === 'MONTHLY' || WEEKDAY[status] !== undefined;
}

function cadenceDays(status: UpdateStatus): number {
  if (status === 'DAILY') return 1;
  if (status === 'BI_WEEKLY') return 14;
  if (status === 'MONTHLY') return 30;
  return 7;
}

/** The latest `weekday` at 15:00 UTC that is at least an hour before `now`. */
function lastWeekday(now: number, weekday: number): number {
  let day = Math.floor(now / DAY);
  for (;;) {
    const t = day * DAY + 15 * HOUR;
    // 1970-01-01 was a Thursday (4).
    if ((day + 4) % 7 === weekday && t <= now - HOUR) return t;
    day--;
  }
}

const quarter = (t: number) => Math.floor(t / 900) * 900;

/**
 * Release times of `count` chapters of a series: `released` in the past
 * (ending at a time that suits the status) and the rest scheduled after now.
 */
function schedule(rng: Rng, status: UpdateStatus, count: number, future: number, soon: boolean, now: number): number[] {
  if (count === 0) return [];
  const c = cadenceDays(status);
  const released = count - future;
  if (released === 0) {
    const first = quarter(now + rng.int(5, 30) * DAY) + 15 * HOUR;
    return Array.from({ length: count }, (_, i) => first + i * 7 * DAY);
  }
  let last: number;
  const wd = WEEKDAY[status];
  if (soon) last = now + 6 * HOUR - c * DAY;
  else if (wd !== undefined) last = lastWeekday(now, wd);
  else if (status === 'DAILY') last = quarter(now - rng.range(1, 20) * HOUR);
  else if (status === 'WEEKLY') last = quarter(now - rng.range(2 * HOUR, 2.9 * DAY));
  else if (status === 'BI_WEEKLY') last = quarter(now - rng.range(1, 13) * DAY);
  else if (status === 'MONTHLY') last = quarter(now - rng.range(2, 28) * DAY);
  else if (status === 'HIATUS') last = quarter(now - rng.range(45, 200) * DAY);
  else last = quarter(now - rng.range(30, 300) * DAY); // COMPLETED and anything else
  // Past chapters keep the cadence but never span more than about two years.
  const step = Math.min(c, 680 / Math.max(1, released - 1)) * DAY;
  const aligned = wd !== undefined && step === 7 * DAY;
  const times: number[] = [];
  for (let i = 0; i < released; i++) {
    const back = released - 1 - i;
    let t = last - back * step;
    if (!aligned && back > 0) t = quarter(t + rng.range(-3, 3) * HOUR);
    times.push(Math.round(t));
  }
  // The first few chapters of a series launch together.
  const batch = Math.min(released, rng.int(1, 3));
  for (let i = 0; i < batch - 1; i++) times[i] = times[batch - 1]!;
  for (let i = 1; i < times.length; i++) times[i] = Math.max(times[i]!, times[i - 1]!);
  for (let k = 1; k <= future; k++) times.push(last + k * c * DAY);
  return times;
}

function maxFuture(status: UpdateStatus): number {
  // Scheduled chapters stay within the next three months.
  return Math.max(1, Math.floor(88 / cadenceDays(status)));
}

// ---------------------------------------------------------------- numbering and prices

function numbering(count: number, gaps: number[], decimals: number[]): number[] {
  const ints = count - decimals.length;
  const out: number[] = [];
  let num = 1;
  for (let i = 0; i < ints; i++) {
    out.push(num);
    num += 1;
    if (gaps.includes(i)) num += 2;
  }
  for (const d of decimals) if (d < num) out.push(d);
  out.sort((a, b) => a - b);
  while (out.length < count) out.push(out.length ? Math.floor(out[out.length - 1]!) + 1 : 1);
  return out;
}

export interface ChapterPlan {
  language: Language;
  numbers: number[];
  times: number[];
  prices: number[];
}

export interface SeriesFlags {
  dailyPass: boolean;
  ads: boolean;
  rental: boolean;
  subscription: boolean;
}

/** Chapter rows of one language. */
function chapterRows(rng: Rng, ids: IdBook, seriesSlug: string, format: Format, plan: ChapterPlan, flags: SeriesFlags, now: number, pages: [number, number]): ChapterRowData[] {
  const thumbs = poolThumbs();
  const rows: ChapterRowData[] = [];
  const n = plan.numbers.length;
  let part = 0;
  for (let i = 0; i < n; i++) {
    const number = plan.numbers[i]!;
    const released_at = plan.times[i]!;
    const price = plan.prices[i]!;
    const e4pid = ids.take('EPI-', 8, `chapter:${seriesSlug}:${plan.language}:${number}`);
    let subtitle: string | null = null;
    if (part === 1) {
      subtitle = SUBTITLES[plan.language][1]!;
      part = 0;
    } else if (i < n - 1 && rng.chance(0.05)) {
      subtitle = SUBTITLES[plan.language][0]!;
      part = 1;
    } else if (i % SEASON === SEASON - 1 && i < n - 1) {
      subtitle = SUBTITLES[plan.language][2]!;
    } else if (i > 2 && rng.chance(0.04)) {
      subtitle = rng.pick(SUBTITLES[plan.language].slice(3));
    }
    const title = rng.chance(0.86) ? chapterTitle(rng, plan.language, i) : null;
    const recent = i >= n - 4;
    const paid = price > 0 ? 1 : 0;
    rows.push({
      e4pid,
      language: plan.language,
      number,
      title,
      subtitle,
      released_at,
      sale_at: released_at,
      expired_at: null,
      original_price: price,
      thumbnail: thumbs[rng.int(0, thumbs.length - 1)]!,
      purchase_enabled: paid,
      purchase_many_enabled: paid,
      daily_pass_enabled: flags.dailyPass && paid && !recent ? 1 : 0,
      ads_enabled: flags.ads && paid && !recent ? 1 : 0,
      rental_enabled: flags.rental && paid ? 1 : 0,
      subscription_enabled: flags.subscription && paid ? 1 : 0,
      page_count: format === 'WEBTOON' ? rng.int(Math.max(4, pages[0]), Math.min(9, pages[1])) : rng.int(pages[0], pages[1]),
      created_at: quarter(Math.min(released_at, now) - rng.int(1, 7 * 24) * HOUR),
    });
  }
  return rows;
}

/** The pages of a chapter: a deterministic selection from its format's pool. */
export function chapterPages(format: Format, e4pid: string, count: number): PoolImage[] {
  const pool = poolPages(format);
  const rng = new Rng(`pages:${e4pid}`);
  return rng.sample(pool, Math.min(count, pool.length));
}

// ---------------------------------------------------------------- series

function updateText(rng: Rng, status: UpdateStatus, format: Format, pt: boolean): string | null {
  if (!rng.chance(0.7)) return null;
  return scheduleText(status, format, pt);
}

/** A series' update text from its status ("New chapters every Sunday" / "Novos capítulos todo domingo"). */
export function scheduleText(status: UpdateStatus, format: Format, pt: boolean): string | null {
  const unit = format === 'WEBTOON' ? (pt ? 'episódios' : 'episodes') : pt ? 'capítulos' : 'chapters';
  const wd = WEEKDAY[status];
  // "todo domingo", "todo sábado", but "toda segunda-feira".
  if (wd !== undefined) return pt ? `Novos ${unit} ${wd === 0 || wd === 6 ? 'todo' : 'toda'} ${WEEKDAY_PT[wd]}` : `New ${unit} every ${WEEKDAY_EN[wd]}`;
  switch (status) {
    case 'DAILY':
      return pt ? `Novos ${unit} todos os dias` : `New ${unit} every day`;
    case 'WEEKLY':
      return pt ? 'Atualizado semanalmente' : 'Updated weekly';
    case 'BI_WEEKLY':
      return pt ? 'Atualizado a cada duas semanas' : 'Updated every two weeks';
    case 'MONTHLY':
      return pt ? 'Novo capítulo todo mês' : 'A new chapter every month';
    case 'HIATUS':
      return pt ? 'Em hiato' : 'On hiatus';
    default:
      return null;
  }
}

function strategy(startingCount: number, simulpub: boolean): string {
  return JSON.stringify({
    starting_count: startingCount,
    simulpub,
    latest_only_free: false,
    fpf_becomes_paid: false,
    fpf_becomes_free: false,
    fpf_becomes_backlog: false,
    backlog_becomes_backlog: false,
    catchup_count: 0,
    latest_episode_double: false,
  });
}

function freeAvailability(flags: SeriesFlags, pt: boolean): string {
  return JSON.stringify({
    daily_pass_enabled: flags.dailyPass,
    daily_pass_ttl: 3 * DAY,
    daily_pass_recharge: 23 * HOUR,
    ads_enabled: flags.ads,
    total_ads: flags.ads ? 3 : 0,
    available_ads: flags.ads ? 3 : 0,
    ads_ttl: 2 * DAY,
    subscribed: false,
    ads_hint: flags.ads ? (pt ? 'Assista a um anúncio para ler grátis' : 'Watch a short ad to read a chapter for free') : null,
  });
}

/** Counters over released chapters only (released_at <= now). */
function denormalise(chapters: ChapterRowData[], languages: Language[], createdAt: number, now: number) {
  const released = chapters.filter((c) => c.released_at <= now);
  const perLanguage: BuiltLanguage[] = languages.map((language) => {
    const mine = released.filter((c) => c.language === language);
    return {
      language,
      site_id: SITE_OF[language],
      chapter_count: mine.length,
      last_updated: mine.length ? Math.max(...mine.map((c) => c.released_at)) : createdAt,
    };
  });
  return {
    languages: perLanguage,
    last_updated: released.length ? Math.max(...released.map((c) => c.released_at)) : createdAt,
    largest_chapter: released.length ? Math.max(...released.map((c) => c.number)) : 0,
    chapter_count: released.length,
  };
}

export interface BuildContext {
  now: number;
  ids: IdBook;
  slugs: SlugBook;
}

const publisherOf = (key: string) => {
  const p = PUBLISHERS.find((x) => x.key === key);
  if (!p) throw new Error(`unknown publisher ${key}`);
  return p;
};

/** Texts for the other site's language: Portuguese for a series published in both languages. */
function demoTexts(def: SeriesDef, row: SeriesRowData): SeriesTextData[] {
  if (def.lang !== 'both') return [];
  const description = PT_DESCRIPTIONS[def.name];
  if (!description) throw new Error(`No Portuguese description for "${def.name}" (db/seed/catalog-pt.ts)`);
  return [ptTexts(def.pt ?? null, description, row)];
}

/** The Portuguese row of a series whose original is English: update text and chapter name format from the same templates. */
function ptTexts(name: string | null, description: string, row: SeriesRowData): SeriesTextData {
  const format = row.chapter_name_format ?? null;
  return {
    language: 'pt-br',
    name,
    description,
    excerpt: firstSentence(description),
    // Generated texts follow the English one (none when it has none); a hand-written one stays as it is.
    update_text: row.update_text == null ? null : (scheduleText(row.update_status as UpdateStatus, row.format, true) ?? null),
    chapter_name_format: format == null ? null : (PT_NAME_FORMATS[format] ?? null),
  };
}

/** Builds one demo series from its definition. */
export function buildDemoSeries(def: SeriesDef, ctx: BuildContext): { series: BuiltSeries; art: SeriesArtSpec } {
  const { now } = ctx;
  const slug = ctx.slugs.take(def.name);
  const rng = new Rng(`series:${slug}`);
  const e4pid = ctx.ids.take('SER-', 6, `series:${slug}`);
  const pub = publisherOf(def.pub);
  const ptOnly = def.lang === 'pt';
  const primary: Language = ptOnly ? 'pt-br' : 'en';
  const ongoing = isOngoing(def.status);

  // How many chapters, how many of them scheduled.
  const count = def.n ?? (def.status === 'COMPLETED' ? rng.int(36, 96) : def.status === 'HIATUS' ? rng.int(18, 50) : rng.int(24, 80));
  let future = def.future ?? (ongoing && rng.chance(0.55) ? rng.int(2, Math.min(8, maxFuture(def.status))) : 0);
  if (def.soon) future = Math.max(future, 3);
  future = Math.min(future, count);
  const decimals = def.decimals ?? (count > 20 && rng.chance(0.12) ? [rng.int(5, count - 10) + 0.5] : []);
  const numbers = numbering(count, def.gaps ?? [], decimals);
  const times = schedule(rng, def.status, count, future, !!def.soon, now);

  const allFree = !!def.allFree;
  const free = allFree ? count : def.free ?? Math.min(rng.int(3, 10), Math.max(1, Math.floor(count / 2)));
  const base = rng.pick([1, 2, 2, 3]);
  const price = (i: number, total: number) => {
    if (allFree || i < free) return 0;
    if (def.premium && i >= total - 3) return 10 + ((i * 7 + count) % 6);
    return base;
  };
  const flags: SeriesFlags = {
    dailyPass: !allFree && rng.chance(0.35),
    ads: !allFree && rng.chance(0.25),
    rental: !allFree && rng.chance(0.2),
    subscription: !allFree && rng.chance(0.3),
  };

  const plans: ChapterPlan[] = [];
  const primaryPlan: ChapterPlan = { language: primary, numbers, times, prices: numbers.map((_, i) => price(i, count)) };
  plans.push(primaryPlan);
  if (def.lang === 'both') {
    const lag = Math.min(count, def.ptLag ?? (ongoing ? rng.int(0, 4) : 0));
    const delay = (def.ptDelayDays ?? rng.pick([0, 0, 1, 3, 7])) * DAY;
    const n = count - lag;
    plans.push({ language: 'pt-br', numbers: numbers.slice(0, n), times: times.slice(0, n).map((t) => t + delay), prices: numbers.slice(0, n).map((_, i) => price(i, n)) });
  }
  if (def.es) {
    const n = Math.min(def.es, count);
    plans.push({ language: 'es', numbers: numbers.slice(0, n), times: times.slice(0, n).map((t) => Math.min(t + 30 * DAY, now - DAY)), prices: numbers.slice(0, n).map((_, i) => price(i, n)) });
  }

  const chapters = plans.flatMap((plan) => chapterRows(rng.fork(plan.language), ctx.ids, slug, def.format, plan, flags, now, [4, 12]));
  const firstRelease = chapters.length ? Math.min(...chapters.map((c) => c.released_at)) : now;
  const created_at = quarter(Math.min(firstRelease, now) - rng.int(3, 60) * DAY - rng.int(0, 23) * HOUR);
  const d = denormalise(chapters, plans.map((p) => p.language), created_at, now);
  const modified_at = Math.min(now, Math.max(created_at, d.last_updated) + rng.int(0, 36) * HOUR);
  const year = new Date(firstRelease * 1000).getUTCFullYear();
  const artist = def.artist ?? def.author;
  const alt = [...(def.pt ? [def.pt] : []), ...(def.alt ?? [])];

  const row: SeriesRowData = {
    e4pid,
    slug,
    name: def.name,
    alt: alt.join('\n'),
    description: def.desc,
    excerpt: firstSentence(def.desc),
    search_text: searchText(def.name, alt),
    adult: def.adult ? 1 : 0,
    format: def.format,
    update_status: def.status,
    update_text: def.updateText !== undefined ? def.updateText : updateText(rng, def.status, def.format, ptOnly),
    color: def.color,
    in_exclusive: rng.chance(0.15) ? 1 : 0,
    in_hype: ongoing && rng.chance(0.25) ? 1 : 0,
    all_free: allFree ? 1 : 0,
    availability_strategy: strategy(free, future > 0),
    free_availability: freeAvailability(flags, ptOnly),
    geoblocks: JSON.stringify(pub.seriesGeoblocks),
    state: def.state ?? 'ACTIVE',
    chapter_title: null,
    chapter_name_format: def.nameFormat ?? null,
    images: JSON.stringify(seriesImages(slug, def.format)),
    copyright: `© ${year} ${def.author} / ${pub.name}`,
    cover_copyright: rng.chance(0.3) ? `Cover art © ${year} ${artist}` : null,
    chapter_copyright: rng.chance(0.2) ? `© ${year} ${pub.name}. ${ptOnly ? 'Todos os direitos reservados.' : 'All rights reserved.'}` : null,
    hints: JSON.stringify(checkedHints(def)),
    popularity: def.popularity ?? Math.round(100000 * rng.float() ** 2),
    created_at,
    modified_at,
    last_updated: d.last_updated,
    largest_chapter: d.largest_chapter,
    chapter_count: d.chapter_count,
    preview_pages: def.preview ?? 0,
  };

  const people: BuiltSeries['people'] = [{ name: def.author, role: 'author', position: 0 }, { name: artist, role: 'artist', position: 0 }];
  const campaigns: CampaignRowData[] = def.campaign
    ? [
        {
          name: def.campaign.name,
          override_starting_count: def.campaign.from,
          override_ending_count: def.campaign.to,
          override_all_free: 0,
          discount: def.campaign.discount,
          starts_at: quarter(now + def.campaign.startsIn * DAY),
          ends_at: quarter(now + def.campaign.endsIn * DAY),
        },
      ]
    : [];

  return {
    series: { row, publisher: def.pub, languages: d.languages, tags: def.tags, keywords: def.kw, people, campaigns, chapters, texts: demoTexts(def, row), ...(def.promo ? { promotion: promotionRow(slug, def.color, def.promo, now) } : {}) },
    art: { slug, name: def.name, format: def.format, color: def.color, publisher: pub.name, author: def.author },
  };
}

// ---------------------------------------------------------------- the large benchmark catalogue

const BULK_A = ['Crimson', 'Silent', 'Golden', 'Midnight', 'Hidden', 'Eternal', 'Shattered', 'Wandering', 'Velvet', 'Iron', 'Scarlet', 'Azure', 'Frozen', 'Burning', 'Hollow', 'Starlit', 'Savage', 'Gentle', 'Lost', 'Secret', 'Radiant', 'Moonlit', 'Wild', 'Broken', 'Thousand', 'Second', 'Final', 'Little', 'Grand', 'Northern'];
const BULK_N = ['Blade', 'Crown', 'Garden', 'Harbor', 'Kingdom', 'Lantern', 'Empire', 'Throne', 'Academy', 'Hunter', 'Witch', 'Dragon', 'Detective', 'Bakery', 'Circus', 'Orchestra', 'Frontier', 'Station', 'Archive', 'Festival', 'Sanctuary', 'Voyage', 'Rebellion', 'Requiem', 'Promise', 'Cartographer', 'Alchemist', 'Duelist', 'Heiress', 'Courier'];
const BULK_FORMS: ((a: string, n: string, m: string) => string)[] = [
  (a, n) => `The ${a} ${n}`,
  (a, n, m) => `${n} of the ${a} ${m}`,
  (a, n) => `${a} ${n} Chronicles`,
  (a, n, m) => `The ${n}'s ${a} ${m}`,
  (a, n) => `Tales of the ${a} ${n}`,
  (a, n, m) => `${a} ${n}, ${a} ${m}`,
];
const BULK_PT_A = ['Carmesim', 'Silencioso', 'Dourado', 'Escondido', 'Eterno', 'Perdido', 'Secreto', 'Selvagem', 'Radiante', 'Distante'];
const BULK_PT_N = ['Reino', 'Jardim', 'Porto', 'Império', 'Trono', 'Caçador', 'Dragão', 'Detetive', 'Circo', 'Festival'];
const STATUSES: UpdateStatus[] = ['COMPLETED', 'WEEKLY', 'MONDAYS', 'TUESDAYS', 'WEDNESDAYS', 'THURSDAYS', 'FRIDAYS', 'SATURDAYS', 'SUNDAYS', 'BI_WEEKLY', 'MONTHLY', 'HIATUS', 'DAILY'];

export const BULK_CHAPTERS = 50;
export const BULK_PAGES = 4;

/**
 * One series of the large benchmark catalogue. It reuses a demo art set
 * (`artSlug`) and the shared page pools; every 5th series is in both languages.
 */
export function buildBulkSeries(index: number, artSlugs: { slug: string; format: Format; color: string }[], people: string[], ctx: BuildContext): BuiltSeries {
  const { now } = ctx;
  const rng = new Rng(`bulk:${index}`);
  const both = index % 5 === 0;
  const ptOnly = !both && index % 2 === 1;
  const a = BULK_A[rng.int(0, BULK_A.length - 1)]!;
  const n = BULK_N[rng.int(0, BULK_N.length - 1)]!;
  const m = BULK_N[rng.int(0, BULK_N.length - 1)]!;
  let name = ptOnly
    ? `${rng.chance(0.5) ? 'O' : 'Um'} ${rng.pick(BULK_PT_N)} ${rng.pick(BULK_PT_A)}`
    : rng.pick(BULK_FORMS)(a, n, m === n ? 'Moon' : m);
  // A repeated title becomes a sequel ("... II"); SlugBook still guarantees uniqueness.
  for (const numeral of ['II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X']) {
    if (!ctx.slugs.has(slugify(name))) break;
    name = `${name.replace(/ [IVX]+$/, '')} ${numeral}`;
  }
  const slug = ctx.slugs.take(name);
  const art = artSlugs[index % artSlugs.length]!;
  const format = art.format;
  const e4pid = ctx.ids.take('SER-', 6, `series:${slug}`);
  const status = rng.pick(STATUSES);
  const primary: Language = ptOnly ? 'pt-br' : 'en';
  const future = isOngoing(status) && rng.chance(0.3) ? rng.int(1, 3) : 0;
  const numbers = Array.from({ length: BULK_CHAPTERS }, (_, i) => i + 1);
  const times = schedule(rng, status, BULK_CHAPTERS, future, false, now);
  const free = rng.int(3, 8);
  const base = rng.pick([1, 2, 3]);
  const prices = numbers.map((_, i) => (i < free ? 0 : base));
  const flags: SeriesFlags = { dailyPass: rng.chance(0.3), ads: rng.chance(0.2), rental: false, subscription: rng.chance(0.2) };
  const plans: ChapterPlan[] = [{ language: primary, numbers, times, prices }];
  if (both) plans.push({ language: 'pt-br', numbers, times: times.map((t) => t + 3 * DAY), prices });
  const chapters = plans.flatMap((plan) => chapterRows(rng.fork(plan.language), ctx.ids, slug, format, plan, flags, now, [BULK_PAGES, BULK_PAGES]));
  const firstRelease = Math.min(...chapters.map((c) => c.released_at));
  const created_at = quarter(Math.min(firstRelease, now) - rng.int(3, 60) * DAY);
  const d = denormalise(chapters, plans.map((p) => p.language), created_at, now);
  const author = rng.pick(people);
  const pub = rng.pick(ptOnly ? ['aurora', 'farol'] : ['lantern', 'tidewater', 'lantern']);
  const pubName = publisherOf(pub).name;
  const alt = both ? [`${rng.pick(BULK_PT_N)} ${rng.pick(BULK_PT_A)}`] : [];
  const desc = ptOnly
    ? `Uma história de ${rng.pick(['aventura', 'mistério', 'romance', 'fantasia', 'ação'])} sobre ${name}. Ninguém sabe como termina. Nem mesmo quem escreve.`
    : `A ${rng.pick(['sweeping', 'quiet', 'breathless', 'funny', 'dark'])} story about ${name.toLowerCase()}. Nobody knows how it ends. Not even the author.`;
  const row: SeriesRowData = {
    e4pid,
    slug,
    name,
    alt: alt.join('\n'),
    description: desc,
    excerpt: firstSentence(desc),
    search_text: searchText(name, alt),
    adult: 0,
    format,
    update_status: status,
    update_text: updateText(rng, status, format, ptOnly),
    color: art.color,
    in_exclusive: 0,
    in_hype: 0,
    all_free: 0,
    availability_strategy: strategy(free, future > 0),
    free_availability: freeAvailability(flags, ptOnly),
    geoblocks: '[]',
    state: 'ACTIVE',
    chapter_title: null,
    chapter_name_format: null,
    images: JSON.stringify(seriesImages(art.slug, format)),
    copyright: `© ${new Date(firstRelease * 1000).getUTCFullYear()} ${author} / ${pubName}`,
    cover_copyright: null,
    chapter_copyright: null,
    hints: '[]',
    popularity: Math.round(100000 * rng.float() ** 3),
    created_at,
    modified_at: Math.min(now, d.last_updated),
    last_updated: d.last_updated,
    largest_chapter: d.largest_chapter,
    chapter_count: d.chapter_count,
  };
  const tags = rng.sample(TAGS.map((t) => t.slug), rng.int(1, 3));
  // A series in both languages gets its Portuguese texts (a fork, so the English draws stay as they were).
  const texts: SeriesTextData[] = [];
  if (both) {
    const ptRng = new Rng(`bulk-pt:${index}`);
    texts.push(ptTexts(alt[0] ?? null, `Uma história ${ptRng.pick(['arrebatadora', 'tranquila', 'eletrizante', 'divertida', 'sombria'])} sobre ${name}. Ninguém sabe como termina. Nem mesmo quem escreve.`, row));
  }
  return {
    row,
    texts,
    publisher: pub,
    languages: d.languages,
    tags,
    keywords: rng.sample(KEYWORDS, rng.int(0, 2)),
    people: [
      { name: author, role: 'author', position: 0 },
      { name: author, role: 'artist', position: 0 },
    ],
    campaigns: [],
    chapters,
  };
}
