import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { FullPageLoader } from "../components/full-page-loader";
import { PATHS } from "../lib/paths";
import { RedirectIfSignedIn, RequireAuth } from "./guards/require-auth";
import { RequirePermission } from "./guards/require-permission";
import { RootLayout } from "./providers";

// Every page is its own chunk, fetched when its route is first visited (React Router's `lazy`).
// The route table: every page of the console and the playground, with its guard.

// One route for every playground screen: the page picks the feature's screen by path (and answers an
// unknown one with Not Found), so the route table needs no feature catalog and the sign-in page does
// not download it (issue 16).
const playgroundRoutes: RouteObject[] = [
  {
    path: `${PATHS.playground}/:feature`,
    lazy: async () => ({
      Component: (await import("../features/playground/components/playground-page")).PlaygroundPage,
    }),
  },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      { path: PATHS.root, element: <Navigate to={PATHS.home} replace /> },
      {
        element: <RedirectIfSignedIn />,
        children: [
          {
            path: PATHS.login,
            lazy: async () => ({
              Component: (await import("../features/auth/components/login-page")).LoginPage,
            }),
          },
        ],
      },
      {
        path: PATHS.githubCallback,
        lazy: async () => ({
          Component: (await import("../features/auth/components/github-callback-page")).GithubCallbackPage,
        }),
      },
      {
        path: PATHS.removePasskey,
        lazy: async () => ({
          Component: (await import("../features/auth/components/remove-passkey-page")).RemovePasskeyPage,
        }),
      },
      {
        path: PATHS.terms,
        lazy: async () => ({
          Component: (await import("../features/auth/components/terms-page")).TermsPage,
        }),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: async () => ({ Component: (await import("./shell/app-shell-layout")).AppShellLayout }),
            children: [
              {
                path: PATHS.home,
                lazy: async () => ({
                  Component: (await import("../features/home/components/home-page")).HomePage,
                }),
              },
              {
                path: PATHS.homeRequests,
                lazy: async () => ({
                  Component: (await import("../features/home/components/requests-page")).RequestsPage,
                }),
              },
              {
                path: PATHS.organizationGeneral,
                lazy: async () => ({
                  Component: (await import("../features/organization/components/organization-general-page"))
                    .OrganizationGeneralPage,
                }),
              },
              {
                path: PATHS.organizationMembers,
                lazy: async () => ({
                  Component: (await import("../features/organization/components/members-page")).MembersPage,
                }),
              },
              {
                path: PATHS.organizationPayments,
                lazy: async () => ({
                  Component: (await import("../features/payments/components/payments-page")).PaymentsPage,
                }),
              },
              {
                path: PATHS.organizationBilling,
                lazy: async () => ({
                  Component: (await import("../features/billing/components/billing-page")).BillingPage,
                }),
              },
              {
                path: PATHS.organizationInvoices,
                lazy: async () => ({
                  Component: (await import("../features/invoices/components/invoices-page")).InvoicesPage,
                }),
              },
              {
                path: PATHS.organizationWebhooks,
                lazy: async () => ({
                  Component: (await import("../features/webhooks/components/webhooks-page")).WebhooksPage,
                }),
              },
              {
                path: PATHS.organizationAuditLog,
                lazy: async () => ({
                  Component: (await import("../features/organization/components/audit-log-page"))
                    .AuditLogPage,
                }),
              },
              {
                path: PATHS.organizationSecurity,
                lazy: async () => ({
                  Component: (await import("../features/organization/components/security-page")).SecurityPage,
                }),
              },
              {
                path: PATHS.projectsGeneral,
                lazy: async () => ({
                  Component: (await import("../features/projects/components/project-general-page"))
                    .ProjectGeneralPage,
                }),
              },
              {
                path: PATHS.projectsApiKeys,
                lazy: async () => ({
                  Component: (await import("../features/projects/components/api-keys-page")).ApiKeysPage,
                }),
              },
              {
                // Without organization.playground the playground pages lead to /home.
                element: <RequirePermission permission="organization.playground" redirectTo={PATHS.home} />,
                children: playgroundRoutes,
              },
              {
                path: PATHS.settingsProfile,
                lazy: async () => ({
                  Component: (await import("../features/settings/components/profile-page")).ProfilePage,
                }),
              },
            ],
          },
        ],
      },
      {
        path: "*",
        lazy: async () => ({ Component: (await import("../components/not-found-page")).NotFoundPage }),
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
