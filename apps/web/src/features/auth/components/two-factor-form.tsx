import { Button, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import {
  TWO_FACTOR_CODE_LABEL,
  TWO_FACTOR_CODE_REQUIRED,
  TWO_FACTOR_REQUIRED,
  TWO_FACTOR_SECTION_TITLE,
} from "@prism/contract";
import { FormError, FormHeader, ModeLink } from "./auth-form-parts";

/**
 * The sign-in's second step for an account with two-factor authentication: the password (or Google,
 * GitHub) was accepted, and the session is created once a code from the authenticator app, or one
 * of the recovery codes, is accepted.
 */
export function TwoFactorForm({
  loading,
  error,
  onSubmit,
  onBack,
}: {
  loading: boolean;
  error: string | null;
  onSubmit: (code: string) => void;
  onBack: () => void;
}) {
  // The code's error shows on submit; editing the code clears it.
  const form = useForm({
    initialValues: { code: "" },
    validate: ({ code }) => ({ code: code.trim() ? undefined : TWO_FACTOR_CODE_REQUIRED }),
  });
  const submit = form.onSubmit(({ code }) => onSubmit(code.trim()));

  return (
    <form
      onSubmit={(event) => (loading ? event.preventDefault() : submit(event))}
      noValidate
      aria-label={TWO_FACTOR_SECTION_TITLE}
    >
      <Stack gap="md">
        <FormHeader title={TWO_FACTOR_SECTION_TITLE} subtitle={TWO_FACTOR_REQUIRED} />
        <FormError message={error} />
        <TextInput
          label={TWO_FACTOR_CODE_LABEL}
          placeholder="123456"
          autoComplete="one-time-code"
          autoFocus
          size="md"
          {...form.getInputProps("code")}
        />
        <Button type="submit" fullWidth size="md" loading={loading}>
          Verify
        </Button>
        <Text size="sm" ta="center">
          <ModeLink onClick={onBack} disabled={loading}>
            Go Back
          </ModeLink>
        </Text>
      </Stack>
    </form>
  );
}
