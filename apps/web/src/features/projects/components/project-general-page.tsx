import { ComingSoon } from "../../../components/coming-soon";

export function ProjectGeneralPage() {
  return <ComingSoon title="Project" description="The selected project's name and identifier." />;
}
