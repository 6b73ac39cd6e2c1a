import type { Site } from '~/lib/site';
import type { T } from '~/lib/i18n';
import type { OverlayConfig } from '~/features/search';
import { latin1Html, latin1Json } from '~/lib/html';

const bySite = new Map<number, { input: string; configJson: string }>();

/**
 * The header's search box and the search overlay's configuration, as markup. They depend only on
 * the site (its language and id), so they are built once per site: every page carries them.
 * Both are kept in Latin-1 (see src/lib/html.ts).
 */
export function headerSearchMarkup(site: Site, t: T): { input: string; configJson: string } {
  let markup = bySite.get(site.id);
  if (!markup) {
    // Translated strings for the search overlay island, which the header script loads on first open.
    const config: OverlayConfig = {
      site: site.id,
      locale: site.locale,
      messages: {
        dialogLabel: t('search.dialog.label'),
        inputLabel: t('header.search.label'),
        placeholder: t('header.search.placeholder'),
        submit: t('header.search.submit'),
        close: t('search.close'),
        languagesLabel: t('search.languages.label'),
        languageEn: t('search.languages.en'),
        languagePt: t('search.languages.pt'),
        suggestionsLabel: t('search.suggestions.label'),
        resultsOne: t('search.results.one', { count: '{count}' }),
        resultsOther: t('search.results.other', { count: '{count}' }),
        noResults: t('search.noResults'),
        error: t('search.error'),
        hint: t('search.hint'),
        otherSite: t('search.option.otherSite'),
      },
    };
    markup = {
      input: `<input id="header-q" name="q" type="search" placeholder="${latin1Html(t('header.search.placeholder'))}" autocomplete="off" maxlength="100">`,
      configJson: latin1Json(config),
    };
    bySite.set(site.id, markup);
  }
  return markup;
}
