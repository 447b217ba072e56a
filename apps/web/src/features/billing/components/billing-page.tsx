import { Button, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import {
  BILLING_FIELD_MAX_LENGTH,
  CHANGES_SAVED,
  EMAIL_MAX_LENGTH,
  ERROR_DIALOGS,
  type Organization,
} from "@prism/contract";
import { IconLock, IconWorld } from "@tabler/icons-react";
import { useMemo } from "react";
import { COUNTRIES } from "../../../components/countries";
import { EmptyState, NoOrganizationSelected } from "../../../components/empty-state";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { withLoading } from "../../../components/overlays/loading-store";
import { notify } from "../../../components/overlays/notify";
import { PageHeader } from "../../../components/page-header";
import { SettingsCard } from "../../../components/settings-card";
import { isApiError } from "../../../lib/api-client";
import { canInOrganization } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { useUpdateBilling } from "../api/update-billing";
import { type BillingField, describeBillingRefusal } from "../lib/billing-refusal";

type BillingValues = Record<BillingField, string>;

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

const COUNTRY_OPTIONS = COUNTRIES.map((country) => country.name);

function BillingForm({ organization }: { organization: Organization }) {
  // A refused field's reason sits beside it until the user changes that field (Mantine clears an
  // input's error on change).
  const form = useForm<BillingValues>({ initialValues: valuesOf(organization) });
  const update = useUpdateBilling();
  const country = form.values.country;

  // A country saved before this list existed (or spelled differently) stays selectable.
  const countryOptions = useMemo(
    () => (country && !COUNTRY_OPTIONS.includes(country) ? [country, ...COUNTRY_OPTIONS] : COUNTRY_OPTIONS),
    [country],
  );

  const field = (name: BillingField) => form.getInputProps(name);

  // No client checking before save; the server checks the required fields and says
  // which one is missing.
  const save = async (values: BillingValues) => {
    if (update.isPending) return;
    try {
      await withLoading(() =>
        update.mutateAsync({ organizationId: organization.id, ...values, taxId: values.taxId || null }),
      );
      form.clearErrors();
      notify(CHANGES_SAVED);
    } catch (error) {
      // The spec's dialog always; a refused field also gets its reason beside it ("City is required.").
      form.clearErrors();
      if (isApiError(error) && error.status === 400 && error.message) {
        const refusal = describeBillingRefusal(error);
        if (refusal.field) form.setFieldError(refusal.field, refusal.message);
      }
      await showErrorDialog(ERROR_DIALOGS.updateBilling, error);
    }
  };

  return (
    <form onSubmit={form.onSubmit((values) => void save(values))} noValidate aria-label="Billing details">
      <SettingsCard
        title="Billing details"
        description="The name, address and tax details printed on every invoice of this organization."
        footer={
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        }
      >
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
              nothingFoundMessage="No country matches"
              leftSection={<IconWorld size={16} aria-hidden />}
              maxDropdownHeight={280}
              {...field("country")}
              value={country || null}
              onChange={(value) => form.setFieldValue("country", value ?? "")}
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
      </SettingsCard>
    </form>
  );
}

/** /organization/billing: the organization's billing details. */
export function BillingPage() {
  const { selectedOrganization } = useSession();
  const allowed = canInOrganization(selectedOrganization, "organization.billing");
  return (
    <>
      <PageHeader title="Billing" description="Who your invoices are addressed to." />
      {!selectedOrganization ? (
        <NoOrganizationSelected />
      ) : !allowed ? (
        <EmptyState icon={<IconLock size={24} aria-hidden />} title="No access">
          You do not have permission to edit this organization's billing details.
        </EmptyState>
      ) : (
        <BillingForm key={selectedOrganization.id} organization={selectedOrganization} />
      )}
    </>
  );
}
