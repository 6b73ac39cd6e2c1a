/**
 * Every invariant of the ledger, checked over the whole database (`npm run keys -- audit`, and
 * after every ledger test): entries sum to zero per transaction and currency; each balance row
 * equals the sum of its account's entries; no reader's balance is negative; the sum of all
 * accounts is zero per currency; each ownership is tied to exactly one unlock that charged its
 * price, and each unlock charge bought an ownership; the buyer gets floor(price / 10) Xtra keys
 * back exactly when the price is above 9; each rental is tied to one transaction of its kind that
 * moved no keys; a reader's daily pass in a series is used at most once per recharge.
 */
import type { DB } from '~/server/db';
import { parseFreeAvailability, unlockBonus } from '~/features/catalog';
import { findSeries } from '~/features/catalog/index.server';
import * as repo from './repository.server';

export interface AuditFinding {
  rule: string;
  rows: unknown[];
}

export async function auditLedger(db: DB): Promise<AuditFinding[]> {
  const [unbalanced, drifted, negative, totals, unlocks, charges, bonuses, rentals, rentalTx, passes] = await Promise.all([
    repo.unbalancedTransactions(db),
    repo.driftedAccounts(db),
    repo.negativeUserAccounts(db),
    repo.totalsByCurrency(db),
    repo.unlocksWithoutTheirCharge(db),
    repo.chargesWithoutUnlock(db),
    repo.unlockBonuses(db),
    repo.rentalsWithoutTheirTransaction(db),
    repo.rentalTransactionsAmiss(db),
    repo.dailyPassRentals(db),
  ]);
  // Consecutive uses of one reader's pass in one series, closer than the series' recharge.
  const recharge = new Map<number, number>();
  const tooSoon: unknown[] = [];
  for (let i = 1; i < passes.length; i++) {
    const a = passes[i - 1]!, b = passes[i]!;
    if (a.user_id !== b.user_id || a.series_id !== b.series_id) continue;
    if (!recharge.has(b.series_id)) recharge.set(b.series_id, parseFreeAvailability((await findSeries(db, String(b.series_id)))?.free_availability).daily_pass_recharge);
    if (b.created_at - a.created_at < recharge.get(b.series_id)!) tooSoon.push({ first: a, second: b });
  }
  const wrongBonus = bonuses.filter((b) => b.bonus !== unlockBonus(b.price));
  const findings: AuditFinding[] = [
    { rule: 'entries of a transaction sum to zero per currency', rows: unbalanced },
    { rule: 'a balance equals the sum of its entries', rows: drifted },
    { rule: 'no reader balance is negative', rows: negative },
    { rule: 'all accounts sum to zero per currency', rows: totals.filter((t) => t.total !== 0) },
    { rule: 'each ownership is tied to one unlock that charged its price', rows: unlocks },
    { rule: 'each unlock charge bought an ownership', rows: charges },
    { rule: 'a bonus of floor(price / 10) Xtra keys is given back exactly when the price is above 9', rows: wrongBonus },
    { rule: 'each rental is tied to a transaction of its kind, reader and chapter', rows: rentals },
    { rule: 'a rental transaction moves no keys and wrote its rental', rows: rentalTx },
    { rule: "a reader's daily pass in a series is used at most once per recharge", rows: tooSoon },
  ];
  return findings.filter((f) => f.rows.length > 0);
}

/**
 * Keeps the verdict of an audit run (the ledger's and the orders' findings together), so
 * /metrics can show when the audit last ran and how many rules failed.
 */
export async function recordAudit(db: DB, findings: readonly { rule: string }[], now: number): Promise<void> {
  await repo.insertLedgerAudit(db, { at: now, failed_rules: findings.length, rules_json: JSON.stringify(findings.map((f) => f.rule)) });
}

/** The last recorded audit run: when, and how many rules failed (null: never run). */
export async function lastAudit(db: DB): Promise<{ at: number; failedRules: number } | null> {
  const row = await repo.latestLedgerAudit(db);
  return row ? { at: row.at, failedRules: row.failed_rules } : null;
}
