import { Center, Loader, Stack, Text } from "@mantine/core";

/** Shown while the session is being checked or a route module is loading. */
export function FullPageLoader({ label = "Loading…" }: { label?: string }) {
  return (
    <Center h="100vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader type="dots" size="lg" />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

/** The in-content fallback while a lazily loaded page arrives (the shell stays on screen). */
export function PageLoader() {
  return (
    <Center py={120} role="status" aria-label="Loading page">
      <Loader type="dots" />
    </Center>
  );
}
