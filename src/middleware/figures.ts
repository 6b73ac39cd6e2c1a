/**
 * Where /metrics reads the database's figures from (src/server/observe.mjs; served by
 * scripts/serve.mjs): payments from commerce, the last ledger audit from the wallet, each
 * through its feature's door. Said once, when the middleware loads (scripts/serve.mjs makes sure
 * it has before it answers /metrics); observe.mjs reads them at most every 15 s.
 */
import { paymentFigures } from '~/features/commerce/index.server';
import { lastAudit } from '~/features/wallet/index.server';
import { getDb } from '~/server/db';
import { observeFigures } from '~/server/observe.mjs';

observeFigures(async () => {
  const db = await getDb();
  const now = Math.floor(Date.now() / 1000);
  const [payments, audit] = await Promise.all([paymentFigures(db, now), lastAudit(db)]);
  return { ...payments, lastAudit: audit };
});
