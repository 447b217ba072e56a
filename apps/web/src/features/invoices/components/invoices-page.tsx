import { Badge, Button, Group, Paper, Stack, Text, VisuallyHidden } from "@mantine/core";
import { ERROR_DIALOGS, INVOICE_STATUS_PAID, INVOICES_EMPTY, type Invoice } from "@prism/contract";
import { IconExternalLink, IconFileInvoice, IconLock, IconReceiptOff } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { EmptyState, NoOrganizationSelected } from "../../../components/empty-state";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { PageHeader } from "../../../components/page-header";
import { Pagination } from "../../../components/pagination";
import { type ResponsiveColumn, ResponsiveTable } from "../../../components/responsive-table";
import { formatDate, formatUsd } from "../../../lib/format";
import { canInOrganization } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { useInvoices } from "../api/get-invoices";
import { retrieveInvoiceLink } from "../api/retrieve-invoice-link";

function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * Opens the invoice's PDF in a new tab. The tab is opened during the click, before the link is
 * fetched, because browsers block windows opened later from a callback.
 */
async function openInvoice(invoice: Invoice): Promise<void> {
  const tab = window.open("about:blank", "_blank");
  try {
    const url = await retrieveInvoiceLink(invoice.invoiceId);
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else {
      window.location.assign(url);
    }
  } catch (error) {
    tab?.close();
    await showErrorDialog(ERROR_DIALOGS.invoiceRetrieval, error);
  }
}

function ViewButton({ invoice }: { invoice: Invoice }) {
  const [opening, setOpening] = useState(false);
  return (
    <Button
      size="compact-sm"
      variant="light"
      rightSection={<IconExternalLink size={14} aria-hidden />}
      loading={opening}
      aria-label={`View invoice ${invoice.invoiceId}`}
      onClick={() => {
        setOpening(true);
        void openInvoice(invoice).finally(() => setOpening(false));
      }}
    >
      View
    </Button>
  );
}

/** Invoice, Status, Amount, Date and View; on a phone each invoice is a card with View beside its number. */
const COLUMNS: ResponsiveColumn<Invoice>[] = [
  {
    key: "invoice",
    header: "Invoice",
    phone: "title",
    cell: (invoice) => (
      <Text size="sm" fw={600} ff="monospace">
        {invoice.invoiceId}
      </Text>
    ),
  },
  {
    key: "status",
    header: "Status",
    cell: () => (
      <Badge color="teal" variant="light" radius="sm" tt="none">
        {INVOICE_STATUS_PAID}
      </Badge>
    ),
  },
  {
    key: "amount",
    header: "Amount",
    align: "right",
    cell: (invoice) => (
      <Text size="sm" ff="monospace">
        {formatUsd(invoice.amount)}
      </Text>
    ),
  },
  {
    key: "date",
    header: "Date",
    cell: (invoice) => (
      <Text size="sm" c="dimmed">
        {formatDate(invoice.createdAt)}
      </Text>
    ),
  },
  {
    key: "view",
    header: <VisuallyHidden>View</VisuallyHidden>,
    width: 110,
    phone: "aside",
    cell: (invoice) => (
      <Group justify="flex-end">
        <ViewButton invoice={invoice} />
      </Group>
    ),
  },
];

function InvoicesTable({ organizationId }: { organizationId: string }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const page = readPage(searchParams.get("page"));
  const invoices = useInvoices(organizationId, page, true);
  const { isError, error } = invoices;

  // One dialog per failed load: every failure brings a new error object.
  useEffect(() => {
    if (isError) void showErrorDialog(ERROR_DIALOGS.invoiceRetrieval, error);
  }, [isError, error]);

  const setPage = (next: number) =>
    setSearchParams(next === 1 ? {} : { page: String(next) }, { preventScrollReset: true });

  const data = invoices.data;
  // A page past the end (an old link) goes back to the last page that exists.
  useEffect(() => {
    if (data && data.totalPages > 0 && page > data.totalPages) setPage(data.totalPages);
  });

  if (isError && !data) {
    return (
      <EmptyState
        icon={<IconReceiptOff size={24} aria-hidden />}
        title={ERROR_DIALOGS.invoiceRetrieval.title}
        action={
          <Button variant="light" onClick={() => void invoices.refetch()}>
            Try again
          </Button>
        }
      >
        {ERROR_DIALOGS.invoiceRetrieval.message}
      </EmptyState>
    );
  }

  if (data && data.invoices.length === 0 && data.totalPages === 0) {
    return (
      <EmptyState icon={<IconFileInvoice size={24} aria-hidden />} title="No invoices yet">
        {INVOICES_EMPTY}
      </EmptyState>
    );
  }

  return (
    <Stack gap="md">
      <Paper withBorder style={{ overflow: "hidden", opacity: invoices.isPlaceholderData ? 0.6 : 1 }}>
        <ResponsiveTable
          label="Invoices"
          columns={COLUMNS}
          rows={data?.invoices}
          rowKey={(invoice) => invoice.id}
          rowProps={() => ({ "data-testid": "invoice-row" })}
          loadingRows={5}
          minWidth={560}
          tableProps={{ highlightOnHover: true }}
        />
      </Paper>
      {data ? (
        <Pagination
          currentPage={data.currentPage}
          totalPages={data.totalPages}
          onChange={setPage}
          disabled={invoices.isFetching}
        />
      ) : null}
    </Stack>
  );
}

/** /organization/invoices: Invoice, Status, Amount, Date, View, with the pager. */
export function InvoicesPage() {
  const { selectedOrganization } = useSession();
  const allowed = canInOrganization(selectedOrganization, "organization.invoices");
  return (
    <>
      <PageHeader title="Invoices" description="Your billing history, with a PDF for every payment." />
      {!selectedOrganization ? (
        <NoOrganizationSelected />
      ) : !allowed ? (
        <EmptyState icon={<IconLock size={24} aria-hidden />} title="No access">
          You do not have permission to see this organization's invoices.
        </EmptyState>
      ) : (
        <InvoicesTable key={selectedOrganization.id} organizationId={selectedOrganization.id} />
      )}
    </>
  );
}
