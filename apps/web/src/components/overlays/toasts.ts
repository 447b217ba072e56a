import type { NotificationData } from "@mantine/notifications";
import { useSyncExternalStore } from "react";

// Toasts go through here rather than `notifications.show`: the package (its store, container,
// transitions and scroll-bar handling) is loaded with the first toast, so the sign-in page opens
// without it (issue 16). DeferredNotifications mounts the container from then on.

let wanted = false;
const listeners = new Set<() => void>();

export function loadNotifications() {
  return import("@mantine/notifications");
}

/** Shows a toast (Mantine's `notifications.show`), loading the toast code the first time. */
export function showToast(data: NotificationData): void {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  void loadNotifications().then(({ notifications }) => notifications.show(data));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether any toast was shown yet: the container is mounted from the first one on. */
export function useToastsWanted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => wanted,
    () => wanted,
  );
}
