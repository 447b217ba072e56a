import { identityInpaintingFeature } from "@prism/contract";
import { ComingSoon } from "../../../components/coming-soon";

// Placeholder until the screen lands (issue 9); replaced by the real screen.
export function IdentityInpaintingPage() {
  return (
    <ComingSoon title={identityInpaintingFeature.name} description={identityInpaintingFeature.description} />
  );
}
