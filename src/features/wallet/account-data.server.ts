/**
 * The wallet's part of a reader's own data (issue 32, docs/privacy.md): balances, every ledger
 * movement of their accounts, owned chapters and rentals, for the data export. Nothing is erased
 * with the account: the ledger's rows are financial records the law and the ledger audit need,
 * and they point at the anonymised account row.
 */
import type { DB, WriteTx } from '~/server/db';
import { balancesOf } from './ledger.server';
import * as repo from './repository.server';

export const walletAccountData = {
  name: 'wallet',
  async exportOf(db: DB, userId: number) {
    const [balances, entries, holdings] = await Promise.all([balancesOf(db, userId), repo.entriesForExport(db, userId), repo.holdingsForExport(db, userId)]);
    return {
      balances: { keys: balances.keys, bonus_keys: balances.xtra },
      ledger: entries.map((e) => ({ transaction: Number(e.id), kind: e.kind, reason: e.reason, chapter: e.chapter, currency: e.currency, amount: Number(e.amount), created_at: Number(e.created_at) })),
      unlocks: holdings.unlocks.map((u) => ({ chapter: u.e4pid, price: Number(u.price), currency: u.currency, created_at: Number(u.created_at) })),
      rentals: holdings.rentals.map((r) => ({ chapter: r.e4pid, kind: r.kind, created_at: Number(r.created_at), expires_at: Number(r.expires_at) })),
    };
  },
  /** Erases nothing: records in the deletion's audit entry the keys the reader left behind. */
  async eraseFor(tx: WriteTx, userId: number): Promise<Record<string, number>> {
    const b = await balancesOf(tx, userId);
    return { keys_left: b.keys, bonus_keys_left: b.xtra };
  },
};
