import { CONSOLE_HOME_PATH, INVOICES_PAGE_PATH } from "@prism/contract";

/** Every console route. Playground routes come from the feature catalog. */
export const PATHS = {
  root: "/",
  home: CONSOLE_HOME_PATH,
  homeRequests: "/home/requests",
  login: "/login",
  githubCallback: "/login-github-callback",
  terms: "/terms",
  /**
   * The passkey-added mail's removal link (the contract's REMOVE_PASSKEY_LINK_PATH, which the server
   * writes into that mail; a test holds them equal). Spelled out so the sign-in page's bundle, which
   * carries this table, does not take in the contract's account-security module.
   */
  removePasskey: "/remove-passkey",
  organizationGeneral: "/organization/general",
  organizationMembers: "/organization/members",
  organizationPayments: "/organization/payments",
  organizationBilling: "/organization/billing",
  organizationInvoices: INVOICES_PAGE_PATH,
  organizationWebhooks: "/organization/webhooks",
  organizationAuditLog: "/organization/audit-log",
  organizationSecurity: "/organization/security",
  projectsGeneral: "/projects/general",
  projectsApiKeys: "/projects/api-keys",
  playground: "/playground",
  settingsProfile: "/settings/profile",
  docs: "/docs",
} as const;

/**
 * Navigation state that asks the Payments page to open the Add Payment Method dialog on arrival (the
 * welcome popup's and the first steps' "Add a card").
 */
export const ADD_CARD_STATE = { addCard: true } as const;

/** Whether a location's state carries ADD_CARD_STATE. */
export function asksToAddCard(state: unknown): boolean {
  return typeof state === "object" && state !== null && (state as { addCard?: unknown }).addCard === true;
}

/** The sample picture the console serves for a first API call (Home's first steps). */
export const SAMPLE_IMAGE_PATH = "/samples/cat.jpg";
