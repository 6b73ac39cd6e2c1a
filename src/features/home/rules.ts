/** Pure rules of the home blocks; the loaders are in home.server.ts. */
import { dayKey, dayNumber } from '~/lib/dates';

/** Recommended comics are the top 3 by shared tags, showing up to 2 tags each. */
export const RECOMMENDED_COUNT = 3;
export const RECOMMENDED_TAGS = 2;
/** The simulpub strip holds at most 12 series. */
export const SIMULPUB_MAX = 12;
/** A chapter scheduled within this many seconds puts its series on the simulpub strip. */
export const SIMULPUB_WINDOW = 7 * 24 * 3600;
/** The featured carousel shows a series' first 5 chapters. */
export const FEATURED_CHAPTERS = 5;
/** The hover reel scrolls at 230 px per second. */
export const REEL_SPEED = 230;
/** Thumbnails the hover reel shows at most. */
export const REEL_THUMBS = 8;
/** Weight a favorited series' tags add to the reader's profile; a series from the history adds 1. */
export const FAVORITE_WEIGHT = 2;
export const HISTORY_WEIGHT = 1;

/** Tag weights (tag id → weight) from the series a reader favorited and read. */
export function tagProfile(
  favorites: readonly { tagIds: readonly number[] }[],
  history: readonly { tagIds: readonly number[] }[],
): Map<number, number> {
  const profile = new Map<number, number>();
  const add = (tagIds: readonly number[], w: number) => {
    for (const id of new Set(tagIds)) profile.set(id, (profile.get(id) ?? 0) + w);
  };
  for (const s of favorites) add(s.tagIds, FAVORITE_WEIGHT);
  for (const s of history) add(s.tagIds, HISTORY_WEIGHT);
  return profile;
}

export interface Candidate {
  id: number;
  popularity: number;
  tagIds: readonly number[];
}

export interface Recommendation {
  id: number;
  /** Sum of the profile weights of the shared tags. */
  score: number;
  /** The shared tags with the highest weights, at most RECOMMENDED_TAGS. */
  sharedTagIds: number[];
}

/**
 * Ranks candidates by the summed profile weight of the tags they share with the profile, then by
 * how many tags they share, then popularity, then id (stable). Series in `exclude` (already
 * favorited or read) and series sharing no tag are left out.
 */
export function rankRecommendations(
  profile: ReadonlyMap<number, number>,
  candidates: readonly Candidate[],
  exclude: ReadonlySet<number> = new Set(),
  limit = RECOMMENDED_COUNT,
  tagsEach = RECOMMENDED_TAGS,
): Recommendation[] {
  const seen = new Set<number>();
  const scored: (Recommendation & { shared: number; popularity: number })[] = [];
  for (const c of candidates) {
    if (exclude.has(c.id) || seen.has(c.id)) continue;
    seen.add(c.id);
    // Keep the series' own tag order among equal weights (its first tag is its main genre).
    const shared = [...new Set(c.tagIds)].filter((t) => (profile.get(t) ?? 0) > 0);
    if (shared.length === 0) continue;
    const score = shared.reduce((sum, t) => sum + profile.get(t)!, 0);
    const byWeight = shared.map((t, i) => ({ t, i, w: profile.get(t)! })).sort((a, b) => b.w - a.w || a.i - b.i);
    scored.push({ id: c.id, score, shared: shared.length, popularity: c.popularity, sharedTagIds: byWeight.slice(0, Math.max(0, tagsEach)).map((x) => x.t) });
  }
  scored.sort((a, b) => b.score - a.score || b.shared - a.shared || b.popularity - a.popularity || a.id - b.id);
  return scored.slice(0, Math.max(0, limit)).map(({ id, score, sharedTagIds }) => ({ id, score, sharedTagIds }));
}

/**
 * Profile tags worth querying candidates for: the heaviest first (ties by tag id), at most `max`.
 * Keeps the candidate query bounded whatever the reader's history holds.
 */
export function topProfileTags(profile: ReadonlyMap<number, number>, max = 6): number[] {
  return [...profile.entries()].filter(([, w]) => w > 0).sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, max).map(([id]) => id);
}

export interface ScheduledChapter {
  seriesId: number;
  releasedAt: number;
  /** The series' availability_strategy.simulpub flag. */
  simulpub: boolean;
}

/**
 * The simulpub strip: series flagged simulpub with a chapter scheduled after `now` and within
 * the window, one entry per series at its next release, soonest first (ties by series id), at
 * most `max`. Returns the chosen rows.
 */
export function selectSimulpub<T extends ScheduledChapter>(rows: readonly T[], now: number, max = SIMULPUB_MAX, window = SIMULPUB_WINDOW): T[] {
  const next = new Map<number, T>();
  for (const r of rows) {
    if (!r.simulpub || r.releasedAt <= now || r.releasedAt > now + window) continue;
    const best = next.get(r.seriesId);
    if (!best || r.releasedAt < best.releasedAt) next.set(r.seriesId, r);
  }
  return [...next.values()].sort((a, b) => a.releasedAt - b.releasedAt || a.seriesId - b.seriesId).slice(0, Math.max(0, max));
}

/** Reads availability_strategy.simulpub from the JSON column; anything unexpected is false. */
export function isSimulpub(strategyJson: string | null | undefined): boolean {
  if (!strategyJson) return false;
  try {
    const v = JSON.parse(strategyJson) as unknown;
    return !!v && typeof v === 'object' && (v as { simulpub?: unknown }).simulpub === true;
  } catch {
    return false;
  }
}

/**
 * Which of `count` items is today's (the category spotlight rotates daily). Days are counted in
 * the site's time zone so the spotlight changes at local midnight, the same for every visitor.
 */
export function dailyIndex(now: number, count: number, timeZone = 'UTC'): number {
  if (count <= 0) return 0;
  const day = dayNumber(dayKey(now, timeZone));
  return ((day % count) + count) % count;
}

/** Seconds one pass of the hover reel takes for a strip `height` px tall at REEL_SPEED. */
export function reelDuration(height: number, speed = REEL_SPEED): number {
  if (!(height > 0) || !(speed > 0)) return 0;
  return height / speed;
}
