import { useEffect, useRef } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { FullPageLoader } from "../../../components/full-page-loader";
import { PATHS } from "../../../lib/paths";
import { acceptGithubCallback } from "../lib/github";

/**
 * Reads the `code` query parameter, keeps it as a pending GitHub sign-in attempt,
 * drops the query from the address bar and continues on /login, which completes the sign-in.
 */
export function GithubCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const handled = useRef(false);

  useEffect(() => {
    // The state is single use: a second run (StrictMode) must not see it consumed and refuse.
    if (handled.current) return;
    handled.current = true;
    acceptGithubCallback(params);
    navigate(PATHS.login, { replace: true });
  }, [params, navigate]);

  return <FullPageLoader label="Signing you in with GitHub…" />;
}
