/** The browser-safe door of the subscriptions feature: document rules, periods, the countdown. */
export { isValidCnpj, isValidCpf, maskTaxDocument, onlyDocChars, parseTaxDocument, type TaxDocument } from './documents';
export { countdownParts, type CountdownParts } from './countdown';
export { addMonths, planMonth, type Period } from './periods';
