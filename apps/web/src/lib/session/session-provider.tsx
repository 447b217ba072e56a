import { SESSION_REFRESH_FAILED, SESSION_REFRESH_RETRY_MS, type UserInfo } from "@prism/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { showToast } from "../../components/overlays/toasts";
import { api, setUnauthorizedHandler } from "../api-client";
import { COOKIE, readCookie, writeCookie } from "../cookies";
import { PATHS } from "../paths";
import { ME_QUERY_KEY, meQueryOptions } from "./me-query";
import { type RequestedSelection, resolveSelection } from "./selection";
import { type Session, SessionContext } from "./session-context";

function readSelectionCookies(): RequestedSelection {
  return {
    organizationId: readCookie(COOKIE.selectedOrganizationId),
    projectId: readCookie(COOKIE.selectedProjectId),
  };
}

const isMeQuery = (queryKey: readonly unknown[]) =>
  queryKey.length === ME_QUERY_KEY.length && queryKey.every((part, index) => part === ME_QUERY_KEY[index]);

/**
 * Holds the signed-in user (the users/me query) and the selected organization and project. It must
 * render inside the router: logging out navigates to /login.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const me = useQuery(meQueryOptions);
  const userInfo = me.data ?? null;
  const [requested, setRequested] = useState<RequestedSelection>(readSelectionCookies);

  const { organization, project } = useMemo(
    () => resolveSelection(userInfo, requested),
    [userInfo, requested],
  );

  // The cookies follow the effective selection, so a stale or foreign id never survives a reload.
  // Nothing is written while signed out: the next user's organizations decide whether they still apply.
  useEffect(() => {
    if (!userInfo) return;
    writeCookie(COOKIE.selectedOrganizationId, organization?.id ?? null);
    writeCookie(COOKIE.selectedProjectId, project?.id ?? null);
  }, [userInfo, organization?.id, project?.id]);

  const setUserInfo = useCallback(
    (next: UserInfo | null) => {
      // Somebody else signing in on this page (the login form is open to a signed-in user after a
      // failed invitation check) must not see the previous user's cached lists.
      const current = queryClient.getQueryData<UserInfo | null>(ME_QUERY_KEY);
      if (current && next && current.id !== next.id) {
        queryClient.removeQueries({ predicate: (query) => !isMeQuery(query.queryKey) });
      }
      queryClient.setQueryData(ME_QUERY_KEY, next);
    },
    [queryClient],
  );

  const updateUserInfo = useCallback(
    (update: (current: UserInfo) => UserInfo) =>
      queryClient.setQueryData<UserInfo | null>(ME_QUERY_KEY, (current) =>
        current ? update(current) : current,
      ),
    [queryClient],
  );

  const refreshUserInfo = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY, exact: true });
    return queryClient.getQueryData<UserInfo | null>(ME_QUERY_KEY) ?? null;
  }, [queryClient]);

  // A null project resolves to the organization's first project, which also covers an organization
  // that was just created and is not in the cached user yet when this runs.
  const selectOrganization = useCallback(
    (organizationId: string) => setRequested({ organizationId, projectId: null }),
    [],
  );

  const organizationId = organization?.id ?? null;
  const selectProject = useCallback(
    (projectId: string) => setRequested({ organizationId, projectId }),
    [organizationId],
  );

  const loggingOut = useRef(false);
  const logout = useCallback(async () => {
    if (loggingOut.current) return;
    loggingOut.current = true;
    try {
      // Errors of users/logout are ignored; the local session ends either way.
      await api.users.logout({}).catch(() => undefined);
      // Everything cached belongs to the old user (payment info, auto recharge, lists): drop it all.
      queryClient.removeQueries({ predicate: (query) => !isMeQuery(query.queryKey) });
      queryClient.setQueryData(ME_QUERY_KEY, null);
      // The selection cookies stay: the next sign-in on this browser starts in the organization last
      // used, when it is among that user's organizations (else the first one).
      setRequested(readSelectionCookies());
      navigate(PATHS.login, { replace: true });
    } finally {
      loggingOut.current = false;
    }
  }, [navigate, queryClient]);

  // A 401 on any session call means the session ended on the server (expired, revoked, logged out
  // elsewhere): sign out here too. Only while signed in, so the start-up users/me check stays quiet.
  const signedIn = userInfo !== null;
  useEffect(
    () =>
      setUnauthorizedHandler(() => {
        if (signedIn) void logout();
      }),
    [signedIn, logout],
  );

  // A refresh that failed without a 401 kept the user: say so once per failure and try again later.
  const refreshFailedAt = me.isError && signedIn ? me.errorUpdatedAt : 0;
  const { refetch } = me;
  useEffect(() => {
    if (!refreshFailedAt) return;
    showToast({
      id: "session-refresh-failed",
      color: "red",
      title: SESSION_REFRESH_FAILED.title,
      message: SESSION_REFRESH_FAILED.message,
      autoClose: SESSION_REFRESH_RETRY_MS,
      withBorder: true,
    });
    const retry = setTimeout(() => void refetch(), SESSION_REFRESH_RETRY_MS);
    return () => clearTimeout(retry);
  }, [refreshFailedAt, refetch]);

  const status: Session["status"] = me.isPending ? "loading" : userInfo ? "signed-in" : "signed-out";

  const session = useMemo<Session>(
    () => ({
      status,
      userInfo,
      selectedOrganization: organization,
      selectedProject: project,
      selectOrganization,
      selectProject,
      setUserInfo,
      updateUserInfo,
      refreshUserInfo,
      logout,
    }),
    [
      status,
      userInfo,
      organization,
      project,
      selectOrganization,
      selectProject,
      setUserInfo,
      updateUserInfo,
      refreshUserInfo,
      logout,
    ],
  );

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
