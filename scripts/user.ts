/**
 * npm run user -- create --email a@b.c --name "Ana" --password secret123 [--staff]
 * npm run user -- grant-role --email a@b.c --role content
 * npm run user -- revoke-role --email a@b.c --role content
 *
 * Creates an account in DATABASE_URL (after running migrations; `--staff` makes it an admin),
 * or gives or takes away one staff capability (content, pricing, support, money, moderation,
 * admin; docs/staff.md), with its audit record. Exits 1 when the email is taken (create) or
 * unknown (grant-role, revoke-role) or the input is invalid, 2 on a usage error.
 */
import { parseArgs } from 'node:util';
import { CAPABILITIES, isCapability } from '~/server/staff';

const USAGE = [
  'Usage: npm run user -- create --email <email> --name <display name> --password <password> [--staff]',
  `       npm run user -- grant-role --email <email> --role <${CAPABILITIES.join('|')}>`,
  `       npm run user -- revoke-role --email <email> --role <${CAPABILITIES.join('|')}>`,
].join('\n');

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      staff: { type: 'boolean', default: false },
      role: { type: 'string' },
    },
  });
} catch (e) {
  console.error(`${(e as Error).message}\n${USAGE}`);
  process.exit(2);
}
const { values, positionals } = parsed;
const command = positionals[0];
const roleCommand = command === 'grant-role' || command === 'revoke-role';
const usable = positionals.length === 1 && (
  (command === 'create' && values.email && values.name && values.password && values.role === undefined)
  || (roleCommand && values.email && isCapability(values.role) && values.name === undefined && values.password === undefined && !values.staff)
);
if (!usable) {
  if (roleCommand && values.role !== undefined && !isCapability(values.role)) console.error(`Unknown role "${values.role}".`);
  console.error(USAGE);
  process.exit(2);
}

// Loaded after the usage check: a usage error answers without opening the app.
const { createDb } = await import('~/server/db');
const { migrateToLatest } = await import('@db/migrate');
const { AccountInputError, changeCapability, createUser } = await import('~/features/accounts/index.server');
const { commandLineActor } = await import('~/server/audit');

const { db } = await createDb();
let code = 0;
try {
  await migrateToLatest(db);
  if (command === 'create') {
    const user = await createUser(db, { email: values.email!, displayName: values.name!, password: values.password!, capabilities: values.staff ? ['admin'] : [] });
    if (!user) {
      console.error(`An account with the email ${values.email!.trim().toLowerCase()} already exists.`);
      code = 1;
    } else {
      console.log(`Created ${user.isStaff ? 'staff (admin)' : 'reader'} account #${user.id} <${user.email}> "${user.displayName}".`);
    }
  } else {
    const role = values.role as (typeof CAPABILITIES)[number];
    const change = command === 'grant-role' ? 'grant' : 'revoke';
    const result = await changeCapability(db, { email: values.email!, capability: role, change, actor: commandLineActor('admin') });
    const email = values.email!.trim().toLowerCase();
    if (result.outcome === 'no-account') {
      console.error(`No account has the email ${email}.`);
      code = 1;
    } else if (result.outcome === 'self-revoke') {
      throw new Error('unreachable: the command line acts as no account');
    } else {
      const now = result.capabilities.length ? result.capabilities.join(', ') : 'none (a reader)';
      const what = result.outcome === 'unchanged' ? (change === 'grant' ? `already had ${role}` : `did not have ${role}`) : (change === 'grant' ? `was granted ${role}` : `lost ${role}`);
      console.log(`Account #${result.userId} <${email}> ${what}. Capabilities: ${now}.`);
    }
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
