import { CONSOLE_HOME_PATH, INVOICES_PAGE_PATH } from "@prism/contract";

/** Every console route. Playground routes come from the feature catalog. */
export const PATHS = {
  root: "/",
  home: CONSOLE_HOME_PATH,
  homeRequests: "/home/requests",
  login: "/login",
  githubCallback: "/login-github-callback",
  terms: "/terms",
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
