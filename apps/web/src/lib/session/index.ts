export { ME_QUERY_KEY, meQueryOptions } from "./me-query";
export { type RequestedSelection, type ResolvedSelection, resolveSelection } from "./selection";
export { type Session, type SessionStatus, useSession, useUserInfo } from "./session-context";
export { SessionProvider } from "./session-provider";
