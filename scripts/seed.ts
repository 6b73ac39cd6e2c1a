/**
 * npm run seed [-- --force] [-- --large]
 *
 * Seeds the demo catalogue into DATABASE_URL (after running migrations) and
 * generates its images under MEDIA_DIR. A catalogue that already has series
 * is left alone unless --force is given, in which case its rows are deleted
 * first. --large builds the benchmark catalogue (about 10,000 series). The demo accounts and
 * coupons come only in a demo (INKPASS_MODE unset or demo), never in production.
 */
import { createDb } from '~/server/db';
import { config } from '~/server/config.mjs';
import { mediaStore } from '~/server/media-store';
import { migrateToLatest } from '@db/migrate';
import { clearCatalog, isCatalogEmpty, seedDemo, seedDemoPromotions, seedDemoTexts } from '@db/seed/index';
import { seedDemoUsers } from '@db/seed/users';
import { seedShop } from '@db/seed/shop';

const args = new Set(process.argv.slice(2));
const unknown = [...args].filter((a) => a !== '--force' && a !== '--large');
if (unknown.length) {
  console.error(`Unknown option ${unknown.join(' ')}. Usage: npm run seed -- [--force] [--large]`);
  process.exit(2);
}
const force = args.has('--force');
const large = args.has('--large');

const started = Date.now();
const { db, dialect } = await createDb();
try {
  await migrateToLatest(db);
  let empty = await isCatalogEmpty(db);
  if (!empty && force) {
    console.log('Deleting the existing catalogue (--force)...');
    await clearCatalog(db);
    empty = true;
  }
  if (!empty) {
    // Not an error: npm start seeds only an empty catalogue, and so does this script without --force.
    console.log('The catalogue already has series; nothing seeded. Run `npm run seed -- --force` to replace it.');
    const texts = await seedDemoTexts(db);
    if (texts) console.log(`Added ${texts} demo series translations`);
    const promos = await seedDemoPromotions(db, mediaStore());
    if (promos) console.log(`Added ${promos} demo promotional visuals`);
  } else {
    const result = await seedDemo(db, { mediaDir: config.mediaDir, store: mediaStore(), large, log: (m) => console.log(`  ${m}`) });
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`Seeded ${large ? 'large' : 'demo'} catalogue on ${dialect}: ${result.series} series, ${result.chapters} chapters in ${secs} s.`);
  }
  const demo = config.mode === 'demo';
  const users = demo ? await seedDemoUsers(db) : [];
  const packs = await seedShop(db, { coupons: demo });
  if (packs) console.log(`Seeded the shop: ${packs} key packs and plans${demo ? ' (and the demo coupons)' : ''}`);
  if (!demo) console.log('Production mode: no demo accounts or coupons were created.');
  if (users.length) console.log(`Created demo accounts: ${users.join(', ')}`);
} finally {
  await db.destroy();
}
