import { imageGenerationFeature } from "@prism/contract";
import { ComingSoon } from "../../../components/coming-soon";

// Placeholder until the screen lands (issue 9); replaced by the real screen.
export function ImageGenerationPage() {
  return <ComingSoon title={imageGenerationFeature.name} description={imageGenerationFeature.description} />;
}
