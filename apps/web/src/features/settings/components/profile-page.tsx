import { ComingSoon } from "../../../components/coming-soon";

export function ProfilePage() {
  return <ComingSoon title="Your Profile" description="Your name, password and sessions." />;
}
