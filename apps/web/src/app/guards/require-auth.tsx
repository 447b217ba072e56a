import { Navigate, Outlet, useLocation } from "react-router";
import { FullPageLoader } from "../../components/full-page-loader";
import { PATHS } from "../../lib/paths";
import { useSession } from "../../lib/session";

/** Routes behind it need a signed-in user; visitors go to /login (spec 000 §2). */
export function RequireAuth() {
  const { status } = useSession();
  const location = useLocation();
  if (status === "loading") return <FullPageLoader label="Checking your session…" />;
  if (status === "signed-out") return <Navigate to={PATHS.login} replace state={{ from: location }} />;
  return <Outlet />;
}

/** /login for someone already signed in leads to the console instead. */
export function RedirectIfSignedIn() {
  const { status } = useSession();
  if (status === "loading") return <FullPageLoader label="Checking your session…" />;
  if (status === "signed-in") return <Navigate to={PATHS.home} replace />;
  return <Outlet />;
}
