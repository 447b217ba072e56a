import { Button, Checkbox, Divider, Group, PasswordInput, Stack, Text } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { type FieldErrors, validateSignIn } from "../lib/validation";
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
  // The one form of the console not on @mantine/form: it is on the first page, and its 5.8 KB (brotli)
  // would take /login over its 150 KB budget (issue 16; bench/web.mjs). Two fields need no more than
  // React's state: errors show on submit, and editing a field clears its own.
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors<"email" | "password">>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validateSignIn({ email, password });
    setErrors(found);
    if (found.email || found.password) return;
    onSubmit({ email: email.trim(), password });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Sign in">
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
            setErrors((current) => ({ ...current, email: undefined }));
          }}
          error={errors.email}
          // "webauthn" lets the browser offer this site's passkeys in the field's autofill (conditional UI).
          autoComplete="username webauthn"
          data-autofocus
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          placeholder="Your password"
          leftSection={<IconLock size={16} aria-hidden />}
          value={password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
            setErrors((current) => ({ ...current, password: undefined }));
          }}
          error={errors.password}
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
