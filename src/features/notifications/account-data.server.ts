/**
 * The notifications' part of a reader's own data (issue 32, docs/privacy.md): the inbox, the
 * preferences (as they apply, defaults included), push devices, quiet hours and the email digest
 * for the data export, and their deletion with the account, fan-out keys included.
 */
import { parseJsonObject } from '~/lib/json';
import type { DB, WriteTx } from '~/server/db';
import { loadPrefs } from './prefs.server';
import * as repo from './repository.server';

export const notificationsAccountData = {
  name: 'notifications',
  async exportOf(db: DB, userId: number) {
    const [items, prefs, delivery] = await Promise.all([repo.itemsForExport(db, userId), loadPrefs(db, userId), repo.deliveryForExport(db, userId)]);
    return {
      notifications: items.map((n) => ({
        category: n.category, kind: n.kind, site_id: n.site_id === null ? null : Number(n.site_id), chapter_count: Number(n.chapter_count),
        data: parseJsonObject(n.data), created_at: Number(n.created_at), updated_at: Number(n.updated_at), read_at: n.read_at === null ? null : Number(n.read_at),
      })),
      notification_preferences: prefs,
      push_devices: delivery.devices.map((d) => ({
        device: d.device, site_id: Number(d.site_id), time_zone: d.time_zone, created_at: Number(d.created_at), last_success_at: d.last_success_at === null ? null : Number(d.last_success_at),
      })),
      quiet_hours: delivery.quiet ? { enabled: Number(delivery.quiet.enabled) === 1, start_hour: Number(delivery.quiet.start_hour), end_hour: Number(delivery.quiet.end_hour) } : null,
      email_digest: delivery.digest ? { frequency: delivery.digest.frequency, site_id: Number(delivery.digest.site_id), last_digest_at: Number(delivery.digest.last_digest_at) } : null,
    };
  },
  eraseFor(tx: WriteTx, userId: number): Promise<Record<string, number>> {
    return repo.eraseNotificationsOf(tx, userId);
  },
};
