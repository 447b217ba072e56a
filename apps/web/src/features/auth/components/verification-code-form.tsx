import { Button, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import {
  RESEND_CODE_COOLDOWN_SECONDS,
  RESEND_CODE_LABEL,
  resendCodeCooldownLabel,
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_RESENT,
} from "@prism/contract";
import { useEffect, useState } from "react";
import { validateVerificationCode } from "../lib/validation";
import { FormError, FormHeader, FormNotice, ModeLink, VerificationCodeInput } from "./auth-form-parts";

/**
 * Seconds left before "Resend code" may be used again; `restart()` starts a new wait. The first wait
 * starts with the step, because a code was mailed just before it opened.
 */
function useCooldown(seconds: number) {
  const [until, setUntil] = useState(() => Date.now() + seconds * 1000);
  const [now, setNow] = useState(() => Date.now());
  const remaining = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (remaining <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [remaining]);
  return {
    remaining,
    restart: () => {
      const start = Date.now();
      setNow(start);
      setUntil(start + seconds * 1000);
    },
  };
}

export function VerificationCodeForm({
  email,
  loading,
  error,
  onSubmit,
  onBack,
  onResend,
}: {
  email: string;
  loading: boolean;
  error: string | null;
  onSubmit: (verificationCode: string) => void;
  onBack: () => void;
  /**
   * Mails a fresh code; resolves whether it was sent (a refusal, such as the server's throttling, is
   * reported through `error`). Without it the step offers no resend.
   */
  onResend?: () => Promise<boolean>;
}) {
  // The code's error shows on submit; editing the code clears it.
  const form = useForm({
    initialValues: { code: "" },
    validate: ({ code }) => ({ code: validateVerificationCode(code) }),
  });
  const [resending, setResending] = useState(false);
  const [resent, setResent] = useState(false);
  const cooldown = useCooldown(RESEND_CODE_COOLDOWN_SECONDS);

  const submit = form.onSubmit(({ code }) => onSubmit(code.trim()));

  const resend = async () => {
    if (!onResend || cooldown.remaining > 0 || resending) return;
    setResending(true);
    setResent(false);
    try {
      setResent(await onResend());
    } finally {
      setResending(false);
      // Sent or refused (429), the next try waits: the server throttles per address anyway.
      cooldown.restart();
    }
  };

  return (
    <form
      onSubmit={(event) => (loading ? event.preventDefault() : submit(event))}
      noValidate
      aria-label="Verify your email"
    >
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
        {resent && !error ? <FormNotice>{VERIFICATION_CODE_RESENT}</FormNotice> : null}
        <VerificationCodeInput
          value={form.values.code}
          onValueChange={(value) => form.setFieldValue("code", value)}
          error={form.errors.code}
        />
        <Button type="submit" fullWidth size="md" loading={loading}>
          Verify
        </Button>
        {onResend ? (
          <Button
            variant="subtle"
            fullWidth
            onClick={() => void resend()}
            loading={resending}
            disabled={loading || cooldown.remaining > 0}
          >
            {cooldown.remaining > 0 ? resendCodeCooldownLabel(cooldown.remaining) : RESEND_CODE_LABEL}
          </Button>
        ) : null}
        <Text size="sm" ta="center">
          <ModeLink onClick={onBack} disabled={loading}>
            Go Back
          </ModeLink>
        </Text>
      </Stack>
    </form>
  );
}
