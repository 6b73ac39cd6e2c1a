/**
 * One pricing rule everywhere: a chapter that is free today by the series' strategy or cheaper
 * by a campaign shows the same price in the relay, the episodes API and the series page, and
 * the redeem call agrees (409 free). Real HTTP on both databases.
 */
import { describe, expect, it } from 'vitest';
import { appCheckHeader, createReader, selectedDialects, useServer, withDb } from './harness';

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

interface Sample {
  seriesId: number;
  slug: string;
  e4pid: string;
  original: number;
  final: number;
  reason: string | null;
}

for (const dialect of selectedDialects()) {
  describe(`one price everywhere (${dialect})`, () => {
    const server = useServer(dialect);

    /**
     * English chapters released in the last 20 days of ACTIVE, unblocked series, priced by the
     * app's rule. Not adult series: their page shows the age gate instead of chapter rows (which
     * series the window picks moves with the seed's dates relative to today).
     */
    const recent = () =>
      withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const t = now();
        const rows = await db
          .selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
          .select(['chapters.e4pid', 'chapters.series_id', 'series.slug'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where('series.adult', '=', 0)
          .where('chapters.language', '=', 'en').where('chapters.original_price', '>', 0)
          .where('chapters.released_at', '>', t - 20 * DAY).where('chapters.released_at', '<=', t - 60)
          .orderBy('chapters.released_at', 'desc').limit(400).execute();
        const out: Sample[] = [];
        for (const r of rows) {
          const ctx = await pricingContext(db, r.e4pid, t);
          if (!ctx) continue;
          const a = accessIn(ctx, null, null, t);
          out.push({ seriesId: Number(r.series_id), slug: r.slug, e4pid: r.e4pid, original: a.originalPrice, final: a.finalPrice, reason: a.reason });
        }
        return out;
      });

    it('the relay prices recent chapters as the episodes API does, strategy-free and campaign prices included', async () => {
      const samples = await recent();
      const strategyFree = samples.filter((s) => s.reason === 'strategy_free');
      const onSale = samples.filter((s) => s.final > 0 && s.final < s.original);
      // The demo catalogue has simulpub series (a free first week) and running campaigns.
      expect(strategyFree.length).toBeGreaterThan(0);
      expect(onSale.length).toBeGreaterThan(0);
      const picked = [...strategyFree.slice(0, 3), ...onSale.slice(0, 3), ...samples.filter((s) => s.final === s.original).slice(0, 2)];
      const seriesIds = [...new Set(picked.map((s) => s.seriesId))];
      const res = await server.request(`/relay/consumer/inkpass/series/${seriesIds.join(',')}/updates?clientid=it-tests&after=${now() - 21 * DAY}`);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      const relayItems = new Map<string, { free: boolean; final_price: number; original_price: number; on_sale: boolean }>();
      for (const entry of res.json().data.episodes) for (const item of entry.items) relayItems.set(item.e4pid, item);
      for (const s of picked) {
        const item = relayItems.get(s.e4pid);
        expect(item, `${s.e4pid} in the relay`).toBeDefined();
        expect({ e4pid: s.e4pid, free: item!.free, final: item!.final_price, original: item!.original_price, onSale: item!.on_sale })
          .toEqual({ e4pid: s.e4pid, free: s.final === 0, final: s.final, original: s.original, onSale: s.final > 0 && s.final < s.original });
        const api = await server.request(`/api/comic.public/${s.seriesId}/episodes?language=en`);
        expect(api.status).toBe(200);
        const episode = (api.json().episodes as { id: string; final_price: number; original_price: number }[]).find((e) => e.id === s.e4pid);
        expect({ e4pid: s.e4pid, final: episode?.final_price, original: episode?.original_price }).toEqual({ e4pid: s.e4pid, final: s.final, original: s.original });
      }
    });

    it('a chapter free by its strategy reads as free on the series page and cannot be bought (409)', async () => {
      const free = (await recent()).find((s) => s.reason === 'strategy_free');
      expect(free).toBeDefined();
      const page = await server.request(`/comics/${free!.slug}/`);
      expect(page.status).toBe(200);
      // Reader URLs carry the chapter id without its EPI- prefix.
      const row = page.text.split('<li ').find((r) => r.includes(`/read/${free!.slug}/${free!.e4pid.slice(4)}/`));
      expect(row, 'the chapter row').toBeDefined();
      expect(row).toMatch(/^class="chapter-row is-free/);
      expect(row).toContain('price-free');
      const reader = await createReader(server);
      const res = await server.request('/api/redeem/', {
        method: 'POST',
        body: new URLSearchParams({ content: free!.e4pid }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: reader.cookie, ...(await appCheckHeader(server, reader)) },
      });
      expect(res.status).toBe(409);
    });
  });
}
