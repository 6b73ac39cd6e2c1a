import { createDb } from '~/server/db';
import { migrateToLatest } from '@db/migrate';

const { db } = await createDb();
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await db.destroy();
}
