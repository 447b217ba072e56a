import { ComingSoon } from "../../../components/coming-soon";

export function HomePage() {
  return <ComingSoon title="Usage" description="Usage and cost per feature for the selected month." />;
}
