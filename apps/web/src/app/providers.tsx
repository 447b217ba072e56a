import { type CSSVariablesResolver, MantineProvider } from "@mantine/core";
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

/** The text colour of each light variant the console draws (badges, alerts, light buttons). */
const LIGHT_VARIANT_TEXT: Record<string, string> = {
  prism: "var(--mantine-color-prism-9)",
  gray: "var(--mantine-color-gray-8)",
  red: "var(--mantine-color-red-9)",
  teal: "#06604a",
  blue: "var(--mantine-color-blue-9)",
  violet: "var(--mantine-color-violet-9)",
  orange: "#8f3a00",
  yellow: "#7a5200",
  green: "#1f6e2e",
};

/**
 * Secondary ("dimmed") text one shade darker than Mantine's gray 6, which reads 3.3:1 on white: gray 7
 * passes WCAG's 4.5:1 for small text (axe-core's color-contrast rule) and still reads as secondary; the
 * same for placeholders and the text of the light variants.
 */
const contrastResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    "--mantine-color-dimmed": "var(--mantine-color-gray-7)",
    "--mantine-color-placeholder": "var(--mantine-color-gray-7)",
    "--mantine-color-error": "var(--mantine-color-red-8)",
    // The text of light badges, alerts and buttons (shade 6 by default) on their pale backgrounds, at
    // 4.5:1 or more: the darkest shade, and for orange, yellow, green and teal a darker tone than 9.
    ...Object.fromEntries(
      Object.entries(LIGHT_VARIANT_TEXT).map(([color, value]) => [
        `--mantine-color-${color}-light-color`,
        value,
      ]),
    ),
  },
  dark: {},
});

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    // The deployment's public settings (environment, sign-in providers, bot check) load with the app.
    void client.prefetchQuery(publicConfigQueryOptions);
    return client;
  });
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      forceColorScheme="light"
      cssVariablesResolver={contrastResolver}
    >
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
