import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { type UseFormReturnType, useForm } from "@mantine/form";
import {
  ACCOUNT_SECURITY_ERROR_DIALOGS,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODES_REGENERATED,
  REGENERATE_RECOVERY_CODES,
  REGENERATE_RECOVERY_CODES_CONFIRM,
  TOTP_DIGITS,
  TWO_FACTOR_CODE_LABEL,
  TWO_FACTOR_CODE_REQUIRED,
  TWO_FACTOR_DISABLED,
  TWO_FACTOR_ENABLED,
  TWO_FACTOR_ENDS_OTHER_SESSIONS,
  type TwoFactorStartResponse,
} from "@prism/contract";
import { IconShieldCheck } from "@tabler/icons-react";
import { useState } from "react";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { useTwoFactorStatus } from "../../../lib/account-security/get-two-factor-status";
import { isApiError } from "../../../lib/api-client";
import { useDisableTwoFactor } from "../api/disable-two-factor";
import { useEnableTwoFactor } from "../api/enable-two-factor";
import { useRegenerateRecoveryCodes } from "../api/regenerate-recovery-codes";
import { useStartTwoFactor } from "../api/start-two-factor";

type TwoFactorEnrolment = TwoFactorStartResponse;

/** A wrong code is the user's to correct in the form; anything else is the dialog's. */
function codeErrorOf(error: unknown): string | null {
  if (isApiError(error) && (error.code === "invalid-two-factor-code" || error.code === "rate-limited"))
    return error.message;
  return null;
}

interface CodeValues {
  code: string;
}
type CodeForm = UseFormReturnType<CodeValues>;

/** The code is checked on submit; editing it clears its message (the server's included). */
function useCodeForm(): CodeForm {
  return useForm<CodeValues>({
    initialValues: { code: "" },
    validate: { code: (code) => (code.trim() ? null : TWO_FACTOR_CODE_REQUIRED) },
  });
}

function CodeField({ form, description }: { form: CodeForm; description?: string }) {
  return (
    <TextInput
      label={TWO_FACTOR_CODE_LABEL}
      description={description}
      placeholder="123456"
      autoComplete="one-time-code"
      {...form.getInputProps("code")}
      maw={260}
    />
  );
}

function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const text = codes.join("\n");
  return (
    <Stack gap="md">
      <Alert color="yellow" variant="light" title="Save your recovery codes">
        Each code signs you in once if you lose your phone. They are shown only now: keep them somewhere safe,
        such as a password manager.
      </Alert>
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs" data-testid="recovery-codes">
        {codes.map((code) => (
          <Code key={code} fz="sm" ta="center" py={6}>
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? "Copied" : "Copy codes"}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>I have saved my codes</Button>
      </Group>
    </Stack>
  );
}

function Enrolment({
  enrolment,
  onCancel,
  onEnabled,
}: {
  enrolment: TwoFactorEnrolment;
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const enable = useEnableTwoFactor();
  const form = useCodeForm();

  const submit = form.onSubmit(({ code }) => {
    enable.mutate(
      { code },
      {
        onSuccess: (answer) => {
          notify(TWO_FACTOR_ENABLED);
          onEnabled(answer.recoveryCodes);
        },
        onError: (failure) => {
          const message = codeErrorOf(failure);
          if (message) form.setFieldError("code", message);
          else void showErrorDialog(ACCOUNT_SECURITY_ERROR_DIALOGS.enableTwoFactor, failure);
        },
      },
    );
  });

  return (
    <form
      onSubmit={(event) => (enable.isPending ? event.preventDefault() : submit(event))}
      noValidate
      aria-label="Enable two-factor authentication"
    >
      <Group align="flex-start" gap="xl">
        <Image
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrCodeSvg)}`}
          alt="QR code for your authenticator app"
          w={180}
          h={180}
          radius="sm"
          bd="1px solid var(--mantine-color-gray-3)"
        />
        <Stack gap="sm" style={{ flex: "1 1 16rem" }}>
          <Text size="sm">
            1. Scan the QR code with an authenticator app (Google Authenticator, 1Password, Authy…). Cannot
            scan? Enter this key instead:
          </Text>
          <Code fz="sm" data-testid="two-factor-secret" style={{ wordBreak: "break-all" }}>
            {enrolment.secret}
          </Code>
          <Text size="sm">{`2. Enter the ${TOTP_DIGITS}-digit code the app shows.`}</Text>
          <CodeField form={form} />
          <Text size="sm" c="dimmed" data-testid="two-factor-ends-sessions">
            {TWO_FACTOR_ENDS_OTHER_SESSIONS}
          </Text>
          <Group gap="sm">
            <Button type="submit" loading={enable.isPending}>
              Confirm
            </Button>
            <Button variant="default" onClick={onCancel} disabled={enable.isPending}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </Group>
    </form>
  );
}

function DisableForm({
  recoveryCodesLeft,
  onRegenerated,
}: {
  recoveryCodesLeft: number;
  onRegenerated: (codes: string[]) => void;
}) {
  const disable = useDisableTwoFactor();
  const regenerate = useRegenerateRecoveryCodes();
  const form = useCodeForm();

  const regenerateCodes = async () => {
    const confirmed = await openConfirmModal({
      title: REGENERATE_RECOVERY_CODES,
      message: <Text size="sm">{REGENERATE_RECOVERY_CODES_CONFIRM}</Text>,
    });
    if (!confirmed) return;
    regenerate.mutate(undefined, {
      onSuccess: ({ recoveryCodes }) => {
        notify(RECOVERY_CODES_REGENERATED);
        onRegenerated(recoveryCodes);
      },
      onError: (failure) =>
        void showErrorDialog(ACCOUNT_SECURITY_ERROR_DIALOGS.regenerateRecoveryCodes, failure),
    });
  };

  const submit = form.onSubmit(({ code }) => {
    disable.mutate(
      { code },
      {
        onSuccess: () => {
          form.reset();
          notify(TWO_FACTOR_DISABLED);
        },
        onError: (failure) => {
          const message = codeErrorOf(failure);
          if (message) form.setFieldError("code", message);
          else void showErrorDialog(ACCOUNT_SECURITY_ERROR_DIALOGS.disableTwoFactor, failure);
        },
      },
    );
  });

  return (
    <form
      onSubmit={(event) => (disable.isPending ? event.preventDefault() : submit(event))}
      noValidate
      aria-label="Disable two-factor authentication"
    >
      <Stack gap="md">
        <Group gap="xs" c="teal.7">
          <IconShieldCheck size={18} aria-hidden />
          <Text size="sm" fw={600}>
            Two-factor authentication is on.
          </Text>
          <Text size="sm" c="dimmed">
            {recoveryCodesLeft} of {RECOVERY_CODE_COUNT} recovery codes left.
          </Text>
          <Button variant="subtle" size="compact-sm" loading={regenerate.isPending} onClick={regenerateCodes}>
            {REGENERATE_RECOVERY_CODES}
          </Button>
        </Group>
        <Group align="flex-end" gap="sm">
          <CodeField form={form} description="To turn it off, enter a current code or a recovery code." />
          <Button type="submit" variant="light" color="red" loading={disable.isPending}>
            Disable
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Profile → Two-factor authentication: enrol with an authenticator app, or turn it off. */
export function TwoFactorSection() {
  const status = useTwoFactorStatus();
  const start = useStartTwoFactor();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  if (!status.data) {
    return status.isError ? (
      <Text size="sm" c="red.7">
        {ACCOUNT_SECURITY_ERROR_DIALOGS.enableTwoFactor.message}
      </Text>
    ) : (
      <Loader size="sm" />
    );
  }
  if (status.data.enabled)
    return <DisableForm recoveryCodesLeft={status.data.recoveryCodesLeft} onRegenerated={setRecoveryCodes} />;
  if (enrolment) {
    return (
      <Enrolment
        enrolment={enrolment}
        onCancel={() => setEnrolment(null)}
        onEnabled={(codes) => {
          setEnrolment(null);
          setRecoveryCodes(codes);
        }}
      />
    );
  }
  return (
    <Group justify="space-between" align="center">
      <Text size="sm" style={{ flex: "1 1 14rem" }}>
        Two-factor authentication is off. Turn it on to be asked for a code from your phone at each sign-in.
      </Text>
      <Button
        loading={start.isPending}
        style={{ flex: "none" }}
        onClick={() =>
          start.mutate(undefined, {
            onSuccess: setEnrolment,
            onError: (failure) =>
              void showErrorDialog(ACCOUNT_SECURITY_ERROR_DIALOGS.enableTwoFactor, failure),
          })
        }
      >
        Enable
      </Button>
    </Group>
  );
}
