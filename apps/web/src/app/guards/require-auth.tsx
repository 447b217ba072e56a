import { Navigate, Outlet, useLocation, useSearchParams } from "react-router";
import { FullPageLoader } from "../../components/full-page-loader";
import { PATHS } from "../../lib/paths";
import { INVITATION_PARAM, postLoginPath, storeInvitationFromSearch } from "../../lib/post-login";
import { useSession } from "../../lib/session";

/** Routes behind it need a signed-in user; visitors go to /login (spec 000 §2). */
export function RequireAuth() {
  const { status } = useSession();
  const location = useLocation();
  if (status === "loading") return <FullPageLoader label="Checking your session…" />;
  if (status === "signed-out") {
    // An invitation link opened while signed out keeps its parameter on /login, which stores it
    // (spec 000 §2) so the invitation waits through sign-in or sign-up.
    const invitationId = new URLSearchParams(location.search).get(INVITATION_PARAM);
    const search = invitationId ? `?${new URLSearchParams({ [INVITATION_PARAM]: invitationId })}` : "";
    return <Navigate to={{ pathname: PATHS.login, search }} replace state={{ from: location }} />;
  }
  return <Outlet />;
}

/**
 * /login for someone already signed in leads to the console instead: the members page while an
 * invitation waits, else home. The invitation link is stored first, whoever opens it (spec 000 §2);
 * writing the cookie during render is safe because it is idempotent and must precede the redirect.
 */
export function RedirectIfSignedIn() {
  const { status } = useSession();
  const [search] = useSearchParams();
  storeInvitationFromSearch(search);
  if (status === "loading") return <FullPageLoader label="Checking your session…" />;
  if (status === "signed-in") return <Navigate to={postLoginPath()} replace />;
  return <Outlet />;
}
