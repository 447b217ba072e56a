import { backgroundRemovalFeature } from "@prism/contract";
import { SingleImageScreen } from "./single-image-screen";

/** /playground/image-background-removal (001 §2). */
export function BackgroundRemovalPage() {
  return <SingleImageScreen feature={backgroundRemovalFeature} actionLabel="Remove Background" />;
}
