import { Alert, Anchor, Stack, Text, Title } from "@mantine/core";
import { IconAlertCircle, IconInfoCircle } from "@tabler/icons-react";
import type { ReactNode } from "react";

export function FormHeader({ title, subtitle }: { title: string; subtitle?: ReactNode }) {
  return (
    <Stack gap={6} mb={4}>
      <Title order={2} fz={24} style={{ letterSpacing: "-0.01em" }}>
        {title}
      </Title>
      {subtitle ? (
        <Text c="dimmed" size="sm">
          {subtitle}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The failed request's message (spec 000 §8), announced to screen readers. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert" py="xs">
      {message}
    </Alert>
  );
}

export function FormNotice({ children }: { children: ReactNode }) {
  return (
    <Alert color="prism" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} py="xs">
      {children}
    </Alert>
  );
}

/** A mode switch that reads as a link ("Sign Up", "Back to Sign In"). */
export function ModeLink({
  children,
  onClick,
  disabled,
}: {
  children: ReactNode;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <Anchor component="button" type="button" size="sm" fw={500} onClick={onClick} disabled={disabled}>
      {children}
    </Anchor>
  );
}
