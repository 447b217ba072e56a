import { ComingSoon } from "../../../components/coming-soon";

export function InvoicesPage() {
  return <ComingSoon title="Invoices" description="Your billing history." />;
}
