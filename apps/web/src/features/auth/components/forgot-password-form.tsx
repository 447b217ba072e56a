import { Button, Stack, Text } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { validateForgotPassword } from "../lib/validation";
import { EmailInput, FormError, FormHeader, ModeLink } from "./auth-form-parts";

export function ForgotPasswordForm({
  email,
  onEmailChange,
  loading,
  error,
  onSubmit,
  onBack,
}: {
  email: string;
  onEmailChange: (email: string) => void;
  loading: boolean;
  error: string | null;
  onSubmit: (email: string) => void;
  onBack: () => void;
}) {
  const [emailError, setEmailError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    const found = validateForgotPassword(email);
    setEmailError(found);
    if (!found) onSubmit(email.trim());
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Recover your password">
      <Stack gap="md">
        <FormHeader
          title="Recover your password"
          subtitle="Enter your account's email and we will send you a code to choose a new password."
        />
        <FormError message={error} />
        <EmailInput
          value={email}
          onValueChange={(value) => {
            onEmailChange(value);
            setEmailError(undefined);
          }}
          error={emailError}
          data-autofocus
        />
        <Button type="submit" fullWidth size="md" loading={loading}>
          Reset Password
        </Button>
        <Text size="sm" ta="center">
          <ModeLink onClick={onBack} disabled={loading}>
            Back to Sign In
          </ModeLink>
        </Text>
      </Stack>
    </form>
  );
}
