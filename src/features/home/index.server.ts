/** The server door of the home feature: what pages and other features may use. */
export { default as FeaturedSlide } from './components/FeaturedSlide.astro';
export { default as GenreTile } from './components/GenreTile.astro';
export { default as HeroSlide } from './components/HeroSlide.astro';
export { default as HomeCard } from './components/HomeCard.astro';
export { type FeaturedSeries, type GenreTile as GenreTileData, type HomeSeries, type HomeTag, type SimulpubEntry, embeddedJson, loadHomeBlocks, reelFor } from './home.server';
