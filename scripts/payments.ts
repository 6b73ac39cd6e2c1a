/**
 * npm run payments -- pay <correlationID> [--url http://localhost:4321]   (default: the server PORT and HOST name)
 * npm run payments -- reconcile
 *
 * `pay` plays the payer of a Pix sandbox charge: marks it paid at the sandbox PSP and delivers
 * the signed webhook to the server exactly as a real PSP would (the server's poll and the
 * reconciler would find the payment too if the server cannot be reached). `reconcile` asks the
 * providers about every pending order and applies their answers through the one confirmation;
 * safe to run at any time, twice, or from cron. docs/payments.md. Usage errors exit 2.
 */
import { parseArgs } from 'node:util';
import { createDb } from '~/server/db';
import { config, localOrigin } from '~/server/config.mjs';
import { migrateToLatest } from '@db/migrate';
import { reconcile } from '~/features/commerce/index.server';
import { deliverWebhook, paySandboxCharge, sandboxWebhookKey } from '~/features/payments/sandbox.server';
import { PIX_WEBHOOK_PATH } from '~/lib/paths';

const USAGE = [
  'Usage: npm run payments -- pay <correlationID> [--url <server URL, default http://HOST:PORT as the server reads them>]',
  '       npm run payments -- reconcile',
].join('\n');

function usage(message?: string): never {
  console.error(message ? `${message}\n${USAGE}` : USAGE);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { url: { type: 'string' } } });
} catch (e) {
  usage((e as Error).message);
}
const { values, positionals } = parsed;
const [command, ...rest] = positionals;
if (command === undefined) usage();
if (command !== 'pay' && command !== 'reconcile') usage(`Unknown command "${command}".`);
if (command === 'pay' && rest.length !== 1) usage('pay takes one correlationID');
if (command === 'reconcile' && rest.length) usage(`Unexpected argument "${rest[0]}".`);
if (command === 'pay' && (config.payments.pix !== 'sandbox' || config.mode !== 'demo')) usage('pay plays the payer of the Pix sandbox, which only a demo has (INKPASS_MODE=demo, PAYMENTS_PIX=sandbox); a real PSP is paid from a bank app');
const base = (values.url ?? localOrigin(config)).replace(/\/+$/, '');
if (!/^https?:\/\/[^\s/]+$/.test(base)) usage('--url must be the server\'s origin, such as http://localhost:4321');

const { db } = await createDb();
let code = 0;
try {
  await migrateToLatest(db);
  const now = Math.floor(Date.now() / 1000);
  if (command === 'pay') {
    const paid = await paySandboxCharge(db, rest[0]!, now);
    const charge = paid?.charge;
    if (!paid || !charge) {
      console.error(`No sandbox Pix charge ${rest[0]}.`);
      code = 1;
    } else if (charge.status !== 'COMPLETED') {
      console.error(`Charge ${charge.correlationID} is ${charge.status}: it can no longer be paid.`);
      code = 1;
    } else {
      // A charge paid before gets its webhook again: deliveries are idempotent, as a PSP's retries are.
      console.log(`${paid.paidNow ? 'Paid' : 'Already paid'} ${charge.correlationID} (${charge.value} centavos, payment ${charge.paymentId}).`);
      try {
        const status = await deliverWebhook(`${base}${PIX_WEBHOOK_PATH}`, charge, sandboxWebhookKey());
        console.log(`Webhook delivered to ${base}${PIX_WEBHOOK_PATH}: HTTP ${status}.`);
        if (status !== 200) code = 1;
      } catch (e) {
        console.warn(`Webhook not delivered (${(e as Error).message}); the checkout's poll or \`npm run payments -- reconcile\` will confirm the payment.`);
      }
    }
  } else {
    const s = await reconcile(db, now);
    console.log(`reconcile: ${s.checked} pending orders checked; ${s.paid} paid, ${s.expired} expired, ${s.failed} failed, ${s.pending} still pending.`);
    const r = s.refunds;
    if (r.confirmed + r.refused + r.pending > 0) console.log(`refunds: ${r.confirmed} confirmed, ${r.refused} refused by the provider, ${r.pending} still waiting.`);
  }
} finally {
  await db.destroy();
}
process.exit(code);
