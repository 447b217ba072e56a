import { Text } from "@mantine/core";
import { objectRemovalFeature } from "@prism/contract";
import { maskedRowImages, maskMissingMessage } from "../lib/mask-requests";
import { imageAndMaskFiles, MaskField, useImageWithMask } from "./mask-field";
import { PlaygroundScreen } from "./playground-screen";
import { ImageUpload } from "./playground-uploads";

const imageInput = objectRemovalFeature.inputs.files[0];
const MASK_LABEL = "Select Object to Remove";

/**
 * /playground/object-removal (Object removal): the Original Image upload, Select Object
 * to Remove (the full-screen mask popup, which needs an image), the price line and Remove Object.
 *
 * Remove Object is enabled by the image alone, as the upload rules say; the server cannot remove anything without a
 * mask, so clicking it before one is drawn explains that in a dialog instead of sending a call that
 * would only fail. A new image drops the mask. Not available on mobile (the framework's notice).
 */
export function ObjectRemovalPage() {
  const { image, changeImage, mask, setMask, loaded } = useImageWithMask();

  return (
    <PlaygroundScreen
      feature={objectRemovalFeature}
      actionLabel="Remove Object"
      canRun={image !== null}
      validate={() => (mask ? null : maskMissingMessage(MASK_LABEL))}
      buildRequest={async () => ({
        files: await imageAndMaskFiles(image, mask),
        body: {},
      })}
      rowImages={maskedRowImages}
      form={
        <>
          <Text size="sm" c="dimmed">
            Upload an image, paint over the object to remove, then click Remove Object.
          </Text>
          <ImageUpload input={imageInput} label="Original Image" value={image} onChange={changeImage} />
          <MaskField label={MASK_LABEL} image={loaded} mask={mask} onChange={setMask} />
        </>
      }
    />
  );
}
