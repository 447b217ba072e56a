import {
  Alert,
  Button,
  Divider,
  Group,
  Loader,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { modals } from "@mantine/modals";
import {
  GENERIC_ERROR,
  REAUTHENTICATION_DIALOG,
  type ReauthenticationOptionsResponse,
  TWO_FACTOR_CODE_REQUIRED,
} from "@prism/contract";
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from "@simplewebauthn/browser";
import { IconKey } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, isApiError, setReauthenticationHandler } from "../../../lib/api-client";
import { isPasskeyPromptClosed } from "../../../lib/passkeys";

type TypedMethod = "password" | "code";

const MODAL_ID = "prism-reauthentication";
const closeDialog = () => modals.close(MODAL_ID);

/** A wrong password or code, or too many tries, is the user's to correct in the field. */
function fieldErrorOf(error: unknown): string | null {
  if (
    isApiError(error) &&
    (error.code === "invalid-password" ||
      error.code === "invalid-two-factor-code" ||
      error.code === "rate-limited" ||
      error.code === "invalid-input")
  )
    return error.message;
  return null;
}

function TypedProof({ method, onProved }: { method: TypedMethod; onProved: () => void }) {
  const [pending, setPending] = useState(false);
  const form = useForm({
    initialValues: { secret: "" },
    validate: {
      secret: (value) =>
        value.trim()
          ? null
          : method === "password"
            ? REAUTHENTICATION_DIALOG.passwordRequired
            : TWO_FACTOR_CODE_REQUIRED,
    },
  });

  const submit = form.onSubmit(async ({ secret }) => {
    setPending(true);
    try {
      await api.reauthentication.reauthenticate(
        method === "password" ? { method, password: secret } : { method, code: secret },
      );
      onProved();
    } catch (error) {
      form.setFieldError("secret", fieldErrorOf(error) ?? GENERIC_ERROR);
    } finally {
      setPending(false);
    }
  });

  return (
    <form onSubmit={(event) => (pending ? event.preventDefault() : submit(event))} noValidate>
      <Stack gap="md">
        {method === "password" ? (
          <PasswordInput
            label={REAUTHENTICATION_DIALOG.passwordLabel}
            autoComplete="current-password"
            data-autofocus
            {...form.getInputProps("secret")}
          />
        ) : (
          <TextInput
            label={REAUTHENTICATION_DIALOG.codeLabel}
            placeholder="123456"
            autoComplete="one-time-code"
            data-autofocus
            {...form.getInputProps("secret")}
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => closeDialog()} disabled={pending}>
            {REAUTHENTICATION_DIALOG.cancel}
          </Button>
          <Button type="submit" loading={pending}>
            {REAUTHENTICATION_DIALOG.confirm}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PasskeyProof({
  options,
  onProved,
}: {
  options: NonNullable<ReauthenticationOptionsResponse["passkeyOptions"]>;
  onProved: () => void;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const prove = async () => {
    setPending(true);
    setError(null);
    try {
      const response = await startAuthentication({
        optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      });
      await api.reauthentication.reauthenticate({ method: "passkey", response: { ...response } });
      onProved();
    } catch (failure) {
      if (!isPasskeyPromptClosed(failure)) setError(isApiError(failure) ? failure.message : GENERIC_ERROR);
    } finally {
      setPending(false);
    }
  };
  return (
    <Stack gap={6}>
      <Button
        variant="light"
        leftSection={<IconKey size={16} aria-hidden />}
        loading={pending}
        onClick={prove}
      >
        {REAUTHENTICATION_DIALOG.usePasskey}
      </Button>
      {error ? (
        <Text size="sm" c="red.7" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * The body of the "Confirm it's you" dialog: whichever proofs the account can give (its password, a
 * code from its authenticator app or a recovery code, one of its passkeys). Options are asked for
 * fresh each time: the passkey challenge in them is single use.
 */
function ReauthenticationBody({ onProved }: { onProved: () => void }) {
  const options = useQuery({
    queryKey: ["reauthentication-options"],
    queryFn: () => api.reauthentication.options({}),
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
  const typed: TypedMethod[] = options.data
    ? [
        ...(options.data.password ? (["password"] as const) : []),
        ...(options.data.authenticatorCode ? (["code"] as const) : []),
      ]
    : [];
  const [method, setMethod] = useState<TypedMethod | null>(null);
  const chosen = method ?? typed[0] ?? null;

  if (options.isError) {
    return (
      <Alert color="red" variant="light">
        {GENERIC_ERROR}
      </Alert>
    );
  }
  if (!options.data) return <Loader size="sm" />;
  const passkeyOptions = options.data.passkeyOptions;

  return (
    <Stack gap="md">
      <Text size="sm">{REAUTHENTICATION_DIALOG.description}</Text>
      {typed.length > 1 ? (
        <SegmentedControl
          value={chosen ?? "password"}
          onChange={(value) => setMethod(value as TypedMethod)}
          data={[
            { value: "password", label: "Password" },
            { value: "code", label: REAUTHENTICATION_DIALOG.codeLabel },
          ]}
          aria-label="How to confirm"
        />
      ) : null}
      {chosen ? <TypedProof key={chosen} method={chosen} onProved={onProved} /> : null}
      {chosen && passkeyOptions ? <Divider label="or" labelPosition="center" /> : null}
      {passkeyOptions ? <PasskeyProof options={passkeyOptions} onProved={onProved} /> : null}
      {!chosen && !passkeyOptions ? (
        <>
          <Text size="sm">{REAUTHENTICATION_DIALOG.noMethod}</Text>
          <Group justify="flex-end">
            <Button onClick={() => closeDialog()}>{REAUTHENTICATION_DIALOG.cancel}</Button>
          </Group>
        </>
      ) : null}
    </Stack>
  );
}

let openDialog: Promise<boolean> | null = null;

/**
 * Opens the dialog; resolves true once the session holds a fresh proof, false when it is closed.
 * Calls refused together (two sensitive calls at once) share one dialog.
 */
export function askForReauthentication(): Promise<boolean> {
  openDialog ??= new Promise<boolean>((resolve) => {
    let proved = false;
    modals.open({
      modalId: MODAL_ID,
      title: REAUTHENTICATION_DIALOG.title,
      centered: true,
      // Above the dialog that asked for the action (Mantine's modals stack at 200).
      zIndex: 300,
      onClose: () => {
        openDialog = null;
        resolve(proved);
      },
      children: (
        <ReauthenticationBody
          onProved={() => {
            proved = true;
            closeDialog();
          }}
        />
      ),
    });
  });
  return openDialog;
}

/** Registers the dialog as the api client's answer to `reauthentication-required` while mounted. */
export function useReauthenticationDialog(): void {
  useEffect(() => setReauthenticationHandler(askForReauthentication), []);
}
