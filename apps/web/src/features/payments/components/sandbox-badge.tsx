import { Badge, type MantineBreakpoint, Tooltip } from "@mantine/core";
import { IconFlask } from "@tabler/icons-react";
import { usePublicConfig } from "../../../lib/env";

export const SANDBOX_LABEL = "Sandbox: no real charges";

/** Whether this deployment takes payments with the sandbox provider (no card is ever charged). */
export function useIsSandboxPayments(): boolean {
  return usePublicConfig()?.payments.provider === "sandbox";
}

/** The clear marker every payment surface shows while the sandbox provider is configured. */
export function SandboxBadge({
  size = "lg",
  visibleFrom,
  hiddenFrom,
}: {
  size?: "sm" | "md" | "lg";
  visibleFrom?: MantineBreakpoint;
  hiddenFrom?: MantineBreakpoint;
}) {
  const isSandbox = useIsSandboxPayments();
  if (!isSandbox) return null;
  return (
    <Tooltip
      label="This deployment uses the sandbox payment provider: cards are checked but never charged, and recharges credit test money."
      multiline
      w={280}
      withArrow
    >
      <Badge
        size={size}
        color="orange"
        variant="light"
        radius="sm"
        visibleFrom={visibleFrom}
        hiddenFrom={hiddenFrom}
        leftSection={<IconFlask size={14} aria-hidden />}
        styles={{
          root: { textTransform: "none", fontWeight: 600, flexShrink: 0, overflow: "visible" },
          label: { overflow: "visible" },
        }}
      >
        {SANDBOX_LABEL}
      </Badge>
    </Tooltip>
  );
}
