import { Paper, Stack, Text, ThemeIcon } from "@mantine/core";
import type { ReactNode } from "react";

/** A centred message for a screen with nothing to show (no selection, no access, an empty list). */
export function EmptyState({
  icon,
  title,
  children,
  action,
  withBorder = true,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  withBorder?: boolean;
}) {
  return (
    <Paper withBorder={withBorder} p={48} bg={withBorder ? undefined : "transparent"}>
      <Stack align="center" gap="sm" ta="center" maw={460} mx="auto">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray">
          {icon}
        </ThemeIcon>
        <Text fw={600}>{title}</Text>
        {children ? (
          <Text c="dimmed" size="sm">
            {children}
          </Text>
        ) : null}
        {action}
      </Stack>
    </Paper>
  );
}
