import { upscalingFeature } from "@prism/contract";
import { SingleImageScreen } from "./single-image-screen";

/** /playground/image-upscaling: 4 megapixel limit from the catalog's input. */
export function UpscalingPage() {
  return <SingleImageScreen feature={upscalingFeature} actionLabel="Upscale Image" />;
}
