import type { Feature } from "@prism/contract";
import { useState } from "react";
import { PlaygroundScreen } from "./playground-screen";
import { ImageUpload } from "./playground-uploads";

/**
 * A screen whose only input is one image (Background removal, Upscaling): the Original Image
 * upload, the price line and the action; history rows show original and result.
 */
export function SingleImageScreen({ feature, actionLabel }: { feature: Feature; actionLabel: string }) {
  const [image, setImage] = useState<File | null>(null);
  const input = feature.inputs.files.find((file) => file.name === "image");
  if (!input) throw new Error(`${feature.id} has no image input`);

  return (
    <PlaygroundScreen
      feature={feature}
      actionLabel={actionLabel}
      canRun={image !== null}
      buildRequest={() => ({ files: image ? { image: [image] } : ({} as Record<string, File[]>), body: {} })}
      form={<ImageUpload input={input} label="Original Image" value={image} onChange={setImage} />}
    />
  );
}
