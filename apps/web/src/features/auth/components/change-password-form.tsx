import { Button, PasswordInput, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { PasswordFeedback } from "../../../components/password-feedback";
import { type ResetValues, validateReset } from "../lib/validation";
import { FormError, FormHeader, ModeLink, VerificationCodeInput } from "./auth-form-parts";

/** The change-password-confirm mode: the mailed reset code and the new password. */
export function ChangePasswordForm({
  email,
  loading,
  error,
  onSubmit,
  onBack,
}: {
  email: string;
  loading: boolean;
  error: string | null;
  onSubmit: (values: { resetCode: string; password: string }) => void;
  onBack: () => void;
}) {
  // Errors show on submit; editing a field clears its own.
  const form = useForm<ResetValues>({
    initialValues: { code: "", password: "", confirmPassword: "" },
    validate: (values) => validateReset(values).errors,
  });
  const { values, errors } = form;

  const submit = form.onSubmit((submitted) => {
    // A failing password rule blocks without a message of its own: the live feedback names it.
    if (validateReset(submitted).blocked) return;
    onSubmit({ resetCode: submitted.code.trim(), password: submitted.password });
  });

  return (
    <form
      onSubmit={(event) => (loading ? event.preventDefault() : submit(event))}
      noValidate
      aria-label="Choose a new password"
    >
      <Stack gap="md">
        <FormHeader
          title="Choose a new password"
          subtitle={
            <>
              We sent a verification code to{" "}
              <Text span fw={600} c="dark">
                {email}
              </Text>
              .
            </>
          }
        />
        <FormError message={error} />
        <VerificationCodeInput
          value={values.code}
          onValueChange={(value) => form.setFieldValue("code", value)}
          error={errors.code}
        />
        <PasswordInput label="New Password" autoComplete="new-password" {...form.getInputProps("password")} />
        <PasswordInput
          label="Confirm Password"
          autoComplete="new-password"
          {...form.getInputProps("confirmPassword")}
        />
        <PasswordFeedback password={values.password} confirmation={values.confirmPassword} />
        <Button type="submit" fullWidth size="md" loading={loading}>
          Change Password
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
