/**
 * The web app manifest of one site: what a phone shows when the site is installed as an app
 * (the app box, /app/). Each site is its own app, in its own language, starting at its home.
 * Colours match the light theme's background and the brand colour of the theme-color meta.
 */
import type { Site } from './site';
import type { T } from './i18n';

export const APP_THEME_COLOR = '#d6304f';
const APP_BACKGROUND = '#f7f6f3';

export function appManifest(site: Site, t: T): Record<string, unknown> {
  return {
    id: '/',
    name: t('site.name'),
    short_name: t('site.name'),
    description: t('site.tagline'),
    lang: site.locale,
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    background_color: APP_BACKGROUND,
    theme_color: APP_THEME_COLOR,
    categories: ['books', 'entertainment'],
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
  };
}
