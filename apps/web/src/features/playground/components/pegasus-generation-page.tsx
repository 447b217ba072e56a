import { pegasusGenerationFeature } from "@prism/contract";
import { ComingSoon } from "../../../components/coming-soon";

// Placeholder until the screen lands (issue 9); replaced by the real screen.
export function PegasusGenerationPage() {
  return (
    <ComingSoon title={pegasusGenerationFeature.name} description={pegasusGenerationFeature.description} />
  );
}
