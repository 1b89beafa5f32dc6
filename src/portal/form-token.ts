/** The CSRF tokens of forms: random, compared in constant time. */
export { newToken as newFormToken, sameSecret as sameToken } from '../accounts/secrets.js';
