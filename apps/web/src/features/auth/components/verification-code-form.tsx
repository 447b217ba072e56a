import { Button, Stack, Text } from "@mantine/core";
import { VERIFICATION_CODE_LENGTH } from "@prism/contract";
import { type FormEvent, useState } from "react";
import { validateVerificationCode } from "../lib/validation";
import { FormError, FormHeader, ModeLink, VerificationCodeInput } from "./auth-form-parts";

export function VerificationCodeForm({
  email,
  loading,
  error,
  onSubmit,
  onBack,
}: {
  email: string;
  loading: boolean;
  error: string | null;
  onSubmit: (verificationCode: string) => void;
  onBack: () => void;
}) {
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    const found = validateVerificationCode(code);
    setCodeError(found);
    if (!found) onSubmit(code.trim());
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Verify your email">
      <Stack gap="md">
        <FormHeader
          title="Check your inbox"
          subtitle={
            <>
              We sent a {VERIFICATION_CODE_LENGTH}-digit verification code to{" "}
              <Text span fw={600} c="dark">
                {email}
              </Text>
              . Enter it below to activate your account.
            </>
          }
        />
        <FormError message={error} />
        <VerificationCodeInput
          value={code}
          onValueChange={(value) => {
            setCode(value);
            setCodeError(undefined);
          }}
          error={codeError}
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
