// Used by `npm start` and `npm run dev`: apply migrations, then, in a demo (INKPASS_MODE), seed
// the demo catalogue only when the catalogue is empty, so a second start never re-seeds or loses
// data, and the demo accounts and coupons. Production gets migrations and the shop's packs and
// plans, never a demo account or coupon (docs/operations.md).
import { createDb } from '~/server/db';
import { config } from '~/server/config.mjs';
import { mediaStore } from '~/server/media-store';
import { migrateToLatest } from '@db/migrate';
import { isCatalogEmpty, seedDemo, seedDemoPromotions, seedDemoTexts } from '@db/seed/index';
import { seedDemoUsers } from '@db/seed/users';
import { seedShop } from '@db/seed/shop';
import { refreshReleasedSeries } from '~/features/catalog/index.server';

const { db } = await createDb();
try {
  const applied = await migrateToLatest(db);
  if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`);
  const demo = config.mode === 'demo';
  const empty = await isCatalogEmpty(db);
  if (empty && !demo) {
    console.log('The catalogue is empty. Production mode seeds no demo content: `npm run seed` adds the demo catalogue (never demo accounts) if you want it.');
  } else if (empty) {
    const started = Date.now();
    const result = await seedDemo(db, { mediaDir: config.mediaDir, store: mediaStore(), log: (m) => console.log(m) });
    console.log(`Seeded ${result.series} series and ${result.chapters} chapters in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else {
    // Chapters scheduled while the server was down are out now: bring the series counters up to date
    // (the running server then checks once a minute; see src/features/catalog/release.server.ts).
    const touched = await refreshReleasedSeries(db, 0, Math.floor(Date.now() / 1000));
    // A catalogue seeded before per-language series texts existed gets the demo's translations.
    const texts = await seedDemoTexts(db);
    if (texts) console.log(`Added ${texts} demo series translations`);
    // A demo catalogue seeded before promotional visuals existed gets the demo's (and its previews).
    const promos = demo ? await seedDemoPromotions(db, mediaStore()) : 0;
    if (promos) console.log(`Added ${promos} demo promotional visuals`);
    if (touched) console.log(`Release counters checked for ${touched} series`);
  }
  const users = demo ? await seedDemoUsers(db) : [];
  const packs = await seedShop(db, { coupons: demo });
  if (packs) console.log(`Seeded the shop: ${packs} key packs and plans${demo ? ' (and the demo coupons)' : ''}`);
  if (users.length) console.log(`Created demo accounts: ${users.join(', ')}`);
} finally {
  await db.destroy();
}
