import { Anchor, Checkbox, Stack, Text } from "@mantine/core";
import {
  AI_CLONE_NOT_SELECTED,
  DEFAULT_RESOLUTION,
  IDENTITY_REQUEST_HEADER,
  IMAGE_COUNT_DEFAULT,
  imageGenerationFeature,
  pegasusGenerationFeature,
  randomPrompt,
  type TrainedIdentity,
} from "@prism/contract";
import { IconArrowRight } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { useSession } from "../../../lib/session";
import { useTrainedIdentities } from "../api/use-trained-identities";
import { generationChargeText, generationReuse, type ImageSize, pegasusUnitPrice } from "../lib/generation";
import { GenerationRowDetails, ImageCountField, PromptWithRandom, ResolutionField } from "./generation-form";
import { IdentityPicker, isSelectableIdentity } from "./identity-picker";
import { PlaygroundScreen } from "./playground-screen";

/**
 * /playground/pegasus-generation (Pegasus Generation): the basic screen's prompt, count and
 * resolution, without a negative prompt (the Pegasus call has none), plus Use the AI Cloning
 * with the clone picker, Use Artistic Checkpoint and a link to the basic model. With a clone the call
 * also sends identity_id, artistic and the clone's training request id in
 * x-authorization-identity-request-id, and the price is priceIdentity per image.
 */
export function PegasusGenerationPage() {
  const { selectedProject } = useSession();
  const projectId = selectedProject?.id ?? null;
  const { identities } = useTrainedIdentities(projectId);

  const [prompt, setPrompt] = useState(() => randomPrompt());
  const [count, setCount] = useState(IMAGE_COUNT_DEFAULT);
  const [size, setSize] = useState<ImageSize>({
    width: DEFAULT_RESOLUTION.width,
    height: DEFAULT_RESOLUTION.height,
  });
  const [useCloning, setUseCloning] = useState(false);
  const [identity, setIdentity] = useState<TrainedIdentity | null>(null);
  const [artistic, setArtistic] = useState(false);

  const clone = useCloning ? identity : null;

  return (
    <PlaygroundScreen
      feature={pegasusGenerationFeature}
      actionLabel="Generate"
      canRun={prompt.trim() !== ""}
      count={count}
      priceLine={(_price, priceInfo) => generationChargeText(pegasusUnitPrice(priceInfo, useCloning), count)}
      validate={() => (useCloning && !identity ? AI_CLONE_NOT_SELECTED : null)}
      buildRequest={() => ({
        files: {},
        body: {
          prompt: prompt.trim(),
          width: size.width,
          height: size.height,
          ...(clone ? { identity_id: clone.identity_id, artistic } : {}),
        },
        headers: clone ? { [IDENTITY_REQUEST_HEADER]: clone.id } : undefined,
      })}
      rowHeaders={(item) => {
        const identityId = generationReuse(item.request_data.body).identityId;
        const used = identityId
          ? identities.find((candidate) => candidate.identity_id === identityId)
          : undefined;
        return used ? { [IDENTITY_REQUEST_HEADER]: used.id } : undefined;
      }}
      onReuse={(item) => {
        const reuse = generationReuse(item.request_data.body);
        setPrompt(reuse.prompt);
        setSize(reuse.size);
        const used = reuse.identityId
          ? identities.find((candidate) => candidate.identity_id === reuse.identityId)
          : undefined;
        if (used && isSelectableIdentity(used)) {
          setUseCloning(true);
          setIdentity(used);
          setArtistic(reuse.artistic);
        } else {
          setUseCloning(false);
        }
      }}
      rowDetails={(item) => <GenerationRowDetails item={item} />}
      form={
        <>
          <PromptWithRandom value={prompt} onChange={setPrompt} />
          <ImageCountField value={count} onChange={setCount} />
          <ResolutionField value={size} onChange={setSize} />
          <Stack gap="sm">
            <Checkbox
              label="Use the AI Cloning"
              description="Feature one of your trained AI Clones in the image."
              checked={useCloning}
              onChange={(event) => setUseCloning(event.currentTarget.checked)}
            />
            <IdentityPicker
              projectId={projectId}
              value={identity}
              onChange={setIdentity}
              disabled={!useCloning}
            />
            <Checkbox
              label="Use Artistic Checkpoint"
              description="A painterly style instead of the photographic one; applies with an AI Clone."
              checked={artistic}
              disabled={!useCloning}
              onChange={(event) => setArtistic(event.currentTarget.checked)}
            />
          </Stack>
          <Text size="sm" c="dimmed">
            Need a negative prompt and no AI Clone?{" "}
            <Anchor component={Link} to={imageGenerationFeature.playgroundRoute} size="sm" inline>
              Use the Basic model
              <IconArrowRight size={12} aria-hidden style={{ marginLeft: 4, verticalAlign: "middle" }} />
            </Anchor>
          </Text>
        </>
      }
    />
  );
}
