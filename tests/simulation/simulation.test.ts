/**
 * The seeded simulation's short run in `npm test` (the long one is `npm run simulate`,
 * docs/testing.md "Seeded simulation"): a few seeds of a few hundred operations on each database,
 * every fault on. A failure names the seed and the command that replays it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { testDialects } from '~/server/test-databases';
import { runSimulation } from './simulation';
import { dropTemplates } from './world';

afterAll(dropTemplates);

const SEEDS = [1, 2, 3];
const OPS = 300;

for (const dialect of testDialects()) {
  describe(`the seeded simulation (${dialect})`, () => {
    it.each(SEEDS)('keeps every invariant through seed %i', async (seed) => {
      const r = await runSimulation({ seed, ops: OPS, dialect, checkEvery: 100 });
      const f = r.failure;
      expect(f, f && `seed ${seed} broke "${f.invariant}" at operation ${f.op} (${f.what}): ${f.detail}\nreplay: npm run simulate -- --seed ${seed} --ops ${OPS} --dialect ${dialect}`).toBeUndefined();
      // The run did what it is for: money moved, and crashes were injected and survived.
      expect(r.stats['op.buyCard'] ?? 0).toBeGreaterThan(0);
      expect(r.stats['payPix.paid'] ?? 0).toBeGreaterThan(0);
      expect(r.stats.crash ?? 0).toBeGreaterThan(0);
    }, 240_000);
  });
}
