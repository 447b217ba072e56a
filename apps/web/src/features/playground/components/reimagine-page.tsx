import { reimagineFeature } from "@prism/contract";
import { ComingSoon } from "../../../components/coming-soon";

// Placeholder until the screen lands (issue 9); replaced by the real screen.
export function ReimaginePage() {
  return <ComingSoon title={reimagineFeature.name} description={reimagineFeature.description} />;
}
