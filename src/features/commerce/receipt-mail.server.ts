/**
 * Receipts by email (issue 32, docs/payments.md "Receipts by email"): when an order is paid or
 * refunded and when a subscription charge is paid, refunded or fails, its reader is emailed in the
 * language of the site the money was paid on: the amount from minor units (formatMoney), what was
 * bought, the reference, the date, and a link to the receipt (or the subscription page for a
 * failed charge). Queued with enqueueEmail in the transaction that moves the payable
 * (payables.server.ts), so a move made once mails once, and a replayed confirmation, which moves
 * nothing, mails nothing. Receipts are transactional: sent whatever the reader's "money" email
 * preference says (docs/decisions.md, "Receipts by email").
 */
import { absoluteDate } from '~/lib/dates';
import { createT } from '~/lib/i18n';
import { formatMoney } from '~/lib/money';
import { NOTIFICATION_SETTINGS_PATH, receiptPath, subscriptionsPath } from '~/lib/paths';
import { SITES, type SiteId } from '~/lib/site';
import type { WriteTx } from '~/server/db';
import { enqueueEmail, renderEmail, siteOrigin } from '~/server/outbox';
import * as repo from './repository.server';

export type ReceiptMailEvent = 'PAYMENT_PAID' | 'PAYMENT_REFUNDED' | 'SUBSCRIPTION_PAID' | 'SUBSCRIPTION_FAILED';

/**
 * Queues the receipt of `event` for the order (`ord…`) or charge (`sub…`) `payableId`, in the
 * caller's transaction. `refunded`: the amount a refund gave back (a partial refund is less than
 * the payment).
 */
export async function queueReceiptEmail(trx: WriteTx, input: { payableId: string; event: ReceiptMailEvent; refunded?: { amount: number; currency: string }; now: number }): Promise<void> {
  const isCharge = input.payableId.startsWith('sub');
  const row = isCharge ? await repo.receiptMailCharge(trx, input.payableId) : await repo.receiptMailOrder(trx, input.payableId);
  if (!row) return;
  const site = SITES[(row.site_id === 3 ? 3 : 1) as SiteId];
  const t = createT(site.locale);
  const origin = siteOrigin(site.id);
  const paid = 'total' in row ? row.total : row.amount;
  const money = input.event === 'PAYMENT_REFUNDED' && input.refunded
    ? formatMoney(input.refunded.amount, input.refunded.currency, site.locale)
    : formatMoney(paid, row.currency, site.locale);
  const date = absoluteDate(input.now, site.locale, site.timeZone);
  const item = 'pack_code' in row
    ? `${t('receipts.item.pack', { name: row.pack_code })} (${t('receipts.item.keys', { keys: row.keys, xtra: row.xtra_keys })})`
    : t('mail.receipt.plan', { plan: row.plan_name, when: absoluteDate(row.period_start, site.locale, site.timeZone), date: absoluteDate(row.period_end, site.locale, site.timeZone) });
  const failed = input.event === 'SUBSCRIPTION_FAILED';
  const mail = renderEmail({
    siteName: t('site.name'),
    subject: t(`mail.receipt.subject.${input.event}`),
    paragraphs: [
      t('mail.reset.greeting', { name: row.display_name }),
      t(`mail.receipt.body.${input.event}`, { amount: money, date }),
      t('mail.receipt.item', { product: item }),
      t('mail.receipt.reference', { id: row.public_id }),
      ...(failed ? [t('mail.receipt.failedNext')] : []),
    ],
    action: failed
      ? { label: t('mail.receipt.subscription'), url: `${origin}${subscriptionsPath()}` }
      : { label: t('mail.receipt.action'), url: `${origin}${receiptPath(row.public_id)}` },
    footer: t('mail.footer.receipt'),
    footerLink: { label: t('mail.footer.settings'), url: `${origin}${NOTIFICATION_SETTINGS_PATH}` },
  });
  await enqueueEmail(trx, { to: row.email, ...mail, kind: `receipt.${input.event}` }, input.now);
}
