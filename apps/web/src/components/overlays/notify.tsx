import { NOTIFICATION_MS } from "@prism/contract";
import { IconCheck } from "@tabler/icons-react";
import { showToast } from "./toasts";

/** The success toast of the spec ("Changes have been saved!"): a check mark, gone after 3 seconds. */
export function notify(message: string, title?: string): void {
  showToast({
    title,
    message,
    color: "teal",
    icon: <IconCheck size={18} stroke={2.2} aria-hidden />,
    autoClose: NOTIFICATION_MS,
    withBorder: true,
  });
}
