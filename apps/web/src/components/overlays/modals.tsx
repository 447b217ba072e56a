import { Button, Group, Stack, Text, TextInput, ThemeIcon, Typography } from "@mantine/core";
import { useForm } from "@mantine/form";
import { modals } from "@mantine/modals";
import { CONFIRM_DELETE_YES, CONFIRM_NO, CONFIRM_YES, NAME_REQUIRED } from "@prism/contract";
import { IconSparkles } from "@tabler/icons-react";
import type { FormEvent, ReactNode } from "react";
import { useNavigate } from "react-router";
import { productName } from "../../lib/env";
import { ADD_CARD_STATE, PATHS } from "../../lib/paths";
import type { DialogAction } from "./error-dialog";

// Promise-returning dialogs of the shell. Each settles exactly once, whichever
// way the modal closes (button, Escape, click outside), so callers can simply `await` the answer.

let nextModalId = 0;

function openSettled<T>(
  fallback: T,
  options: { title: string; size?: string },
  render: (answer: (value: T) => void) => ReactNode,
): Promise<T> {
  nextModalId += 1;
  const modalId = `prism-modal-${nextModalId}`;
  return new Promise<T>((resolve) => {
    let settled = false;
    const settle = (value: T) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    const answer = (value: T) => {
      settle(value);
      modals.close(modalId);
    };
    modals.open({
      modalId,
      title: options.title,
      size: options.size ?? "md",
      centered: true,
      onClose: () => settle(fallback),
      children: render(answer),
    });
  });
}

function InfoBody({
  html,
  action,
  onClose,
}: {
  html: string;
  action?: DialogAction | undefined;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  return (
    <Stack gap="lg">
      <Typography>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: only the app's own fixed message strings are passed here, never user or server text. */}
        <div className="prism-modal-html" dangerouslySetInnerHTML={{ __html: html }} />
      </Typography>
      <Group justify="flex-end" gap="sm">
        {action ? (
          <>
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button
              data-autofocus
              onClick={() => {
                onClose();
                navigate(action.to);
              }}
            >
              {action.label}
            </Button>
          </>
        ) : (
          <Button onClick={onClose} data-autofocus>
            Close
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/**
 * Title plus an HTML message and a Close button, with the dialog's way out (`action`) beside it when it
 * has one. `html` must be a trusted app string (from the contract's messages or this code base), never
 * text that came from a user or the server.
 */
export function openInfoModal({
  title,
  html,
  action,
}: {
  title: string;
  html: string;
  action?: DialogAction | undefined;
}): Promise<void> {
  return openSettled<void>(undefined, { title }, (answer) => (
    <InfoBody html={html} action={action} onClose={() => answer(undefined)} />
  ));
}

export interface ConfirmModalOptions {
  title: string;
  message: ReactNode;
  /** "delete" words the buttons "Yes, proceed" / "No" and colours the confirmation red. */
  variant?: "default" | "delete";
}

function ConfirmBody({
  message,
  variant,
  onAnswer,
}: {
  message: ReactNode;
  variant: "default" | "delete";
  onAnswer: (confirmed: boolean) => void;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAnswer(true);
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="lg">
        {typeof message === "string" ? <Text size="sm">{message}</Text> : message}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => onAnswer(false)}>
            {CONFIRM_NO}
          </Button>
          <Button type="submit" color={variant === "delete" ? "red" : undefined} data-autofocus>
            {variant === "delete" ? CONFIRM_DELETE_YES : CONFIRM_YES}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Resolves true on Yes (or Enter), false on No, Escape or closing the dialog. */
export function openConfirmModal({
  title,
  message,
  variant = "default",
}: ConfirmModalOptions): Promise<boolean> {
  return openSettled(false, { title, size: "sm" }, (answer) => (
    <ConfirmBody message={message} variant={variant} onAnswer={answer} />
  ));
}

function NameInputBody({
  label,
  placeholder,
  submitLabel,
  requiredMessage,
  onAnswer,
}: {
  label: string;
  placeholder?: string;
  submitLabel: string;
  requiredMessage: string;
  onAnswer: (name: string | null) => void;
}) {
  // The name is checked on submit; editing it clears its message.
  const form = useForm({
    initialValues: { name: "" },
    validate: { name: (name) => (name.trim() === "" ? requiredMessage : null) },
  });
  const submit = form.onSubmit(({ name }) => onAnswer(name.trim()));
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <TextInput
          label={label}
          placeholder={placeholder}
          {...form.getInputProps("name")}
          required
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => onAnswer(null)}>
            Cancel
          </Button>
          <Button type="submit">{submitLabel}</Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface NameInputModalOptions {
  title: string;
  label: string;
  placeholder?: string;
  submitLabel?: string;
  /** Shown when the name is left empty; the organization dialog words it as the spec does. */
  requiredMessage?: string;
}

/** Asks for a required name; resolves the trimmed name, or null when cancelled. */
export function openNameInputModal({
  title,
  label,
  placeholder,
  submitLabel = "Create",
  requiredMessage = NAME_REQUIRED,
}: NameInputModalOptions): Promise<string | null> {
  return openSettled<string | null>(null, { title, size: "sm" }, (answer) => (
    <NameInputBody
      label={label}
      placeholder={placeholder}
      submitLabel={submitLabel}
      requiredMessage={requiredMessage}
      onAnswer={answer}
    />
  ));
}

function WelcomeBody({ onDone }: { onDone: () => void }) {
  const navigate = useNavigate();
  return (
    <Stack gap="md" align="center" ta="center" py="xs">
      <ThemeIcon size={56} radius="xl" variant="light">
        <IconSparkles size={30} aria-hidden />
      </ThemeIcon>

      <Text size="sm" c="dimmed">
        Your account is ready. Add a payment method and top up your balance to start calling the image and
        speech APIs from the playground or your own code.
      </Text>
      <Button
        fullWidth
        data-autofocus
        onClick={() => {
          onDone();
          navigate(PATHS.organizationPayments, { state: ADD_CARD_STATE });
        }}
      >
        Add a Payment Method
      </Button>
    </Stack>
  );
}

/** The first-visit welcome; its button goes to /organization/payments with the card dialog open. */
export function openWelcomeModal(): Promise<void> {
  // The greeting is the dialog's title, so the dialog is named by it.
  return openSettled<void>(undefined, { title: `Welcome to ${productName()}!`, size: "sm" }, (answer) => (
    <WelcomeBody onDone={() => answer(undefined)} />
  ));
}
