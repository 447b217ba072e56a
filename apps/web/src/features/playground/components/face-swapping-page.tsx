import { faceSwappingFeature } from "@prism/contract";
import { ComingSoon } from "../../../components/coming-soon";

// Placeholder until the screen lands (issue 9); replaced by the real screen.
export function FaceSwappingPage() {
  return <ComingSoon title={faceSwappingFeature.name} description={faceSwappingFeature.description} />;
}
