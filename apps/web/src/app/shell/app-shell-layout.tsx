import { AppShell } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { ModalsProvider } from "@mantine/modals";
import { Suspense } from "react";
import { Outlet } from "react-router";
import { PageLoader } from "../../components/full-page-loader";
import { useTwoFactorRequirement } from "../../components/two-factor-requirement";
import { useReauthenticationDialog } from "../../features/auth/components/reauthentication-dialog";
import classes from "./shell.module.css";
import { Sidebar } from "./sidebar";
import { MAIN_CONTENT_ID, SkipLink } from "./skip-link";
import { TopBar } from "./top-bar";
import { useWelcomePopup } from "./welcome-popup";

/**
 * The signed-in frame, with the provider of the promise dialogs (components/overlays/modals): only
 * signed-in pages open them, and Mantine's Modal with its scroll area and focus trap stays off the
 * sign-in page (issue 16).
 */
export function AppShellLayout() {
  return (
    <ModalsProvider>
      <ShellFrame />
    </ModalsProvider>
  );
}

/** Sidebar, top bar and the routed page. */
function ShellFrame() {
  const [navbarOpened, { toggle, close }] = useDisclosure(false);
  useWelcomePopup();
  // Sensitive calls refused for want of a recent sign-in proof ask for one here, then carry on.
  useReauthenticationDialog();
  const waitForSecondFactor = useTwoFactorRequirement();

  return (
    <AppShell
      layout="alt"
      // A phone's top bar has a second row for the organization and project pickers.
      header={{ height: { base: 108, sm: 64 } }}
      navbar={{ width: 264, breakpoint: "sm", collapsed: { mobile: !navbarOpened } }}
      padding={0}
    >
      <SkipLink />
      <AppShell.Header className={classes.header}>
        <TopBar navbarOpened={navbarOpened} onToggleNavbar={toggle} />
      </AppShell.Header>
      <AppShell.Navbar className={classes.navbar} aria-label="Sidebar">
        <Sidebar onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main className={classes.main}>
        <div className={classes.content} id={MAIN_CONTENT_ID} tabIndex={-1}>
          {waitForSecondFactor ? (
            <PageLoader />
          ) : (
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          )}
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
