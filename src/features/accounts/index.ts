/** The browser-safe door of the accounts feature: what pages, islands and other features may use. */
export { SESSION_COOKIE, serializeSessionCookie, sessionCookieOptions } from './cookie';
export { NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from './validation';
export { pageUserData, readPageUserData } from './page-user-data';
export { logoutPromptHtml } from './logout-prompt';
export { userAgentSummary } from './device';
