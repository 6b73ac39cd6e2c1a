/**
 * Every invariant of the ledger, checked over the whole database (`npm run keys -- audit`, and
 * after every ledger test): entries sum to zero per transaction and currency; each balance row
 * equals the sum of its account's entries; no reader's balance is negative; the sum of all
 * accounts is zero per currency; each ownership is tied to exactly one unlock that charged its
 * price, and each unlock charge bought an ownership; the buyer gets floor(price / 10) Xtra keys
 * back exactly when the price is above 9.
 */
import type { DB } from '~/server/db';
import { unlockBonus } from '~/features/catalog';
import * as repo from './repository.server';

export interface AuditFinding {
  rule: string;
  rows: unknown[];
}

export async function auditLedger(db: DB): Promise<AuditFinding[]> {
  const [unbalanced, drifted, negative, totals, unlocks, charges, bonuses] = await Promise.all([
    repo.unbalancedTransactions(db),
    repo.driftedAccounts(db),
    repo.negativeUserAccounts(db),
    repo.totalsByCurrency(db),
    repo.unlocksWithoutTheirCharge(db),
    repo.chargesWithoutUnlock(db),
    repo.unlockBonuses(db),
  ]);
  const wrongBonus = bonuses.filter((b) => b.bonus !== unlockBonus(b.price));
  const findings: AuditFinding[] = [
    { rule: 'entries of a transaction sum to zero per currency', rows: unbalanced },
    { rule: 'a balance equals the sum of its entries', rows: drifted },
    { rule: 'no reader balance is negative', rows: negative },
    { rule: 'all accounts sum to zero per currency', rows: totals.filter((t) => t.total !== 0) },
    { rule: 'each ownership is tied to one unlock that charged its price', rows: unlocks },
    { rule: 'each unlock charge bought an ownership', rows: charges },
    { rule: 'a bonus of floor(price / 10) Xtra keys is given back exactly when the price is above 9', rows: wrongBonus },
  ];
  return findings.filter((f) => f.rows.length > 0);
}
