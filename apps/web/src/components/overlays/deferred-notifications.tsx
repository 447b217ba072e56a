import type { NotificationsProps } from "@mantine/notifications";
import { lazy, Suspense } from "react";
import { loadNotifications, useToastsWanted } from "./toasts";

const Notifications = lazy(async () => ({ default: (await loadNotifications()).Notifications }));

/** Mantine's toast container, mounted with the first toast (see toasts.ts). */
export function DeferredNotifications(props: NotificationsProps) {
  if (!useToastsWanted()) return null;
  return (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  );
}
