import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { cardNumberLength } from "@prism/contract";
import { IconInfoCircle, IconLock } from "@tabler/icons-react";
import { useState } from "react";
import { CardBrandLogo } from "../../../components/card-brand-logo";
import {
  type CardErrors,
  type CardFields,
  cardDigits,
  cardNetworkOf,
  cvcMaxLength,
  formatCardNumber,
  formatExpiry,
  parseExpiry,
  validateCard,
} from "../lib/card";

export interface SandboxCard {
  /** Digits only. */
  number: string;
  expMonth: number;
  /** Four digits. */
  expYear: number;
  cvc: string;
}

/**
 * Our card form for the sandbox provider: number, expiry and security code, with the brand detected
 * and the Luhn checksum checked as the user types. `onSubmit` may answer field errors from the server.
 */
export function SandboxCardForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (card: SandboxCard) => Promise<CardErrors | undefined>;
  onCancel: () => void;
}) {
  // The form holds the values and the errors it shows after a save: the checks' (validateCard) or the
  // server's refusal; Mantine clears a field's error when that field changes.
  const form = useForm<CardFields>({
    initialValues: { number: "", expiry: "", cvc: "" },
    validate: (values) => validateCard(values),
  });
  const [blurred, setBlurred] = useState<Partial<Record<keyof CardFields, boolean>>>({});
  const [submitting, setSubmitting] = useState(false);

  const fields = form.values;
  const network = cardNetworkOf(fields.number);
  const fullLength = cardNumberLength(network);
  const errors = validateCard(fields);
  const numberDigits = cardDigits(fields.number);
  // Feedback comes as soon as it is meaningful: a complete number is checked at once, a partial one
  // only when the user leaves the field or tries to save; from then on it follows the typing.
  const show = {
    number: blurred.number || (fullLength !== null && numberDigits.length >= fullLength),
    expiry: blurred.expiry || cardDigits(fields.expiry).length >= 4,
    cvc: blurred.cvc,
  };
  const errorOf = (key: keyof CardFields) =>
    (form.errors[key] as string | undefined) ?? (show[key] ? errors[key] : undefined);
  const update = (key: keyof CardFields, value: string) => form.setFieldValue(key, value);
  const leave = (key: keyof CardFields) => () => setBlurred((current) => ({ ...current, [key]: true }));

  const submit = async (values: CardFields) => {
    setBlurred({ number: true, expiry: true, cvc: true });
    const expiry = parseExpiry(values.expiry);
    if (!expiry || submitting) return;
    setSubmitting(true);
    try {
      const refused = await onSubmit({
        number: cardDigits(values.number),
        expMonth: expiry.month,
        expYear: expiry.year,
        cvc: cardDigits(values.cvc),
      });
      if (refused) form.setErrors(refused);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form
      onSubmit={form.onSubmit(
        (values) => void submit(values),
        () => setBlurred({ number: true, expiry: true, cvc: true }),
      )}
      noValidate
      aria-label="Card details"
    >
      <Stack gap="md">
        <Alert variant="light" color="orange" icon={<IconInfoCircle size={18} aria-hidden />} p="sm">
          <Text size="sm">
            Test cards:{" "}
            <Text span ff="monospace">
              4242 4242 4242 4242
            </Text>{" "}
            is accepted,{" "}
            <Text span ff="monospace">
              4000 0000 0000 0002
            </Text>{" "}
            is declined. Any future expiry date and any security code work.
          </Text>
        </Alert>
        <TextInput
          label="Card number"
          placeholder="1234 1234 1234 1234"
          autoComplete="cc-number"
          inputMode="numeric"
          value={fields.number}
          onChange={(event) => update("number", formatCardNumber(event.currentTarget.value))}
          onBlur={leave("number")}
          error={errorOf("number")}
          rightSection={<CardBrandLogo brand={network} width={30} />}
          rightSectionWidth={44}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)", letterSpacing: "0.02em" } }}
          data-autofocus
        />
        <SimpleGrid cols={2} spacing="md">
          <TextInput
            label="Expiry date"
            placeholder="MM / YY"
            autoComplete="cc-exp"
            inputMode="numeric"
            value={fields.expiry}
            onChange={(event) => {
              const typed = event.currentTarget.value;
              // Deleting the separator's space removes the separator, not a digit the user can't see.
              const next =
                typed.length < fields.expiry.length && fields.expiry.endsWith(" / ")
                  ? typed.slice(0, 2)
                  : typed;
              update("expiry", formatExpiry(next));
            }}
            onBlur={leave("expiry")}
            error={errorOf("expiry")}
            styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          />
          <TextInput
            label="Security code"
            placeholder={network === "american express" ? "1234" : "CVC"}
            autoComplete="cc-csc"
            inputMode="numeric"
            value={fields.cvc}
            maxLength={4}
            onChange={(event) =>
              update("cvc", cardDigits(event.currentTarget.value).slice(0, cvcMaxLength(network)))
            }
            onBlur={leave("cvc")}
            error={errorOf("cvc")}
            styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          />
        </SimpleGrid>
        <Group justify="space-between" mt="xs">
          <Group gap={6} c="dimmed">
            <IconLock size={14} aria-hidden />
            <Text size="xs">Only the brand and last four digits are kept.</Text>
          </Group>
          <Group gap="sm">
            <Button variant="default" onClick={onCancel} disabled={submitting}>
              Cancel
            </Button>
            <Button type="submit" loading={submitting}>
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
