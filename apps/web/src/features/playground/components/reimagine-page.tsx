import { Checkbox, Stack } from "@mantine/core";
import {
  REIMAGINE_DENOISE_DEFAULT,
  REIMAGINE_DENOISE_MAX,
  REIMAGINE_DENOISE_MIN,
  REIMAGINE_DENOISE_STEP,
  reimagineFeature,
} from "@prism/contract";
import { useState } from "react";
import { invertMask, maskToOpaquePng } from "../../../components/mask-editor";
import { ValueSlider } from "../../../components/value-slider";
import { useIsProduction } from "../../../lib/env";
import {
  formatDenoise,
  maskMissingMessage,
  originalAndResult,
  reimagineMaskChoice,
} from "../lib/mask-requests";
import { asFile, type DrawnMask, MaskField, useImageWithMask } from "./mask-field";
import { PlaygroundScreen } from "./playground-screen";
import { ImageUpload } from "./playground-uploads";

const imageInput = reimagineFeature.inputs.files[0];
const MASK_LABEL = "Select Area To Change";

async function maskFile(mask: DrawnMask, invert: boolean): Promise<File> {
  const png = invert
    ? await maskToOpaquePng(invertMask(mask.mask), mask.width, mask.height)
    : await mask.toOpaquePng();
  return asFile(png, "mask.png");
}

/**
 * /playground/reimagine (Reimagine): one image upload, the Denoise slider (0.5–1
 * step 0.01, default 0.7, 2 decimals; always shown and sent), outside production Use Mask with Select
 * Area To Change and Invert Mask, the price line and Reimagine, which needs an image. Invert Mask sends
 * the inverse of the drawn mask as PNG. With Use Mask on, a click before a mask is drawn explains that
 * in a dialog rather than send a mask that changes nothing. Rows show Original and Result.
 */
export function ReimaginePage() {
  const isProduction = useIsProduction();
  const { image, changeImage, mask, setMask, loaded } = useImageWithMask();
  const [denoise, setDenoise] = useState(REIMAGINE_DENOISE_DEFAULT);
  const [useMask, setUseMask] = useState(false);
  const [invert, setInvert] = useState(false);
  const choice = reimagineMaskChoice({ isProduction, useMask, invert });

  return (
    <PlaygroundScreen
      feature={reimagineFeature}
      actionLabel="Reimagine"
      canRun={image !== null}
      validate={() => (choice !== "none" && !mask ? maskMissingMessage(MASK_LABEL) : null)}
      buildRequest={async () => ({
        files: {
          image: image ? [image] : [],
          ...(choice !== "none" && mask ? { mask: [await maskFile(mask, choice === "inverted")] } : {}),
        },
        body: { denoise },
      })}
      rowImages={originalAndResult}
      form={
        <>
          <ImageUpload input={imageInput} label="Original Image" value={image} onChange={changeImage} />
          <ValueSlider
            label="Denoise"
            min={REIMAGINE_DENOISE_MIN}
            max={REIMAGINE_DENOISE_MAX}
            step={REIMAGINE_DENOISE_STEP}
            value={denoise}
            format={formatDenoise}
            onChange={setDenoise}
            hint="Higher values move the result further from the original."
          />
          {isProduction ? null : (
            <Stack gap="sm">
              <Checkbox
                label="Use Mask"
                description="Change only the area you select."
                checked={useMask}
                onChange={(event) => setUseMask(event.currentTarget.checked)}
              />
              {useMask ? (
                <Stack gap="sm" pl="lg">
                  <MaskField label={MASK_LABEL} image={loaded} mask={mask} onChange={setMask} />
                  <Checkbox
                    label="Invert Mask"
                    description="Change everything except the selected area."
                    checked={invert}
                    onChange={(event) => setInvert(event.currentTarget.checked)}
                  />
                </Stack>
              ) : null}
            </Stack>
          )}
        </>
      }
    />
  );
}
