import { Stack, Text } from "@mantine/core";
import { faceSwappingFeature } from "@prism/contract";
import { useCallback, useState } from "react";
import { blackJpeg } from "../../../components/mask-editor";
import type { HistoryItem } from "../api/use-history";
import { CheckboxWithHelp } from "./checkbox-with-help";
import type { RowImage } from "./history-panel";
import { asFile, MaskField, opaqueMaskFile, useImageWithMask } from "./mask-field";
import { type FeatureRequest, PlaygroundScreen } from "./playground-screen";
import { ImageUpload } from "./playground-uploads";

function fileInput(name: string) {
  const input = faceSwappingFeature.inputs.files.find((file) => file.name === name);
  if (!input) throw new Error(`face swapping has no ${name} input`);
  return input;
}

const sourceInput = fileInput("source");
const targetInput = fileInput("target");

export const CUSTOM_MASK_TOOLTIP =
  "Paint where on the target image the new face may appear: the swap stays inside what you paint. With nothing painted, the whole face is swapped.";

/** A row's pictures: Original (the source face), Target, then the result. */
export function faceSwappingRowImages(item: HistoryItem): RowImage[] {
  const images: RowImage[] = [];
  const source = item.request_data.files.source?.[0];
  const target = item.request_data.files.target?.[0];
  if (source) images.push({ label: "Original", url: source });
  if (target) images.push({ label: "Target", url: target });
  if (item.response_data.file) images.push({ label: "Result", url: item.response_data.file });
  return images;
}

function Hint({ children }: { children: string }) {
  return (
    <Text size="xs" c="dimmed" mt={-2}>
      {children}
    </Text>
  );
}

/**
 * /playground/face-swapping (Face swapping, with the mask rules): Source Image (the face to use)
 * and Target Image (the face to replace), Use Custom Mask with Draw the Mask over the target, the price
 * line and Swap Face, which needs both images. A new target clears the mask; with the custom mask on
 * but nothing drawn an all-black JPEG of the target's size is sent as the mask. A failure opens Error
 * Swapping Faces (with the reason, e.g. no face found) and marks the row Generation Error.
 */
export function FaceSwappingPage() {
  const [source, setSource] = useState<File | null>(null);
  const {
    image: target,
    changeImage: changeTarget,
    mask,
    setMask,
    loaded: loadedTarget,
  } = useImageWithMask();
  const [useCustomMask, setUseCustomMask] = useState(false);

  const buildRequest = useCallback(async (): Promise<FeatureRequest> => {
    const files: Record<string, File[]> = {};
    if (source) files.source = [source];
    if (target) files.target = [target];
    if (useCustomMask && target) {
      if (mask) {
        files.mask = [await opaqueMaskFile(mask)];
      } else {
        if (!loadedTarget) throw new Error("The target image is still being read. Please try again.");
        files.mask = [asFile(await blackJpeg(loadedTarget.width, loadedTarget.height), "mask.jpg")];
      }
    }
    return { files, body: {} };
  }, [source, target, useCustomMask, mask, loadedTarget]);

  return (
    <PlaygroundScreen
      feature={faceSwappingFeature}
      actionLabel="Swap Face"
      canRun={source !== null && target !== null}
      buildRequest={buildRequest}
      rowImages={faceSwappingRowImages}
      form={
        <>
          <Stack gap={6}>
            <ImageUpload input={sourceInput} label="Source Image" value={source} onChange={setSource} />
            <Hint>The face to use: a clear photo of the face you want to see in the result.</Hint>
          </Stack>
          <Stack gap={6}>
            <ImageUpload input={targetInput} label="Target Image" value={target} onChange={changeTarget} />
            <Hint>The face to replace: the photo that receives the new face.</Hint>
          </Stack>
          <Stack gap="xs">
            <CheckboxWithHelp
              label="Use Custom Mask"
              checked={useCustomMask}
              onChange={setUseCustomMask}
              help={CUSTOM_MASK_TOOLTIP}
              helpLabel="About the custom mask"
            />
            {useCustomMask ? (
              <MaskField label="Draw the Mask" image={loadedTarget} mask={mask} onChange={setMask} />
            ) : null}
          </Stack>
        </>
      }
    />
  );
}
