import { Alert, Stack, Text, Title } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { AuthLayout } from "./auth-layout";

export function LoginPage() {
  return (
    <AuthLayout>
      <title>Welcome · Prism Console</title>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz={24}>
            Welcome!
          </Title>
          <Text c="dimmed" size="sm">
            Sign in to manage your organizations, projects and API keys.
          </Text>
        </Stack>
        <Alert
          variant="light"
          color="prism"
          icon={<IconInfoCircle aria-hidden />}
          title="Sign-in is coming soon"
        >
          The sign-in, sign-up and password recovery forms arrive with the accounts work. Until then there is
          no way to sign in from this page.
        </Alert>
      </Stack>
    </AuthLayout>
  );
}
