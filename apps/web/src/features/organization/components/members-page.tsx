import { ComingSoon } from "../../../components/coming-soon";

export function MembersPage() {
  return (
    <ComingSoon
      title="Members"
      description="People in this organization, their permissions and pending invitations."
    />
  );
}
