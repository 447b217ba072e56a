import { INVITATION_COOKIE } from "@prism/contract";

/** Names of the cookies the console keeps. */
export const COOKIE = {
  selectedOrganizationId: "selectedOrganizationId",
  selectedProjectId: "selectedProjectId",
  invitationId: INVITATION_COOKIE,
  rememberMe: "rememberMe",
} as const;

export type CookieName = (typeof COOKIE)[keyof typeof COOKIE];

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export function readCookie(name: CookieName): string | null {
  const prefix = `${name}=`;
  for (const part of document.cookie.split(";")) {
    const entry = part.trim();
    if (entry.startsWith(prefix)) return decodeURIComponent(entry.slice(prefix.length));
  }
  return null;
}

export function writeCookie(name: CookieName, value: string | null): void {
  if (value === null) {
    // biome-ignore lint/suspicious/noDocumentCookie: the selection cookies are plain client preferences.
    document.cookie = `${name}=; Max-Age=0; Path=/; SameSite=Lax`;
    return;
  }
  // biome-ignore lint/suspicious/noDocumentCookie: the selection cookies are plain client preferences.
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${ONE_YEAR_SECONDS}; Path=/; SameSite=Lax`;
}
