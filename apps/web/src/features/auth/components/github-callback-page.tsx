import { useEffect } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { FullPageLoader } from "../../../components/full-page-loader";
import { PATHS } from "../../../lib/paths";

/** Where the login page picks up a GitHub sign-in that came back through this route. */
export const PENDING_GITHUB_CODE_KEY = "pendingGithubSignInCode";

/**
 * Spec 000 §2: reads the `code` query parameter, keeps it as a pending GitHub sign-in attempt,
 * drops the query from the address bar and continues on /login, which completes the sign-in.
 */
export function GithubCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const code = params.get("code");

  useEffect(() => {
    if (code) sessionStorage.setItem(PENDING_GITHUB_CODE_KEY, code);
    navigate(PATHS.login, { replace: true });
  }, [code, navigate]);

  return <FullPageLoader label="Signing you in with GitHub…" />;
}
