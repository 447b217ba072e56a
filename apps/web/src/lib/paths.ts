/** Every console route. Playground routes come from the feature catalog. */
export const PATHS = {
  root: "/",
  home: "/home",
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
  organizationInvoices: "/organization/invoices",
  organizationWebhooks: "/organization/webhooks",
  organizationAuditLog: "/organization/audit-log",
  organizationSecurity: "/organization/security",
  projectsGeneral: "/projects/general",
  projectsApiKeys: "/projects/api-keys",
  playground: "/playground",
  settingsProfile: "/settings/profile",
  docs: "/docs",
} as const;
