import { Navigate, Outlet } from "react-router";
import type { PermissionPath } from "../../lib/permissions";
import { useCan } from "../../lib/permissions";

/** Pages needing a right in the selected organization send others elsewhere (playground → /home). */
export function RequirePermission({
  permission,
  redirectTo,
}: {
  permission: PermissionPath;
  redirectTo: string;
}) {
  const allowed = useCan(permission);
  if (!allowed) return <Navigate to={redirectTo} replace />;
  return <Outlet />;
}
