/**
 * The unlock dialog's embedded configuration (UnlockDialogConfig.astro) as page-ready JSON, built
 * once per language: it is the same on every signed-in page of a site (the bot check's settings
 * come from the configuration, fixed for the process).
 */
import { messageSources } from '~/lib/i18n';
import { latin1Json } from '~/lib/html';
import { appCheckSettings } from '~/server/app-check';
import type { Locale } from '~/lib/site';
import { AD_COMPLETE_ENDPOINT, AD_START_ENDPOINT, DAILY_PASS_ENDPOINT, PURCHASE_PATH, REDEEM_ENDPOINT, RENT_ENDPOINT } from '~/lib/paths';
import { DIALOG_MESSAGES, type DialogConfig } from './unlock-dialog';

const built = new Map<Locale, string>();

export function dialogConfigJson(locale: Locale): string {
  let json = built.get(locale);
  if (json === undefined) {
    const config: DialogConfig = {
      locale,
      messages: messageSources(locale, DIALOG_MESSAGES) as DialogConfig['messages'],
      purchase: PURCHASE_PATH,
      endpoints: { redeem: REDEEM_ENDPOINT, pass: DAILY_PASS_ENDPOINT, adStart: AD_START_ENDPOINT, adComplete: AD_COMPLETE_ENDPOINT, rent: RENT_ENDPOINT },
      appCheck: appCheckSettings(),
    };
    // Wider characters as \u escapes: the page stays a one-byte string (docs/performance.md).
    built.set(locale, (json = latin1Json(config)));
  }
  return json;
}
