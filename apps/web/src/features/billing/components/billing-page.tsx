import { Button } from "@mantine/core";
import { CHANGES_SAVED } from "@prism/contract";
import { IconLock } from "@tabler/icons-react";
import { EmptyState, NoOrganizationSelected } from "../../../components/empty-state";
import { notify } from "../../../components/overlays/notify";
import { PageHeader } from "../../../components/page-header";
import { SettingsCard } from "../../../components/settings-card";
import { canInOrganization } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { BillingDetailsForm } from "./billing-details-form";

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
        <BillingDetailsForm
          key={selectedOrganization.id}
          organization={selectedOrganization}
          onSaved={() => notify(CHANGES_SAVED)}
        >
          {({ fields, saving }) => (
            <SettingsCard
              title="Billing details"
              description="The name, address and tax details printed on every invoice of this organization."
              footer={
                <Button type="submit" loading={saving}>
                  Save
                </Button>
              }
            >
              {fields}
            </SettingsCard>
          )}
        </BillingDetailsForm>
      )}
    </>
  );
}
