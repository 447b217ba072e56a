import type { Organization, Project, UserInfo } from "@prism/contract";
import { createContext, useContext } from "react";

export type SessionStatus = "loading" | "signed-in" | "signed-out";

export interface Session {
  status: SessionStatus;
  userInfo: UserInfo | null;
  selectedOrganization: Organization | null;
  selectedProject: Project | null;
  /** Selects an organization and its first project. Navigation is the caller's job. */
  selectOrganization: (organizationId: string) => void;
  selectProject: (projectId: string) => void;
  /** Replaces the signed-in user, e.g. after sign-in (null signs out locally, without the server). */
  setUserInfo: (userInfo: UserInfo | null) => void;
  /** Edits the cached user in place: a new balance, an added organization or project, ... */
  updateUserInfo: (update: (userInfo: UserInfo) => UserInfo) => void;
  /** Asks the server for the current user again (users/me) and stores the answer. */
  refreshUserInfo: () => Promise<UserInfo | null>;
  /** Logout: tells the server, clears user, selections and cached data, goes to /login. */
  logout: () => Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession must be used inside <SessionProvider>.");
  return session;
}

/** The signed-in user; only for components rendered behind the auth guard. */
export function useUserInfo(): UserInfo {
  const { userInfo } = useSession();
  if (!userInfo) throw new Error("useUserInfo needs a signed-in user (render it behind <RequireAuth>).");
  return userInfo;
}
