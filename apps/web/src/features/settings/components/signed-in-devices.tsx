import { Badge, Button, Stack, Text } from "@mantine/core";
import {
  ACCOUNT_SECURITY_ERROR_DIALOGS,
  SESSION_SIGNED_OUT,
  SIGNED_IN_DEVICES_SECTION_TITLE,
  type SignedInDevice,
} from "@prism/contract";
import { useEffect, useRef } from "react";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { withLoading } from "../../../components/overlays/loading-store";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { type ResponsiveColumn, ResponsiveTable } from "../../../components/responsive-table";
import { formatDateTime } from "../../../lib/format";
import { useSessions } from "../api/get-sessions";
import { useRevokeSession } from "../api/revoke-session";

function deviceName(device: SignedInDevice): string {
  const parts = [device.browser, device.os].filter(Boolean);
  return parts.length > 0 ? parts.join(" on ") : "Unknown device";
}

/**
 * Profile → Signed-in devices: every live session of the account, the one in use marked, each other
 * one with its own "Sign out" (the spec's "Logout from All Sessions" ends them all at once).
 */
export function SignedInDevices() {
  const sessions = useSessions();
  const revoke = useRevokeSession();

  const reportedError = useRef<unknown>(null);
  useEffect(() => {
    if (!sessions.error || reportedError.current === sessions.error) return;
    reportedError.current = sessions.error;
    void showErrorDialog(ACCOUNT_SECURITY_ERROR_DIALOGS.retrieveSessions, sessions.error);
  }, [sessions.error]);

  const signOut = async (device: SignedInDevice) => {
    const confirmed = await openConfirmModal({
      title: "Sign Out Device",
      message: (
        <Text size="sm">
          Sign out <b>{deviceName(device)}</b>
          {device.ipAddress ? ` (${device.ipAddress})` : ""}? It will have to sign in again.
        </Text>
      ),
    });
    if (!confirmed) return;
    try {
      await withLoading(() => revoke.mutateAsync({ sessionId: device.id }));
      notify(SESSION_SIGNED_OUT);
    } catch (error) {
      void showErrorDialog(ACCOUNT_SECURITY_ERROR_DIALOGS.signOutSession, error);
    }
  };

  const columns: ResponsiveColumn<SignedInDevice>[] = [
    {
      key: "device",
      header: "Device",
      phone: "title",
      cell: (device) => (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {deviceName(device)}
          </Text>
          {device.current ? (
            <Badge size="xs" variant="light" color="teal" w="fit-content">
              This device
            </Badge>
          ) : null}
        </Stack>
      ),
    },
    {
      key: "ip",
      header: "IP Address",
      width: 150,
      cell: (device) => (
        <Text size="sm" ff="monospace">
          {device.ipAddress ?? "—"}
        </Text>
      ),
    },
    {
      key: "created",
      header: "Signed In",
      cell: (device) => <Text size="sm">{formatDateTime(device.createdAt)}</Text>,
    },
    {
      key: "lastSeen",
      header: "Last Seen",
      cell: (device) => <Text size="sm">{formatDateTime(device.lastSeenAt)}</Text>,
    },
    {
      key: "signOut",
      header: "",
      align: "right",
      phone: "footer",
      cell: (device) =>
        device.current ? null : (
          <Button size="xs" variant="light" color="red" onClick={() => void signOut(device)}>
            Sign out
          </Button>
        ),
    },
  ];

  return (
    <ResponsiveTable
      label={SIGNED_IN_DEVICES_SECTION_TITLE}
      columns={columns}
      rows={sessions.data}
      rowKey={(device) => device.id}
      rowProps={(device) => ({
        "data-testid": "device-row",
        "data-current": device.current ? "true" : undefined,
      })}
      minWidth={640}
    />
  );
}
