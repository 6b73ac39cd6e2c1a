/**
 * The comments' part of a reader's own data (issue 32, docs/privacy.md): what they wrote (text,
 * chapter, times, likes) and what they did to others' comments (likes, reports, mutes) for the
 * data export; with the account's deletion their comments go as their own delete takes them (a
 * comment others answered stays as "[deleted]", text emptied; docs/decisions.md).
 */
import type { DB, WriteTx } from '~/server/db';
import * as repo from './repository.server';
import { commentsChanged } from './series.server';

const num = (v: unknown) => (v === null ? null : Number(v));

export const commentsAccountData = {
  name: 'comments',
  async exportOf(db: DB, userId: number) {
    const [mine, acts] = await Promise.all([repo.commentsForExport(db, userId), repo.commentActsForExport(db, userId)]);
    return {
      comments: mine.map((c) => ({
        id: Number(c.id), reply_to: num(c.parent_id), site_id: Number(c.site_id), language: c.language, series: c.series_e4pid, series_name: c.series_name,
        chapter: c.e4pid, chapter_number: Number(c.number), text: c.body, spoiler: Boolean(Number(c.spoiler)), state: c.state,
        created_at: Number(c.created_at), edited_at: num(c.edited_at), deleted_at: num(c.deleted_at), likes: Number(c.like_count), replies: Number(c.reply_count),
      })),
      comment_likes: acts.likes.map((l) => ({ comment_id: Number(l.comment_id), created_at: Number(l.created_at) })),
      comment_reports: acts.reports.map((r) => ({ comment_id: Number(r.comment_id), reason: r.reason, created_at: Number(r.created_at), reviewed_at: num(r.reviewed_at) })),
      muted_readers: acts.mutes.map((m) => ({ reader_id: Number(m.muted_id), created_at: Number(m.created_at) })),
    };
  },
  async eraseFor(tx: WriteTx, userId: number, now: number): Promise<Record<string, number>> {
    const { counts, threads } = await repo.eraseCommentsOf(tx, userId, now);
    for (const t of threads) commentsChanged(t.siteId, await repo.seriesOfChapter(tx, t.chapterId));
    return counts;
  },
};
