import { Alert, Anchor, Stack, Text, TextInput, type TextInputProps, Title } from "@mantine/core";
import { IconAlertCircle, IconInfoCircle, IconMail } from "@tabler/icons-react";
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

/** The failed request's message, announced to screen readers. */
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

interface TextFieldProps extends Omit<TextInputProps, "value" | "onChange"> {
  value: string;
  onValueChange: (value: string) => void;
}

/** The Email field of the sign-in, sign-up and recovery forms. */
export function EmailInput({ value, onValueChange, ...props }: TextFieldProps) {
  return (
    <TextInput
      label="Email"
      type="email"
      autoComplete="username"
      placeholder="you@company.com"
      leftSection={<IconMail size={16} aria-hidden />}
      value={value}
      onChange={(event) => onValueChange(event.currentTarget.value)}
      {...props}
    />
  );
}

/** The 6-digit code field of account activation and password recovery. */
export function VerificationCodeInput({ value, onValueChange, ...props }: TextFieldProps) {
  return (
    <TextInput
      label="Verification Code"
      inputMode="numeric"
      autoComplete="one-time-code"
      placeholder="123456"
      maxLength={32}
      value={value}
      onChange={(event) => onValueChange(event.currentTarget.value)}
      styles={{ input: { letterSpacing: "0.3em", fontFamily: "var(--mantine-font-family-monospace)" } }}
      data-autofocus
      {...props}
    />
  );
}
