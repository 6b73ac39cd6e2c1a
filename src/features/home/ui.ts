/** The Astro components of the home feature, for pages (a door of their own, because Node tools and tests import index.server.ts, which must not pull in .astro files). */
export { default as FeaturedSlide } from './components/FeaturedSlide.astro';
export { default as GenreTile } from './components/GenreTile.astro';
export { default as HeroSlide } from './components/HeroSlide.astro';
export { default as HomeCard } from './components/HomeCard.astro';
