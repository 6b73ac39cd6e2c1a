/**
 * House ads: a promotional visual of another series from the catalogue, shown for a minimum time
 * (config.adMinSeconds). The token is 32 random bytes; `ad_views` keeps its SHA-256, the reader,
 * the chapter and when it may be redeemed, and marks it used with a guarded update, so a token
 * pays for one rental even when it comes back many times at once.
 */
import crypto from 'node:crypto';
import { promotionalVisual } from '~/features/catalog/index.server';
import { config } from '~/server/config.mjs';
import { writeTransaction, type DB, type WriteTx } from '~/server/db';
import * as repo from '../repository.server';
import type { AdProvider, AdVerdict } from './provider';

/** A started ad can be claimed for this long after its minimum time. */
export const AD_CLAIM_WINDOW = 30 * 60;

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const houseAds: AdProvider = {
  async start(db, { userId, chapterId, seriesId, language, country, now }) {
    const visual = await promotionalVisual(db, seriesId, language, country);
    if (!visual) return null;
    const token = crypto.randomBytes(32).toString('base64url');
    // `now` is a whole second that began up to a second ago: one more makes the shortest wait the
    // full minimum (a view started at 10.9 s must not pay at 11.0 s).
    const readyAt = now + config.adMinSeconds + 1;
    const expiresAt = readyAt + AD_CLAIM_WINDOW;
    await writeTransaction(db, (trx) => repo.insertAdView(trx, { token_hash: hashOf(token), user_id: userId, chapter_id: chapterId, promoted_series_id: visual.series.id, started_at: now, ready_at: readyAt, expires_at: expiresAt }));
    return { token, readyAt, expiresAt, creative: { type: visual.type, src: visual.src, poster: visual.poster, fit: visual.fit, series: { name: visual.series.name, link: visual.series.link } } };
  },

  async peek(db, { userId, token }) {
    if (!TOKEN.test(token)) return null;
    const view = await repo.findAdView(db, hashOf(token));
    return view && view.user_id === userId ? { chapterId: view.chapter_id } : null;
  },

  async redeem(trx, { userId, token, now }): Promise<AdVerdict> {
    if (!TOKEN.test(token)) return { ok: false, why: 'unknown' };
    const hash = hashOf(token);
    const view = await repo.findAdView(trx, hash);
    if (!view || view.user_id !== userId) return { ok: false, why: 'unknown' };
    if (view.used_at !== null) return { ok: false, why: 'used' };
    if (now < view.ready_at) return { ok: false, why: 'early', until: view.ready_at };
    if (now > view.expires_at) return { ok: false, why: 'expired' };
    // The guarded update is what makes the token single-use across requests and processes.
    const used = await repo.useAdView(trx, hash, userId, now);
    return used ? { ok: true, chapterId: used.chapter_id, ref: hash } : { ok: false, why: 'used' };
  },
};
