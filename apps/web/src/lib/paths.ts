/** Every console route. Playground routes come from the feature catalog. */
export const PATHS = {
  root: "/",
  home: "/home",
  login: "/login",
  githubCallback: "/login-github-callback",
  terms: "/terms",
  organizationGeneral: "/organization/general",
  organizationMembers: "/organization/members",
  organizationPayments: "/organization/payments",
  organizationBilling: "/organization/billing",
  organizationInvoices: "/organization/invoices",
  projectsGeneral: "/projects/general",
  projectsApiKeys: "/projects/api-keys",
  playground: "/playground",
  settingsProfile: "/settings/profile",
  docs: "/docs",
} as const;
