/**
 * npm run user -- create --email a@b.c --name "Ana" --password secret123 [--staff]
 *
 * Creates an account in DATABASE_URL (after running migrations). Exits 1 when the email is
 * taken or the input is invalid, 2 on a usage error.
 */
import { parseArgs } from 'node:util';
import { createDb } from '~/server/db';
import { migrateToLatest } from '@db/migrate';
import { AccountInputError, createUser } from '~/features/accounts/index.server';

const USAGE = 'Usage: npm run user -- create --email <email> --name <display name> --password <password> [--staff]';

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      staff: { type: 'boolean', default: false },
    },
  });
} catch (e) {
  console.error(`${(e as Error).message}\n${USAGE}`);
  process.exit(2);
}
const { values, positionals } = parsed;
if (positionals[0] !== 'create' || positionals.length !== 1 || !values.email || !values.name || !values.password) {
  console.error(USAGE);
  process.exit(2);
}

const { db } = await createDb();
let code = 0;
try {
  await migrateToLatest(db);
  const user = await createUser(db, { email: values.email, displayName: values.name, password: values.password, isStaff: values.staff });
  if (!user) {
    console.error(`An account with the email ${values.email.trim().toLowerCase()} already exists.`);
    code = 1;
  } else {
    console.log(`Created ${user.isStaff ? 'staff' : 'reader'} account #${user.id} <${user.email}> "${user.displayName}".`);
  }
} catch (e) {
  if (!(e instanceof AccountInputError)) throw e;
  const { translate } = await import('~/lib/i18n');
  console.error(translate('en', e.key as never));
  code = 1;
} finally {
  await db.destroy();
}
process.exit(code);
