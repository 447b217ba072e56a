import { Paper, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconHammer } from "@tabler/icons-react";
import { PageHeader } from "./page-header";

/**
 * The honest stand-in for a screen that is not built yet: its title and a plain statement, never
 * sample data that could be mistaken for the user's own.
 */
export function ComingSoon({ title, description }: { title: string; description?: string }) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <Paper withBorder p={48}>
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={48} radius="xl" variant="light" color="gray">
            <IconHammer size={24} aria-hidden />
          </ThemeIcon>
          <Text fw={600}>{title}</Text>
          <Text c="dimmed" size="sm">
            Coming soon — this screen is being built.
          </Text>
        </Stack>
      </Paper>
    </>
  );
}
