import { Anchor, Center, Stack, Text, Title } from "@mantine/core";
import { NOT_FOUND_TITLE } from "@prism/contract";
import { Link } from "react-router";
import { documentTitle } from "../lib/env";
import { PATHS } from "../lib/paths";

/** Any path outside the route table: plain, outside the shell, no sign-in needed. */
export function NotFoundPage() {
  return (
    <Center mih="100vh" p="md">
      <title>{documentTitle(NOT_FOUND_TITLE)}</title>
      <Stack align="center" gap="sm" ta="center">
        <Text fz={64} fw={700} c="gray.6" lh={1}>
          404
        </Text>
        <Title order={1} fz={28}>
          {NOT_FOUND_TITLE}
        </Title>
        <Text c="dimmed">The page you are looking for does not exist or has moved.</Text>
        <Anchor component={Link} to={PATHS.home} fw={500}>
          Go to the home page
        </Anchor>
      </Stack>
    </Center>
  );
}
