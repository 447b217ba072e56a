import { PATHS } from "../../lib/paths";
import type { PermissionPath } from "../../lib/permissions";

export interface NavItem {
  label: string;
  to: string;
}

export interface NavSection {
  key: "home" | "organization" | "projects" | "playground" | "settings";
  label: string;
  /** Routes under this prefix open the section's submenu. */
  basePath: string;
  /** A single link when absent; a collapsible submenu otherwise. */
  items?: NavItem[];
  to?: string;
}

export interface PlaygroundEntry {
  name: string;
  playgroundRoute: string;
  productionHidden: boolean;
}

export interface NavigationContext {
  can: (permission: PermissionPath) => boolean;
  isProduction: boolean;
  playground: readonly PlaygroundEntry[];
}

/**
 * The sidebar of the spec: General, Payments, Billing and Invoices each need their right, the
 * Playground needs organization.playground, Members and Projects are always shown; identity
 * inpainting (productionHidden) is listed only outside production.
 */
export function buildNavigation({ can, isProduction, playground }: NavigationContext): NavSection[] {
  const organizationItems: (NavItem & { permission?: PermissionPath })[] = [
    { label: "General", to: PATHS.organizationGeneral, permission: "organization.general" },
    { label: "Members", to: PATHS.organizationMembers },
    { label: "Payments", to: PATHS.organizationPayments, permission: "organization.payments" },
    { label: "Billing", to: PATHS.organizationBilling, permission: "organization.billing" },
    { label: "Invoices", to: PATHS.organizationInvoices, permission: "organization.invoices" },
    { label: "Webhooks", to: PATHS.organizationWebhooks, permission: "owner" },
    { label: "Audit log", to: PATHS.organizationAuditLog, permission: "organization.audit" },
    { label: "Security", to: PATHS.organizationSecurity, permission: "owner" },
  ];

  const sections: NavSection[] = [
    { key: "home", label: "Home", basePath: PATHS.home, to: PATHS.home },
    {
      key: "organization",
      label: "Organization",
      basePath: "/organization/",
      items: organizationItems
        .filter((item) => !item.permission || can(item.permission))
        .map(({ label, to }) => ({ label, to })),
    },
    {
      key: "projects",
      label: "Projects",
      basePath: "/projects/",
      items: [
        { label: "General", to: PATHS.projectsGeneral },
        { label: "API Keys", to: PATHS.projectsApiKeys },
      ],
    },
  ];

  if (can("organization.playground")) {
    sections.push({
      key: "playground",
      label: "Playground",
      basePath: `${PATHS.playground}/`,
      items: playground
        .filter((feature) => !(isProduction && feature.productionHidden))
        .map((feature) => ({ label: feature.name, to: feature.playgroundRoute })),
    });
  }

  sections.push({
    key: "settings",
    label: "Settings",
    basePath: "/settings/",
    items: [{ label: "Profile", to: PATHS.settingsProfile }],
  });
  return sections;
}

/** The section whose submenu holds the current route, opened on load. */
export function sectionForPath(sections: readonly NavSection[], pathname: string): NavSection["key"] | null {
  return (
    sections.find((section) => pathname === section.basePath || pathname.startsWith(section.basePath))?.key ??
    null
  );
}
