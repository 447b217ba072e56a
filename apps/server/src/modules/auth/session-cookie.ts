/** The session cookie's name; its value is an opaque random token, stored only as a SHA-256 hash. */
export const SESSION_COOKIE = "prism_session";
