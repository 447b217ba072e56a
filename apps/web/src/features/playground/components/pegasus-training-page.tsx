import { pegasusTrainingFeature } from "@prism/contract";
import { ComingSoon } from "../../../components/coming-soon";

// Placeholder until the screen lands (issue 9); replaced by the real screen.
export function PegasusTrainingPage() {
  return <ComingSoon title={pegasusTrainingFeature.name} description={pegasusTrainingFeature.description} />;
}
