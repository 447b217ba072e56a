import { Group, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** A titled settings block: description on the left, fields on the right, actions at the bottom. */
export function SettingsCard({
  title,
  description,
  children,
  footer,
  tone = "default",
}: {
  title: string;
  description: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  tone?: "default" | "danger";
}) {
  return (
    <Paper
      withBorder
      component="section"
      aria-label={title}
      style={{
        overflow: "hidden",
        borderColor: tone === "danger" ? "var(--mantine-color-red-2)" : undefined,
      }}
    >
      <Stack gap="lg" p="xl">
        <Stack gap={4}>
          <Title order={3} fz="lg" c={tone === "danger" ? "red.8" : undefined}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        {children}
      </Stack>
      {footer ? (
        <Group
          justify="flex-end"
          gap="sm"
          px="xl"
          py="sm"
          style={{
            borderTop: `1px solid ${tone === "danger" ? "var(--mantine-color-red-1)" : "var(--prism-border)"}`,
            background: tone === "danger" ? "var(--mantine-color-red-0)" : "var(--mantine-color-gray-0)",
          }}
        >
          {footer}
        </Group>
      ) : null}
    </Paper>
  );
}
