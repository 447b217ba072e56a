import { Group, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { documentTitle } from "../lib/env";

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    // The actions wrap under the title when both do not fit on one line (phones), never squeezed.
    <Group justify="space-between" align="flex-end" mb="xl" gap="sm">
      <title>{documentTitle(title)}</title>
      <Stack gap={4} miw={0} style={{ flex: "1 1 16rem" }}>
        <Title order={2} fz={26}>
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        ) : null}
      </Stack>
      {/* At most the page's width: actions that do not fit on a phone wrap within it. */}
      {actions ? <Group style={{ flexShrink: 0, maxWidth: "100%" }}>{actions}</Group> : null}
    </Group>
  );
}
