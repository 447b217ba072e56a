import { Group, Text } from "@mantine/core";
import { checkPassword } from "@prism/contract";
import { IconAlertCircle, IconCircleCheck } from "@tabler/icons-react";

/**
 * The live password check of the spec under a new-password field: the first broken rule, or
 * "Password is strong!", and nothing while the password is empty.
 */
export function PasswordFeedback({ password, confirmation }: { password: string; confirmation: string }) {
  const { ok, message } = checkPassword(password, confirmation);
  return (
    <div aria-live="polite" data-testid="password-feedback">
      {message ? (
        <Group gap={6} wrap="nowrap" align="flex-start">
          {ok ? (
            <IconCircleCheck
              size={16}
              color="var(--mantine-color-teal-6)"
              aria-hidden
              style={{ flex: "none" }}
            />
          ) : (
            <IconAlertCircle
              size={16}
              color="var(--mantine-color-red-6)"
              aria-hidden
              style={{ flex: "none" }}
            />
          )}
          <Text size="xs" c={ok ? "teal.7" : "red.7"} fw={500} lh={1.35}>
            {message}
          </Text>
        </Group>
      ) : null}
    </div>
  );
}
