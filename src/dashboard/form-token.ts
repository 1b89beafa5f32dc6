/** The CSRF tokens of forms: random, compared in constant time. */
export { newToken as newFormToken, sameSecret as sameToken } from '../dashboard-accounts/secrets.js';
