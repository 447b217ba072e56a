import { ComingSoon } from "../../../components/coming-soon";

export function PaymentsPage() {
  return <ComingSoon title="Payments" description="Payment method, auto recharge and manual recharges." />;
}
