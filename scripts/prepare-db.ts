// Used by `npm start` and `npm run dev`: apply migrations, then seed the demo catalogue
// only when the catalogue is empty, so a second start never re-seeds or loses data.
import { createDb } from '~/server/db';
import { config } from '~/server/config.mjs';
import { migrateToLatest } from '@db/migrate';
import { isCatalogEmpty, seedDemo, seedDemoTexts } from '@db/seed/index';
import { seedDemoUsers } from '@db/seed/users';
import { seedShop } from '@db/seed/shop';
import { refreshReleasedSeries } from '~/features/catalog/index.server';

const { db } = await createDb();
try {
  const applied = await migrateToLatest(db);
  if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`);
  if (await isCatalogEmpty(db)) {
    const started = Date.now();
    const result = await seedDemo(db, { mediaDir: config.mediaDir, log: (m) => console.log(m) });
    console.log(`Seeded ${result.series} series and ${result.chapters} chapters in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else {
    // Chapters scheduled while the server was down are out now: bring the series counters up to date
    // (the running server then checks once a minute; see src/features/catalog/release.server.ts).
    const touched = await refreshReleasedSeries(db, 0, Math.floor(Date.now() / 1000));
    // A catalogue seeded before per-language series texts existed gets the demo's translations.
    const texts = await seedDemoTexts(db);
    if (texts) console.log(`Added ${texts} demo series translations`);
    if (touched) console.log(`Release counters checked for ${touched} series`);
  }
  const users = await seedDemoUsers(db);
  const packs = await seedShop(db);
  if (packs) console.log(`Seeded the shop: ${packs} key packs and plans (and the demo coupons)`);
  if (users.length) console.log(`Created demo accounts: ${users.join(', ')}`);
} finally {
  await db.destroy();
}
