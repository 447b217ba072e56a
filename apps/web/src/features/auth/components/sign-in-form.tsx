import { Button, Checkbox, Divider, Group, PasswordInput, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconLock } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { validateSignIn } from "../lib/validation";
import { EmailInput, FormError, FormHeader, ModeLink } from "./auth-form-parts";

export function SignInForm({
  email,
  onEmailChange,
  rememberMe,
  onRememberMeChange,
  loading,
  busy,
  error,
  providers,
  onSubmit,
  onSignUp,
  onRecoverPassword,
}: {
  email: string;
  onEmailChange: (email: string) => void;
  rememberMe: boolean;
  onRememberMeChange: (rememberMe: boolean) => void;
  /** The Login request is running. */
  loading: boolean;
  /** Any request of the screen is running (a provider sign-in too): the form waits. */
  busy: boolean;
  error: string | null;
  /** Google and GitHub buttons, when the deployment configures them. */
  providers: ReactNode;
  onSubmit: (values: { email: string; password: string }) => void;
  onSignUp: () => void;
  onRecoverPassword: () => void;
}) {
  // The e-mail stays with the login screen (it follows the user from step to step), so the form checks
  // it from the prop; the rules are the zod-free ones of the first page. Errors show on submit;
  // editing a field clears its own.
  const form = useForm({
    initialValues: { password: "" },
    validate: ({ password }) => validateSignIn({ email, password }),
  });
  const submit = form.onSubmit(({ password }) => onSubmit({ email: email.trim(), password }));

  return (
    <form
      onSubmit={(event) => (busy ? event.preventDefault() : submit(event))}
      noValidate
      aria-label="Sign in"
    >
      <Stack gap="md">
        <FormHeader
          title="Welcome!"
          subtitle="Sign in to manage your organizations, projects and API keys."
        />
        <FormError message={error} />
        <EmailInput
          value={email}
          onValueChange={(value) => {
            onEmailChange(value);
            form.clearFieldError("email");
          }}
          error={form.errors.email}
          // "webauthn" lets the browser offer this site's passkeys in the field's autofill (conditional UI).
          autoComplete="username webauthn"
          data-autofocus
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          placeholder="Your password"
          leftSection={<IconLock size={16} aria-hidden />}
          {...form.getInputProps("password")}
        />
        <Group justify="space-between" wrap="nowrap">
          <Checkbox
            label="Remember Me"
            checked={rememberMe}
            onChange={(event) => onRememberMeChange(event.currentTarget.checked)}
          />
          <ModeLink onClick={onRecoverPassword} disabled={busy}>
            Recover Password
          </ModeLink>
        </Group>
        <Button type="submit" fullWidth size="md" loading={loading} disabled={busy && !loading}>
          Login
        </Button>
        {providers ? (
          <>
            <Divider label="or continue with" labelPosition="center" />
            {providers}
          </>
        ) : null}
        <Text size="sm" ta="center" c="dimmed">
          Don't have an account?{" "}
          <ModeLink onClick={onSignUp} disabled={busy}>
            Sign Up
          </ModeLink>
        </Text>
      </Stack>
    </form>
  );
}
