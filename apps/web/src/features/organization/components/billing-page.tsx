import { ComingSoon } from "../../../components/coming-soon";

export function BillingPage() {
  return <ComingSoon title="Billing" description="The details printed on your invoices." />;
}
