/**
 * The studio's part of a reader's own data (issue 32, docs/privacy.md): the series whose creator
 * the account is named as (series_creators, for the comments' "Creator" badge). The export lists
 * them; the account's deletion takes the account off them (the series stay).
 */
import type { DB, WriteTx } from '~/server/db';
import * as repo from './repository.server';

export const studioAccountData = {
  name: 'studio',
  async exportOf(db: DB, userId: number) {
    const rows = await repo.seriesCreatedBy(db, userId);
    return { creator_of_series: rows.map((r) => ({ series: r.e4pid, name: r.name })) };
  },
  async eraseFor(tx: WriteTx, userId: number): Promise<Record<string, number>> {
    return { series_creators: await repo.dropCreator(tx, userId) };
  },
};
