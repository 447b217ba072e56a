import { MantineProvider } from "@mantine/core";
import { NOTIFICATION_MS } from "@prism/contract";
import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Outlet, ScrollRestoration } from "react-router";
import { DeferredNotifications } from "../components/overlays/deferred-notifications";
import { GlobalLoadingOverlay } from "../components/overlays/global-loading-overlay";
import { publicConfigQueryOptions } from "../lib/env";
import { SessionProvider } from "../lib/session";
import { createQueryClient } from "./query-client";
import { theme } from "./theme";

/** Providers that need no router: theme, data cache, toasts. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    // The deployment's public settings (environment, sign-in providers, bot check) load with the app.
    void client.prefetchQuery(publicConfigQueryOptions);
    return client;
  });
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" forceColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <DeferredNotifications
          position="top-right"
          autoClose={NOTIFICATION_MS}
          transitionDuration={300}
          zIndex={2000}
        />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}

/**
 * The root route: the session lives inside the router because logging out navigates (the modals'
 * provider is the signed-in shell's, see AppShellLayout). The document is what scrolls (the shell's header and sidebar are fixed), so React
 * Router's scroll restoration applies as it is: a new page opens at the top, and back or forward
 * returns to where that history entry was left.
 */
export function RootLayout() {
  return (
    <SessionProvider>
      <Outlet />
      <GlobalLoadingOverlay />
      <ScrollRestoration />
    </SessionProvider>
  );
}
