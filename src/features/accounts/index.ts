/** Accounts: what other features and islands may import (pure; server code is in *.server.ts). */
export { SESSION_COOKIE, IDLE_TIMEOUT, ABSOLUTE_LIFETIME, sessionCookieOptions } from './cookie';
export { PASSWORD_MIN, PASSWORD_MAX } from './validation';
export { pageUserData, type PageUserData } from './page-user-data';
