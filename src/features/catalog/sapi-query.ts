/**
 * The comic query of the comics API (spec section 3: skip, limit, query, format, sort with
 * invert, publisher, person, tags[], complete, exclusive, favorited, languages[]), read from a
 * URL strictly: a value that is present but not understood names its parameter, and the route
 * answers 400 {detail}. The spec's own call (section 7: `ordering` and `page`) keeps working as it
 * did, leniently, because partners and the docs use it. Pure, unit-tested beside it.
 */
import { MAX_PAGE, NATURAL_DESC, ORDER_KEYS, PAGE_SIZE, parsePage, type Order, type OrderKey } from './listing';
import type { Format } from './rules';

export const SAPI_MAX_LIMIT = 100;
/** The furthest a caller may page: the listing's own bound. */
export const SAPI_MAX_SKIP = MAX_PAGE * PAGE_SIZE;
const MAX_TAGS = 10;
const MAX_QUERY = 100;

export const SAPI_ORDERINGS = ['-last_updated', 'last_updated', '-name', 'name'] as const;
export type SapiOrdering = (typeof SAPI_ORDERINGS)[number];
export const DEFAULT_SAPI_ORDERING: SapiOrdering = '-last_updated';

export interface SapiQuery {
  skip: number;
  limit: number;
  query: string;
  formats: Format[];
  order: Order;
  /** The spec's call: `ordering` (when no `sort`) and `page` (when no `skip`), echoed in `next`. */
  legacy: { ordering: SapiOrdering; page: number } | null;
  publisher: number | null;
  person: number | null;
  tags: string[];
  complete: boolean;
  exclusive: boolean;
  favorited: boolean;
  /** Sites by the languages asked for; null: the requesting site's. */
  siteIds: (1 | 3)[] | null;
}

export type SapiQueryResult = { ok: true; query: SapiQuery } | { ok: false; param: string };

/** `ordering`: last_updated or name, `-` for descending; anything else is -last_updated. */
export function parseOrdering(raw: string | null | undefined): SapiOrdering {
  const v = (raw ?? '').trim();
  return (SAPI_ORDERINGS as readonly string[]).includes(v) ? (v as SapiOrdering) : DEFAULT_SAPI_ORDERING;
}

const LANGUAGE_SITES: Record<string, 1 | 3> = { en: 1, 'pt-br': 3 };

/** Every value of `name` and `name[]`, comma lists split. */
function all(params: URLSearchParams, name: string): string[] {
  return [...params.getAll(name), ...params.getAll(`${name}[]`)].flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

function one(params: URLSearchParams, name: string): string | null {
  const v = params.get(name);
  return v === null ? null : v.trim();
}

export function parseSapiQuery(params: URLSearchParams): SapiQueryResult {
  const bad = (param: string): SapiQueryResult => ({ ok: false, param });
  const int = (name: string, min: number, max: number): number | null | 'bad' => {
    const v = one(params, name);
    if (v === null || v === '') return null;
    if (!/^\d{1,9}$/.test(v)) return 'bad';
    const n = Number(v);
    return n < min || n > max ? 'bad' : n;
  };
  const bool = (name: string): boolean | 'bad' => {
    const v = one(params, name);
    if (v === null || v === '') return false;
    if (/^(true|1)$/i.test(v)) return true;
    if (/^(false|0)$/i.test(v)) return false;
    return 'bad';
  };

  const skip = int('skip', 0, SAPI_MAX_SKIP);
  if (skip === 'bad') return bad('skip');
  const limit = int('limit', 1, SAPI_MAX_LIMIT);
  if (limit === 'bad') return bad('limit');
  const publisher = int('publisher', 1, 999_999_999);
  if (publisher === 'bad') return bad('publisher');
  const person = int('person', 1, 999_999_999);
  if (person === 'bad') return bad('person');
  const flags = { complete: bool('complete'), exclusive: bool('exclusive'), favorited: bool('favorited'), invert: bool('invert') };
  for (const [name, v] of Object.entries(flags)) if (v === 'bad') return bad(name);

  const query = one(params, 'query') ?? '';
  if (query.length > MAX_QUERY) return bad('query');

  const formats: Format[] = [];
  for (const f of all(params, 'format')) {
    const up = f.toUpperCase();
    if (up !== 'COMIC' && up !== 'MANGA' && up !== 'WEBTOON') return bad('format');
    if (!formats.includes(up)) formats.push(up);
  }

  const tags = [...new Set(all(params, 'tags').map((t) => t.toLowerCase()))];
  if (tags.length > MAX_TAGS || tags.some((t) => !/^[a-z0-9][a-z0-9-]{0,63}$/.test(t))) return bad('tags');

  let siteIds: (1 | 3)[] | null = null;
  const languages = all(params, 'languages').map((l) => l.toLowerCase());
  if (languages.length > 0) {
    if (languages.some((l) => !(l in LANGUAGE_SITES))) return bad('languages');
    siteIds = [...new Set(languages.map((l) => LANGUAGE_SITES[l]!))];
  }

  const sortRaw = one(params, 'sort');
  let order: Order;
  let ordering: SapiOrdering | null = null;
  if (sortRaw !== null && sortRaw !== '') {
    const key = sortRaw.toLowerCase() as OrderKey;
    if (!(ORDER_KEYS as readonly string[]).includes(key)) return bad('sort');
    order = { key, desc: NATURAL_DESC[key] !== flags.invert };
  } else {
    ordering = parseOrdering(params.get('ordering'));
    const desc = ordering.startsWith('-');
    order = { key: ordering.endsWith('name') ? 'name' : 'updated', desc: flags.invert ? !desc : desc };
  }
  const page = parsePage(params.get('page'));
  const pageSize = limit ?? PAGE_SIZE;
  return {
    ok: true,
    query: {
      skip: skip ?? (page - 1) * pageSize,
      limit: pageSize,
      query,
      formats,
      order,
      legacy: skip === null && ordering !== null ? { ordering, page } : null,
      publisher,
      person,
      tags,
      complete: flags.complete as boolean,
      exclusive: flags.exclusive as boolean,
      favorited: flags.favorited as boolean,
      siteIds,
    },
  };
}
