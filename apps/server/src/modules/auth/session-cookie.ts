/** The session cookie's name; its value is an opaque random token, stored only as a SHA-256 hash. */
export const SESSION_COOKIE = "prism_session";

/**
 * The sign-up attempt cookie: a random token naming this browser's sign-up, so a mailed code confirms
 * only the attempt (and the password) started in the browser that asked for it.
 */
export const SIGN_UP_COOKIE = "prism_sign_up";
