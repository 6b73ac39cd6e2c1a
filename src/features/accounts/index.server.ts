/** The server door of the accounts feature: what pages and other features may use. */
export { confirmPassword, login, signup } from './auth.server';
export { clearSessionCookie, clientIp, resolveSession, setSessionCookie } from './middleware.server';
export { markRateLimited } from './request.server';
export { createSession, invalidateSession, invalidateUserSessions, isSessionAlive, liveSessionsOf, type LiveSession } from './sessions.server';
export { AccountInputError, accountEmails, accountIdsByEmail, changePassword, createUser, findUserByEmail, type SignedInReader } from './users.server';
export { changeCapability, changeCapabilityFromForm, listStaff } from './staff.server';
export { requestPasswordReset, resetPassword, resetTokenValid } from './recovery.server';
export { changeDisplayName, changeOwnPassword, ownSessions, signOutOthers, signOutSession, type OwnSession } from './account.server';
export { confirmEmailChange, emailChangeValid, requestEmailChange } from './email-change.server';
export { deleteAccount, exportAccountData } from './data.server';
