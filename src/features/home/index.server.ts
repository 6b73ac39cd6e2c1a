/** The server door of the home feature: what pages and other features may use. */
export { type FeaturedSeries, type GenreTile as GenreTileData, type HeroSeries, type HomeSeries, type HomeTag, type SimulpubEntry, embeddedJson, loadHomeBlocks, reelFor } from './home.server';
export { collectionPage, genresPage, newSeriesPage, topPage } from './browse.server';
