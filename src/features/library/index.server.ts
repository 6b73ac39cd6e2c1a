/** The server door of the library feature: what pages and other features may use. */
export { favoritesListResponse } from './favorites-api.server';
export { favoritedAmong, finishLoginIntent, isFavorited, listFavorites, notifiedAmong, notifiedReaders, setFavorite, setNotify } from './favorites.server';
export { apiCaller, historyJson } from './history.server';
export { type HistoryEntry, loadHistory, progressForSeries, recordProgress } from './progress.server';
export { clampTtl, signAppToken, signProgressToken, verifyProgressToken } from './tokens.server';
export { libraryAccountData } from './account-data.server';
