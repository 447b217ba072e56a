import { backgroundRemovalFeature } from "@prism/contract";
import { SingleImageScreen } from "./single-image-screen";

/** /playground/image-background-removal. */
export function BackgroundRemovalPage() {
  return <SingleImageScreen feature={backgroundRemovalFeature} actionLabel="Remove Background" />;
}
