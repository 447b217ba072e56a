import { objectRemovalFeature } from "@prism/contract";
import { ComingSoon } from "../../../components/coming-soon";

// Placeholder until the screen lands (issue 9); replaced by the real screen.
export function ObjectRemovalPage() {
  return <ComingSoon title={objectRemovalFeature.name} description={objectRemovalFeature.description} />;
}
