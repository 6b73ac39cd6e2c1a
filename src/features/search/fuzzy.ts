/**
 * The suggestions' typo-tolerant index (docs/search.md, "Suggestions"): MiniSearch over each
 * series' names (original, alternative, translated) and its search document (authors, tags,
 * keywords), with prefix matching for what is being typed and fuzzy matching (about one edit per
 * five letters, at most two) for typos: "villanes" finds "The Villainess Retires Early", "aposnta"
 * finds "A Vilã se Aposenta Cedo". Ranking is by tier first: a name equal to the query, then a
 * name starting with it, then everything else; inside a tier MiniSearch's score (BM25 with
 * prefix and fuzzy matches weighted down), then popularity. Pure: built from rows, no I/O.
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
}

export interface SuggestIndex {
  search(query: string, opts: { limit: number; country?: string | null }): number[];
  readonly size: number;
}

/** Fuzziness per term: none under 4 letters (too many near misses), then 1 edit per 5 letters, at most 2. */
export function fuzziness(term: string): number | false {
  const n = Array.from(term).length;
  if (n < 4) return false;
  return Math.min(2, Math.max(1, Math.round(n * 0.2)));
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
  const byId = new Map<number, { names: string[]; popularity: number; blocks: readonly string[] }>();
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
    byId.set(d.id, { names, popularity: d.popularity, blocks: d.blocks });
    return { id: d.id, names: names.join(' '), text: normalizeText(d.text) };
  });
  await ms.addAllAsync(rows, { chunkSize: 250 });
  return {
    size: rows.length,
    search(query, { limit, country }) {
      const { text, terms } = normalizeQuery(query);
      if (!terms.length) return [];
      const hits = ms.search(terms.slice(0, MAX_TERMS).join(' '), {
        filter: country ? (r) => !byId.get(r.id as number)!.blocks.includes(country) : undefined,
      });
      return hits
        .map((h) => {
          const d = byId.get(h.id as number)!;
          return { id: h.id as number, tier: tier(d.names, text), score: h.score, popularity: d.popularity };
        })
        .sort((a, b) => a.tier - b.tier || b.score - a.score || b.popularity - a.popularity || a.id - b.id)
        .slice(0, limit)
        .map((h) => h.id);
    },
  };
}
