import { Button, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
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
  // The e-mail is the login screen's (it follows the user from step to step): the form holds only its
  // error, shown on submit and cleared by editing.
  const form = useForm({
    initialValues: {},
    validate: () => ({ email: validateForgotPassword(email) }),
  });
  const submit = form.onSubmit(() => onSubmit(email.trim()));

  return (
    <form
      onSubmit={(event) => (loading ? event.preventDefault() : submit(event))}
      noValidate
      aria-label="Recover your password"
    >
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
            form.clearFieldError("email");
          }}
          error={form.errors.email}
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
