import { transcriptionFeature } from "@prism/contract";
import { ComingSoon } from "../../../components/coming-soon";

// Placeholder until the screen lands (issue 9); replaced by the real screen.
export function SpeechToTextPage() {
  return <ComingSoon title={transcriptionFeature.name} description={transcriptionFeature.description} />;
}
