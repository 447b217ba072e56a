import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { Notifications } from "@mantine/notifications";
import type { Organization, UserInfo } from "@prism/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { HttpResponse, http, type JsonBodyType } from "msw";
import type { ReactNode } from "react";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { SessionProvider, useSession } from "../lib/session";
import { routeCalls, server } from "./msw";

/** An owner's organization as users/me sends it. */
export function ownedOrganization(overrides: Partial<Organization> = {}): Organization {
  return {
    id: "org-1",
    name: "Acme",
    balance: 0,
    projects: [{ id: "11111111-1111-4111-8111-111111111111", name: "Default", organizationId: "org-1" }],
    permissions: {
      owner: true,
      organization: {
        general: true,
        billing: true,
        payments: true,
        invoices: true,
        playground: true,
        audit: true,
      },
      members: { invite: true, edit: true, delete: true },
      apiKeys: { create: true, delete: true },
      projects: { all: true },
    },
    properties: { isNew: true },
    billingName: null,
    billingEmail: null,
    taxId: null,
    address: null,
    city: null,
    state: null,
    zipCode: null,
    country: null,
    ...overrides,
  };
}

export function userWith(organization: Organization): UserInfo {
  return {
    id: "u1",
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    creationDate: "2026-01-01T00:00:00.000Z",
    organizations: [organization],
  };
}

export type Answer = (body: Record<string, unknown>) => { status?: number; body: unknown };

/**
 * Answers the console's JSON calls, one answer per call path; `bodiesTo(path)` lists what the page
 * sent there. Unanswered paths fail with 500, so a test notices a call it did not expect.
 */
export function stubApi(answers: Record<string, Answer>) {
  const { sent, bodiesTo } = routeCalls(({ path, body }) => {
    const answer = answers[path];
    if (!answer) {
      return HttpResponse.json({ error: "internal-error", message: `unexpected ${path}` }, { status: 500 });
    }
    const { status = 200, body: response } = answer(body);
    return HttpResponse.json(response as JsonBodyType, { status });
  });
  return { sent, bodiesTo };
}

/** One multipart feature call as the test's handler saw it. */
export interface SentFeatureCall {
  headers: Headers;
  body: FormData;
}

/**
 * Answers the multipart calls to a feature's endpoint with `answer` (a Response, or a promise of one
 * the test settles when it wants); the returned list fills with the calls as they arrive.
 */
export function stubFeature(
  endpoint: string,
  answer: (call: SentFeatureCall, index: number) => Response | Promise<Response>,
): SentFeatureCall[] {
  const calls: SentFeatureCall[] = [];
  server.use(
    http.post(endpoint, async ({ request }) => {
      const call = { headers: request.headers, body: await request.formData() };
      calls.push(call);
      return answer(call, calls.length - 1);
    }),
  );
  return calls;
}

function Balance() {
  const { selectedOrganization } = useSession();
  return <p data-testid="session-balance">{selectedOrganization?.balance ?? "none"}</p>;
}

/**
 * Renders `page` at `path` inside the session, modals and toasts, as the shell would; `state` is the
 * navigation state the page arrives with.
 */
export function renderWithSession(page: ReactNode, path = "/page", state?: unknown) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <SessionProvider>
            <ModalsProvider>
              <Balance />
              <Outlet />
            </ModalsProvider>
          </SessionProvider>
        ),
        children: [{ path: path.split("?")[0], element: page }],
      },
    ],
    { initialEntries: [state === undefined ? path : { pathname: path.split("?")[0], state }] },
  );
  render(
    <MantineProvider>
      <Notifications />
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}
