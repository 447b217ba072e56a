import { Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { type UseFormReturnType, useForm } from "@mantine/form";
import {
  BILLING_FIELD_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  ERROR_DIALOGS,
  type Organization,
} from "@prism/contract";
import { IconWorld } from "@tabler/icons-react";
import { type KeyboardEvent, type ReactNode, useMemo } from "react";
import { COUNTRIES } from "../../../components/countries";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { withLoading } from "../../../components/overlays/loading-store";
import { isApiError } from "../../../lib/api-client";
import { useUpdateBilling } from "../api/update-billing";
import { type BillingField, billingFormErrors, describeBillingRefusal } from "../lib/billing-refusal";

export type BillingValues = Record<BillingField, string>;

function valuesOf(organization: Organization): BillingValues {
  return {
    billingName: organization.billingName ?? "",
    billingEmail: organization.billingEmail ?? "",
    taxId: organization.taxId ?? "",
    address: organization.address ?? "",
    city: organization.city ?? "",
    state: organization.state ?? "",
    zipCode: organization.zipCode ?? "",
    country: organization.country ?? "",
  };
}

/** Whether invoices of the organization would be addressed to its name alone (nothing saved yet). */
export function hasBillingDetails(organization: Organization): boolean {
  return Boolean(organization.billingName && organization.address && organization.country);
}

const COUNTRY_OPTIONS = COUNTRIES.map((country) => country.name);

/**
 * Enter in the country box picks the option the search leaves highlighted (the first one); it never
 * submits the form with a half-typed country, which the box would then clear.
 */
function keepEnterInOpenList(event: KeyboardEvent<HTMLInputElement>) {
  if (event.key === "Enter" && event.currentTarget.getAttribute("aria-expanded") === "true") {
    event.preventDefault();
  }
}

function BillingFields({ form }: { form: UseFormReturnType<BillingValues> }) {
  const country = form.values.country;
  // A country saved before this list existed (or spelled differently) stays selectable.
  const countryOptions = useMemo(
    () => (country && !COUNTRY_OPTIONS.includes(country) ? [country, ...COUNTRY_OPTIONS] : COUNTRY_OPTIONS),
    [country],
  );
  const field = (name: BillingField) => form.getInputProps(name);
  return (
    <Stack gap="md" maw={720}>
      <TextInput
        label="Billing Name"
        withAsterisk
        autoComplete="organization"
        maxLength={BILLING_FIELD_MAX_LENGTH}
        {...field("billingName")}
      />
      <TextInput
        label="Billing Address"
        withAsterisk
        autoComplete="street-address"
        maxLength={BILLING_FIELD_MAX_LENGTH}
        {...field("address")}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput
          label="City"
          withAsterisk
          autoComplete="address-level2"
          maxLength={BILLING_FIELD_MAX_LENGTH}
          {...field("city")}
        />
        <TextInput
          label="State/Province"
          withAsterisk
          autoComplete="address-level1"
          maxLength={BILLING_FIELD_MAX_LENGTH}
          {...field("state")}
        />
        <TextInput
          label="ZIP/Postal Code"
          withAsterisk
          autoComplete="postal-code"
          maxLength={BILLING_FIELD_MAX_LENGTH}
          {...field("zipCode")}
        />
        <Select
          label="Country"
          withAsterisk
          placeholder="Select country"
          data={countryOptions}
          searchable
          clearable
          selectFirstOptionOnChange
          nothingFoundMessage="No country matches"
          leftSection={<IconWorld size={16} aria-hidden />}
          maxDropdownHeight={280}
          {...field("country")}
          value={country || null}
          onChange={(value) => form.setFieldValue("country", value ?? "")}
          onKeyDown={keepEnterInOpenList}
        />
        <TextInput
          label="Tax ID"
          placeholder="Optional"
          maxLength={BILLING_FIELD_MAX_LENGTH}
          {...field("taxId")}
        />
        <TextInput
          label="Billing Email"
          withAsterisk
          type="email"
          autoComplete="email"
          maxLength={EMAIL_MAX_LENGTH}
          {...field("billingEmail")}
        />
      </SimpleGrid>
    </Stack>
  );
}

/**
 * The organization's billing details as a form: every field the contract requires is checked before
 * anything is sent, each missing one marked beside it; the spec's "Error" dialog is kept for a server
 * that fails. `children` lays the fields out with the form's buttons, given whether a save is under way.
 */
export function BillingDetailsForm({
  organization,
  onSaved,
  children,
  label = "Billing details",
}: {
  organization: Organization;
  onSaved: () => void;
  children: (parts: { fields: ReactNode; saving: boolean }) => ReactNode;
  label?: string;
}) {
  // A field's reason sits beside it until the user changes that field (Mantine clears an input's error
  // on change).
  const form = useForm<BillingValues>({
    initialValues: valuesOf(organization),
    validate: (values) => billingFormErrors(values, organization.id),
  });
  const update = useUpdateBilling();

  const save = async (values: BillingValues) => {
    if (update.isPending) return;
    try {
      await withLoading(() =>
        update.mutateAsync({ organizationId: organization.id, ...values, taxId: values.taxId || null }),
      );
      form.clearErrors();
      onSaved();
    } catch (error) {
      // The server checks again; a field it refuses (a rule newer than this page) is marked too.
      form.clearErrors();
      if (isApiError(error) && error.status === 400 && error.message) {
        const refusal = describeBillingRefusal(error);
        if (refusal.field) {
          form.setFieldError(refusal.field, refusal.message);
          return;
        }
      }
      await showErrorDialog(ERROR_DIALOGS.updateBilling, error);
    }
  };

  return (
    <form onSubmit={form.onSubmit((values) => void save(values))} noValidate aria-label={label}>
      {children({ fields: <BillingFields form={form} />, saving: update.isPending })}
    </form>
  );
}
