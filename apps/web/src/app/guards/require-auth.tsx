import { useEffect, useRef } from "react";
import { Navigate, Outlet, useLocation, useSearchParams } from "react-router";
import { FullPageLoader } from "../../components/full-page-loader";
import { PATHS } from "../../lib/paths";
import {
  forgetReturnPath,
  INVITATION_PARAM,
  isSignInAgain,
  postLoginPath,
  rememberReturnPath,
  storeInvitationFromSearch,
} from "../../lib/post-login";
import { useSession } from "../../lib/session";

/**
 * Routes behind it need a signed-in user; visitors go to /login. A visitor who arrives
 * signed out has the page they asked for remembered, so signing in returns there; a session that ends
 * here (logout, a 401) does not, and the next sign-in starts at home. Writing it during render is safe:
 * it is idempotent and must precede the redirect.
 */
export function RequireAuth() {
  const { status } = useSession();
  const location = useLocation();
  const signedIn = status === "signed-in";
  const wasSignedIn = useRef(false);
  if (signedIn) wasSignedIn.current = true;
  useEffect(() => {
    if (signedIn) forgetReturnPath();
  }, [signedIn]);
  if (status === "loading") return <FullPageLoader label="Checking your session…" />;
  if (status === "signed-out") {
    if (!wasSignedIn.current) rememberReturnPath(location);
    // An invitation link opened while signed out keeps its parameter on /login, which stores it
    // so the invitation waits through sign-in or sign-up.
    const invitationId = new URLSearchParams(location.search).get(INVITATION_PARAM);
    const search = invitationId ? `?${new URLSearchParams({ [INVITATION_PARAM]: invitationId })}` : "";
    return <Navigate to={{ pathname: PATHS.login, search }} replace />;
  }
  return <Outlet />;
}

/**
 * /login for someone already signed in leads to the console instead: the members page while an
 * invitation waits, else the page asked for, else home; unless the console itself sent them here to
 * sign in again. The invitation link is stored first, whoever opens it; writing the
 * cookie during render is safe because it is idempotent and must precede the redirect.
 */
export function RedirectIfSignedIn() {
  const { status } = useSession();
  const location = useLocation();
  const [search] = useSearchParams();
  storeInvitationFromSearch(search);
  if (status === "loading") return <FullPageLoader label="Checking your session…" />;
  if (status === "signed-in" && !isSignInAgain(location.state)) {
    return <Navigate to={postLoginPath()} replace />;
  }
  return <Outlet />;
}
