import { Divider, Text } from "@mantine/core";
import {
  CFG_MAX,
  CFG_MIN,
  generativeFillFeature,
  REIMAGINE_DENOISE_MAX,
  REIMAGINE_DENOISE_MIN,
  REIMAGINE_DENOISE_STEP,
} from "@prism/contract";
import { useState } from "react";
import { ValueSlider } from "../../../components/value-slider";
import { useIsProduction } from "../../../lib/env";
import {
  DEFAULT_FILL_DEBUG_CONTROLS,
  type FillDebugControls,
  formatDenoise,
  generativeFillBody,
  maskedRowImages,
  maskMissingMessage,
} from "../lib/mask-requests";
import { imageAndMaskFiles, MaskField, useImageWithMask } from "./mask-field";
import { PlaygroundScreen } from "./playground-screen";
import { ImageUpload } from "./playground-uploads";
import { PromptField } from "./prompt-box";

const imageInput = generativeFillFeature.inputs.files[0];
const MASK_LABEL = "Draw a Mask";

/**
 * /playground/generative-fill (Generative fill): the upload, Draw a Mask, the prompt
 * with its counter out of 1000, outside production the Denoise (0.5–1, default 0.7) and CFG Scale
 * (1–100, default 46) debug sliders, the price line and Generate.
 *
 * Generate is enabled by the image alone; without a mask there is nothing to fill, so a click then
 * explains that in a dialog. A new image drops the mask. Not available on mobile. Failures show
 * Error Removing Object, the dialog the spec gives object removal and fill alike.
 */
export function GenerativeFillPage() {
  const isProduction = useIsProduction();
  const { image, changeImage, mask, setMask, loaded } = useImageWithMask();
  const [prompt, setPrompt] = useState("");
  const [debug, setDebug] = useState<FillDebugControls>(DEFAULT_FILL_DEBUG_CONTROLS);

  return (
    <PlaygroundScreen
      feature={generativeFillFeature}
      actionLabel="Generate"
      canRun={image !== null}
      validate={() => (mask ? null : maskMissingMessage(MASK_LABEL))}
      buildRequest={async () => ({
        files: await imageAndMaskFiles(image, mask),
        body: generativeFillBody(prompt, debug, isProduction),
      })}
      rowImages={maskedRowImages}
      form={
        <>
          <ImageUpload input={imageInput} label="Original Image" value={image} onChange={changeImage} />
          <MaskField label={MASK_LABEL} image={loaded} mask={mask} onChange={setMask} />
          <PromptField value={prompt} onChange={setPrompt} hint="What should appear in the masked area." />
          {isProduction ? null : (
            <>
              <Divider
                label={
                  <Text size="xs" c="dimmed">
                    Debug controls (not shown in production)
                  </Text>
                }
                labelPosition="left"
              />
              <ValueSlider
                label="Denoise"
                min={REIMAGINE_DENOISE_MIN}
                max={REIMAGINE_DENOISE_MAX}
                step={REIMAGINE_DENOISE_STEP}
                value={debug.denoise}
                format={formatDenoise}
                onChange={(denoise) => setDebug((current) => ({ ...current, denoise }))}
              />
              <ValueSlider
                label="CFG Scale"
                min={CFG_MIN}
                max={CFG_MAX}
                step={1}
                value={debug.cfg}
                onChange={(cfg) => setDebug((current) => ({ ...current, cfg }))}
              />
            </>
          )}
        </>
      }
    />
  );
}
