import { Paper, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconBuilding, IconFolder } from "@tabler/icons-react";
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

/** The organization pages' screen when the user has no organization to show (none made or joined). */
export function NoOrganizationSelected({
  children = "Create an organization from the picker in the top bar.",
}: {
  children?: ReactNode;
}) {
  return (
    <EmptyState icon={<IconBuilding size={24} aria-hidden />} title="No organization selected">
      {children}
    </EmptyState>
  );
}

/** The project pages' screen when the organization has no project to show. */
export function NoProjectSelected({
  children = "Create a project from the project picker in the top bar.",
  icon = <IconFolder size={24} aria-hidden />,
}: {
  children?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <EmptyState icon={icon} title="No project selected">
      {children}
    </EmptyState>
  );
}
