import { Button, PasswordInput, Stack, Text } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { PasswordFeedback } from "../../../components/password-feedback";
import { type FieldErrors, validateReset } from "../lib/validation";
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
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors<"code" | "password">>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    const { errors: found, blocked } = validateReset({ code, password, confirmPassword });
    setErrors(found);
    if (!blocked) onSubmit({ resetCode: code.trim(), password });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Choose a new password">
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
          value={code}
          onValueChange={(value) => {
            setCode(value);
            setErrors((current) => ({ ...current, code: undefined }));
          }}
          error={errors.code}
        />
        <PasswordInput
          label="New Password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
            setErrors((current) => ({ ...current, password: undefined }));
          }}
          error={errors.password}
        />
        <PasswordInput
          label="Confirm Password"
          autoComplete="new-password"
          value={confirmPassword}
          onChange={(event) => setConfirmPassword(event.currentTarget.value)}
        />
        <PasswordFeedback password={password} confirmation={confirmPassword} />
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
