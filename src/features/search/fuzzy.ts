/**
 * The one series search (docs/search.md): the header's suggestions and the listing's `q` both
 * rank with this index, so the same text finds the same series first on both paths. MiniSearch
 * over each series' names (original, alternative, translated) and its search document (authors,
 * tags, keywords), with prefix matching for what is being typed and fuzzy matching for typos
 * (one edit from 4 letters, two from 7): "villanes" finds "The Villainess Retires Early",
 * "aposnta" finds "A Vilã se Aposenta Cedo". Names are also indexed with their spaces dropped
 * from each word on ("villainessretiresearly"), so a missing space still matches. Ranking is by
 * tier first: a name equal to the query, then a name starting with it, then everything else;
 * inside a tier MiniSearch's score (BM25 with prefix and fuzzy matches weighted down), then
 * popularity. Pure: built from rows, no I/O.
 */
import MiniSearch from 'minisearch';
import { MAX_TERMS, normalizeQuery, normalizeText } from '~/lib/search-text';

export interface SuggestDoc {
  id: number;
  /** Every name of the series (shown name, original, alternative, translated). */
  names: readonly string[];
  /** Other searchable text: authors, tags, keywords. */
  text: string;
  popularity: number;
  /** Countries where the series may not be shown. */
  blocks: readonly string[];
  /** ACTIVE (suggested); a REMOVED series is only found by the listing, which still lists it. Default true. */
  active?: boolean;
}

export interface SearchOptions {
  /** At most this many ids (default: every match). */
  limit?: number;
  /** Leave out series blocked in this country. */
  country?: string | null;
  /** Only ACTIVE series (the suggestions); the listing also finds REMOVED ones. */
  activeOnly?: boolean;
}

export interface SuggestIndex {
  /** Ids of the matching series, best first. */
  search(query: string, opts: SearchOptions): number[];
  /**
   * "Did you mean …?" for a query that matches nothing: the series whose name comes closest
   * (names only, any term may match, one more edit allowed), or null when none is near enough.
   */
  closest(query: string, opts: Omit<SearchOptions, 'limit'>): number | null;
  readonly size: number;
}

/**
 * Edits allowed per term: none under 4 letters (too many near misses), one from 4, two from 7
 * (a swapped pair of letters is two edits). Two edits at 6 letters made "horror" find "harbor".
 */
export function fuzziness(term: string): number | false {
  const n = Array.from(term).length;
  if (n < 4) return false;
  return n < 7 ? 1 : 2;
}

/** The looser rule of "Did you mean": one more edit than `fuzziness`, from 3 letters. */
function looseFuzziness(term: string): number | false {
  const n = Array.from(term).length;
  if (n < 3) return false;
  return (fuzziness(term) || 0) + 1;
}

/** How alike a "Did you mean" name must look to the text (Dice coefficient of letter trigrams). */
export const CLOSEST_SIMILARITY = 0.3;

function trigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.split(' ')) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  }
  return out;
}

/** Dice coefficient of two normalised texts' letter trigrams (words padded with a space): 0 to 1. */
export function trigramSimilarity(a: string, b: string): number {
  const x = trigrams(a);
  const y = trigrams(b);
  if (!x.size || !y.size) return 0;
  let shared = 0;
  for (const g of x) if (y.has(g)) shared++;
  return (2 * shared) / (x.size + y.size);
}

/**
 * A normalised name's words joined from each word on, the last word alone left out (it is a term
 * already): "the villainess retires early" gives "thevillainessretiresearly",
 * "villainessretiresearly" and "retiresearly", so "villainessretires" (a missing space) is a
 * prefix of a term.
 */
export function joinedTails(name: string): string[] {
  const words = name.split(' ').filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < words.length - 1; i++) out.push(words.slice(i).join(''));
  return out;
}

/** 0 exact name, 1 name prefix, 2 anything else. */
export function tier(names: readonly string[], text: string): 0 | 1 | 2 {
  let best: 0 | 1 | 2 = 2;
  for (const n of names) {
    if (n === text) return 0;
    if (n.startsWith(text)) best = 1;
  }
  return best;
}

/**
 * Builds the index in chunks of 250 documents, yielding to the event loop between them: the
 * 10,000-series catalogue takes about half a second of CPU, which must not stall the requests
 * served meanwhile.
 */
export async function buildSuggestIndex(docs: readonly SuggestDoc[]): Promise<SuggestIndex> {
  const byId = new Map<number, { names: string[]; popularity: number; blocks: readonly string[]; active: boolean }>();
  const ms = new MiniSearch<{ id: number; names: string; text: string }>({
    fields: ['names', 'text'],
    // Texts are normalised before they get here (and queries by normalizeQuery): split on spaces only.
    tokenize: (s) => s.split(' '),
    processTerm: (t) => t || null,
    searchOptions: {
      boost: { names: 3 },
      prefix: true,
      fuzzy: (term) => fuzziness(term),
      combineWith: 'AND',
      weights: { fuzzy: 0.6, prefix: 0.8 },
    },
  });
  const rows = docs.map((d) => {
    const names = [...new Set(d.names.map(normalizeText).filter(Boolean))];
    byId.set(d.id, { names, popularity: d.popularity, blocks: d.blocks, active: d.active ?? true });
    const joined = [...new Set(names.flatMap(joinedTails))];
    return { id: d.id, names: [...names, ...joined].join(' '), text: normalizeText(d.text) };
  });
  await ms.addAllAsync(rows, { chunkSize: 250 });
  const filterFor = ({ country, activeOnly }: SearchOptions) =>
    country || activeOnly
      ? (r: { id: unknown }) => {
        const d = byId.get(r.id as number)!;
        return (!activeOnly || d.active) && !(country && d.blocks.includes(country));
      }
      : undefined;
  return {
    size: rows.length,
    search(query, opts) {
      const { text, terms } = normalizeQuery(query);
      if (!terms.length) return [];
      const hits = ms.search(terms.slice(0, MAX_TERMS).join(' '), { filter: filterFor(opts) });
      return hits
        .map((h) => {
          const d = byId.get(h.id as number)!;
          return { id: h.id as number, tier: tier(d.names, text), score: h.score, popularity: d.popularity };
        })
        .sort((a, b) => a.tier - b.tier || b.score - a.score || b.popularity - a.popularity || a.id - b.id)
        .slice(0, opts.limit ?? hits.length)
        .map((h) => h.id);
    },
    closest(query, opts) {
      const { terms } = normalizeQuery(query);
      if (!terms.length) return null;
      const hits = ms.search(terms.slice(0, MAX_TERMS).join(' '), {
        fields: ['names'],
        combineWith: 'OR',
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => looseFuzziness(term),
        filter: filterFor(opts),
      });
      // Near enough: at least half of the typed words found, and a name that looks like the
      // text (letter trigrams), so "one pice" is not answered with "Crimson Tide Ronin".
      let best: { id: number; similarity: number } | null = null;
      for (const h of hits.slice(0, 20)) {
        if (h.queryTerms.length * 2 < terms.length) continue;
        const similarity = Math.max(...byId.get(h.id as number)!.names.map((n) => trigramSimilarity(terms.join(' '), n)));
        if (similarity >= CLOSEST_SIMILARITY && (!best || similarity > best.similarity)) best = { id: h.id as number, similarity };
      }
      return best?.id ?? null;
    },
  };
}
