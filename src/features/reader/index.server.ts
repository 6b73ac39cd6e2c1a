/** The server door of the reader feature: what pages and other features may use. */
export { chapterPageResponse, loadReader, loadReaderByE4pid, manifestOf } from './reader.server';
export { signPage } from './signing.server';
export { readerWords } from './wording';
