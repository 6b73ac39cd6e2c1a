/**
 * npm run keys -- grant --email E --keys N --xtra M --reason "…" [--key K]
 * npm run keys -- balance --email E
 * npm run keys -- audit
 *
 * Staff and demo tools for the keys ledger (docs/wallet.md), on DATABASE_URL after migrations.
 * A grant is idempotent on --key (default: a new random one per run). The audit checks every
 * ledger invariant, and that every paid order was credited exactly once, and exits 1 with the
 * offending rows when one fails. Usage errors exit 2.
 */
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';

const USAGE = [
  'Usage: npm run keys -- grant --email <email> [--keys N] [--xtra M] --reason "<why>" [--key <idempotency key>]',
  '       npm run keys -- balance --email <email>',
  '       npm run keys -- audit',
].join('\n');

function usage(message?: string): never {
  console.error(message ? `${message}\n${USAGE}` : USAGE);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, keys: { type: 'string' }, xtra: { type: 'string' }, reason: { type: 'string' }, key: { type: 'string' } },
  });
} catch (e) {
  usage((e as Error).message);
}
const { values, positionals } = parsed;
const command = positionals[0];
if (command === undefined) usage();
if (!['grant', 'balance', 'audit'].includes(command)) usage(`Unknown command "${command}".`);
if (positionals.length > 1) usage(`Unexpected argument "${positionals[1]}".`);

const count = (raw: string | undefined, name: string): number => {
  if (raw === undefined) return 0;
  if (!/^\d{1,9}$/.test(raw)) usage(`--${name} must be a whole number of keys`);
  return Number(raw);
};
// Usage errors are found before the database is opened: a typo never depends on its state.
if (command !== 'audit' && !values.email) usage('--email is required');
const keys = command === 'grant' ? count(values.keys, 'keys') : 0;
const xtra = command === 'grant' ? count(values.xtra, 'xtra') : 0;
if (command === 'grant' && keys + xtra === 0) usage('grant at least one key (--keys or --xtra)');
if (command === 'grant' && !values.reason?.trim()) usage('--reason is required');

// The app's modules load only now: a usage error answers at once, without them.
const { createDb } = await import('~/server/db');
const { migrateToLatest } = await import('@db/migrate');
const { findUserByEmail } = await import('~/features/accounts/index.server');
const { auditLedger, balancesOf, grantKeys, recordAudit } = await import('~/features/wallet/index.server');
const { auditOrders } = await import('~/features/commerce/index.server');

const { db } = await createDb();
let code = 0;
try {
  await migrateToLatest(db);
  if (command === 'audit') {
    // The ledger's invariants, and that every paid order's keys were credited exactly once.
    const findings = [...(await auditLedger(db)), ...(await auditOrders(db))];
    // The verdict is kept for /metrics (inkpass_ledger_audit_*), whose alerts say when it fails or stops running.
    await recordAudit(db, findings, Math.floor(Date.now() / 1000));
    if (findings.length === 0) console.log('ledger audit: every invariant holds');
    for (const f of findings) {
      console.error(`FAILED: ${f.rule}`);
      for (const row of f.rows.slice(0, 50)) console.error(`  ${JSON.stringify(row)}`);
      if (f.rows.length > 50) console.error(`  … and ${f.rows.length - 50} more`);
    }
    code = findings.length ? 1 : 0;
  } else {
    const user = await findUserByEmail(db, values.email!);
    if (!user) {
      console.error(`No account with the email ${values.email!.trim().toLowerCase()}.`);
      code = 1;
    } else if (command === 'balance') {
      const b = await balancesOf(db, user.id);
      console.log(`${user.email}: ${b.keys} keys, ${b.xtra} Xtra keys`);
    } else {
      // Scoped to the reader: the same --key for another reader is another grant.
      const key = values.key ? `grant:${user.id}:${values.key}` : `grant:${crypto.randomUUID()}`;
      const { created, balances } = await grantKeys(db, { userId: user.id, keys, xtra, reason: values.reason!.trim().slice(0, 500), key, now: Math.floor(Date.now() / 1000) });
      console.log(`${created ? 'Granted' : 'Already granted (same --key)'}: ${user.email} now has ${balances.keys} keys, ${balances.xtra} Xtra keys.`);
    }
  }
} finally {
  await db.destroy();
}
process.exit(code);
