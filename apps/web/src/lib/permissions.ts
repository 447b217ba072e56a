import { hasPermission, type Organization, type PermissionPath } from "@prism/contract";
import { useSession } from "./session";

export { hasPermission, type PermissionPath };

/** No organization (or no permissions) means no right; the owner flag grants all. */
export function canInOrganization(
  organization: Organization | null | undefined,
  path: PermissionPath,
): boolean {
  return hasPermission(organization?.permissions ?? null, path);
}

/** Whether the user holds `path` in the selected organization: `useCan("organization.payments")`. */
export function useCan(path: PermissionPath): boolean {
  const { selectedOrganization } = useSession();
  return canInOrganization(selectedOrganization, path);
}
