/**
 * Catalogue messages for tests, formatted exactly as the app formats them (ICU MessageFormat),
 * so tests follow i18n/*.json instead of hard-coding text. Shared by the integration and the
 * end-to-end suites.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';

export type TestLocale = 'en' | 'pt-BR';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const catalogues = new Map<TestLocale, Record<string, string>>();

export function message(locale: TestLocale, key: string, values?: Record<string, string | number>): string {
  let cat = catalogues.get(locale);
  if (!cat) {
    cat = JSON.parse(fs.readFileSync(path.join(ROOT, 'i18n', `${locale}.json`), 'utf8')) as Record<string, string>;
    catalogues.set(locale, cat);
  }
  const source = cat[key];
  if (typeof source !== 'string') throw new Error(`i18n/${locale}.json has no key "${key}"`);
  return String(new IntlMessageFormat(source, locale).format(values));
}
