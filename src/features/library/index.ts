/** The browser-safe door of the library feature: what pages and other features may use. */
export { favoriteAnchor, isSeriesRef } from './favorites';
export { initFavoriteForms } from './favorites.client';
export { initHistory } from './history.client';
export { HISTORY_PAGE_SIZE, HOME_SHELF_SIZE, parseProgressReport } from './progress';
export { createProgressReporter } from './progress.client';
