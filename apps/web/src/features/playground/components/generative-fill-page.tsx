import { generativeFillFeature } from "@prism/contract";
import { ComingSoon } from "../../../components/coming-soon";

// Placeholder until the screen lands (issue 9); replaced by the real screen.
export function GenerativeFillPage() {
  return <ComingSoon title={generativeFillFeature.name} description={generativeFillFeature.description} />;
}
