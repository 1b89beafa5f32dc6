/** The account dashboard's services: sign-in rules, sessions, throttling, two-factor, mail. */
export { createDashboardAccounts, type DashboardAccounts, SIGN_IN_FAILED } from './dashboard-accounts.js';
export { createMailer, type Mailer } from './mail.js';
export { PASSWORD_LENGTH } from './passwords.js';
export { type ClientInfo, createSessionService, type LiveSession, type SessionService } from './sessions.js';
export { createSignInThrottle, SIGN_IN_LIMITS } from './sign-in-throttle.js';
