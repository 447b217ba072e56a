import { IDENTITY_REQUEST_HEADER, identityInpaintingFeature, type TrainedIdentity } from "@prism/contract";
import { useCallback, useState } from "react";
import { NotFoundPage } from "../../../components/not-found-page";
import { useAppEnv } from "../../../lib/env";
import { useSession } from "../../../lib/session";
import type { HistoryItem } from "../api/use-history";
import { CheckboxWithHelp } from "./checkbox-with-help";
import type { RowImage } from "./history-panel";
import { IdentityPicker } from "./identity-picker";
import { MaskField, opaqueMaskFile, useImageWithMask } from "./mask-field";
import { type FeatureRequest, PlaygroundScreen } from "./playground-screen";
import { ImageUpload } from "./playground-uploads";
import { PromptField } from "./prompt-box";

const imageInput = identityInpaintingFeature.inputs.files[0];

export const ARTISTIC_TOOLTIP =
  "Paint the AI Clone with the artistic checkpoint: a more stylised, illustrative look instead of a photographic one.";

/** A row's pictures: the original, the mask laid over it, and the result. */
export function identityInpaintingRowImages(item: HistoryItem): RowImage[] {
  const images: RowImage[] = [];
  const original = item.request_data.files.image?.[0];
  const mask = item.request_data.files.mask?.[0];
  if (original) images.push({ label: "Original", url: original });
  if (mask) images.push({ label: "Mask overlay", url: mask, ...(original ? { overlayOn: original } : {}) });
  if (item.response_data.file) images.push({ label: "Result", url: item.response_data.file });
  return images;
}

/**
 * The clone a history row used, for its Show API Call: the record keeps identity_id but not the
 * training request id the header needs, so the current clone's id is used when it is the same one.
 */
function rowIdentityHeaders(item: HistoryItem, clone: TrainedIdentity | null): Record<string, string> {
  const identityId = item.request_data.body.identity_id;
  return {
    [IDENTITY_REQUEST_HEADER]:
      clone && clone.identity_id === identityId ? clone.id : "<the AI Clone's training request id>",
  };
}

function IdentityInpaintingScreen() {
  const { selectedProject } = useSession();
  const { image, changeImage, mask, setMask, loaded: loadedImage } = useImageWithMask();
  const [identity, setIdentity] = useState<TrainedIdentity | null>(null);
  const [artistic, setArtistic] = useState(false);
  const [prompt, setPrompt] = useState("");

  // The mask is not checked beforehand: without one nothing is sent for it, and the server
  // refuses the call before charging, with the reason in a dialog. Sending an empty mask instead
  // would charge for a result identical to the original.
  const buildRequest = useCallback(async (): Promise<FeatureRequest> => {
    const files: Record<string, File[]> = {};
    if (image) files.image = [image];
    if (mask) files.mask = [await opaqueMaskFile(mask)];
    return {
      files,
      body: { identity_id: identity?.identity_id, artistic, prompt: prompt.trim() },
      headers: identity ? { [IDENTITY_REQUEST_HEADER]: identity.id } : undefined,
    };
  }, [image, mask, identity, artistic, prompt]);

  return (
    <PlaygroundScreen
      feature={identityInpaintingFeature}
      actionLabel="Inpaint"
      canRun={image !== null && identity !== null}
      buildRequest={buildRequest}
      rowImages={identityInpaintingRowImages}
      rowHeaders={(item) => rowIdentityHeaders(item, identity)}
      form={
        <>
          <ImageUpload input={imageInput} label="Original Image" value={image} onChange={changeImage} />
          <MaskField label="Select Area to Inpaint" image={loadedImage} mask={mask} onChange={setMask} />
          <IdentityPicker projectId={selectedProject?.id ?? null} value={identity} onChange={setIdentity} />
          <CheckboxWithHelp
            label="Use Artistic Checkpoint"
            checked={artistic}
            onChange={setArtistic}
            help={ARTISTIC_TOOLTIP}
            helpLabel="About the artistic checkpoint"
          />
          <PromptField value={prompt} onChange={setPrompt} />
        </>
      }
    />
  );
}

/**
 * /playground/identity-inpainting (Identity inpainting): the image, Select Area to
 * Inpaint, the AI Clone picker, Use Artistic Checkpoint, the prompt with its counter, the price line
 * and Inpaint, which needs an image and a clone. The call carries the clone's training request id in
 * the identity header. A failure opens Error Inpainting Image; on mobile the framework says the screen
 * needs a larger screen.
 *
 * The menu offers this screen only outside production; in production the route itself shows
 * the Not Found page, as for any path the menu does not offer.
 */
export function IdentityInpaintingPage() {
  const appEnv = useAppEnv();
  if (appEnv === "production") return <NotFoundPage />;
  return <IdentityInpaintingScreen />;
}
