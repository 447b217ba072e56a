// The payments widgets other screens compose (the home page's payment card and recharge panel).
// Everything else in this folder is the feature's own.
export { PaymentMethodCard } from "./components/payment-method-card";
export { RechargePanel } from "./components/recharge-panel";
export { SandboxBadge, useIsSandboxPayments } from "./components/sandbox-badge";
