/** The wallet's components for pages. */
export { default as UnlockDialogConfig } from './UnlockDialogConfig.astro';
