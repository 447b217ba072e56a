import { ComingSoon } from "../../../components/coming-soon";

export function OrganizationGeneralPage() {
  return <ComingSoon title="Organization" description="Your organization's name and identifier." />;
}
