/**
 * The comments row of `npm run bench` (issue 31): the server-rendered comments page of a free
 * chapter with 200 comments (a quarter of them replies, likes spread so the three best differ
 * from the newest), as an anonymous visitor asks for it.
 */
import { sql } from 'kysely';
import type { DB } from '~/server/db';
import { makeReaders } from './keys';

export const COMMENTS_ON_CHAPTER = 200;

/**
 * Puts COMMENTS_ON_CHAPTER comments under the first released free English chapter (of the series
 * `slug` when given; once: a
 * chapter that already has them is reused) and returns the comments page's path. Written
 * straight into the tables: through the API, the one-comment-per-20-seconds limit would make
 * this take an hour of bench readers.
 */
export async function chapterWithComments(db: DB, slug?: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  let query = db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
    .select(['chapters.id', 'chapters.e4pid'])
    .where('series.state', '=', 'ACTIVE').where('series.adult', '=', 0).where('series.geoblocks', 'in', ['[]', '']);
  if (slug) query = query.where('series.slug', '=', slug);
  const chapter = await query
    .where('chapters.language', '=', 'en').where('chapters.original_price', '=', 0).where('chapters.released_at', '<=', now - 86_400)
    .orderBy('chapters.id').limit(1).executeTakeFirstOrThrow();
  const { n } = await db.selectFrom('comments').select(sql<number>`count(*)`.as('n')).where('chapter_id', '=', chapter.id).executeTakeFirstOrThrow();
  if (Number(n) >= COMMENTS_ON_CHAPTER) return `/comments/${chapter.e4pid}/`;
  const authors = await makeReaders(db, 20, 1, 'comments');
  const tops: number[] = [];
  for (let i = 0; i < COMMENTS_ON_CHAPTER; i++) {
    const reply = i % 4 === 3 && tops.length > 0;
    const row = await db.insertInto('comments').values({
      chapter_id: chapter.id,
      site_id: 1,
      language: 'en',
      user_id: authors[i % authors.length]!.id,
      parent_id: reply ? tops[(i * 7) % tops.length]! : null,
      body: `Comment ${i + 1}: ${i % 9 === 0 ? '||the twist in the last panel|| ' : ''}the pacing in this chapter is great, and the art on the rooftop pages is something else. ${'More thoughts. '.repeat(i % 5)}`,
      spoiler: i % 17 === 0 ? 1 : 0,
      created_at: now - (COMMENTS_ON_CHAPTER - i) * 300,
      like_count: (i * 37) % 23,
      reply_count: 0,
    }).returning('id').executeTakeFirstOrThrow();
    if (reply) await db.updateTable('comments').set((eb) => ({ reply_count: eb('reply_count', '+', 1) })).where('id', '=', tops[(i * 7) % tops.length]!).execute();
    else tops.push(Number(row.id));
  }
  return `/comments/${chapter.e4pid}/`;
}
