import { Checkbox, Text } from "@mantine/core";
import { TEXT_REMOVAL_HINT, textRemovalFeature } from "@prism/contract";
import { useState } from "react";
import { useIsProduction } from "../../../lib/env";
import { PlaygroundScreen } from "./playground-screen";
import { ImageUpload } from "./playground-uploads";

const imageInput = textRemovalFeature.inputs.files[0];

/**
 * /playground/text-removal (Text removal): the Original Image upload with its hint, the Use
 * Fast Mode checkbox outside production only, the price line and Remove Texts, which needs an
 * image. History rows show original and result.
 */
export function TextRemovalPage() {
  const isProduction = useIsProduction();
  const [image, setImage] = useState<File | null>(null);
  const [fastMode, setFastMode] = useState(false);

  return (
    <PlaygroundScreen
      feature={textRemovalFeature}
      actionLabel="Remove Texts"
      canRun={image !== null}
      buildRequest={() => ({
        files: { image: image ? [image] : [] },
        // Fast mode is a non-production control: in production it is neither shown nor sent.
        body: isProduction ? {} : { fast_mode: fastMode },
      })}
      form={
        <>
          <Text size="sm" c="dimmed">
            {TEXT_REMOVAL_HINT}
          </Text>
          <ImageUpload input={imageInput} label="Original Image" value={image} onChange={setImage} />
          {isProduction ? null : (
            <Checkbox
              label="Use Fast Mode"
              checked={fastMode}
              onChange={(event) => setFastMode(event.currentTarget.checked)}
            />
          )}
        </>
      }
    />
  );
}
