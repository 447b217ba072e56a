import { Checkbox, Collapse, Stack } from "@mantine/core";
import {
  DEFAULT_RESOLUTION,
  IMAGE_COUNT_DEFAULT,
  imageGenerationFeature,
  randomPrompt,
} from "@prism/contract";
import { useState } from "react";
import { generationChargeText, generationReuse, type ImageSize } from "../lib/generation";
import { GenerationRowDetails, ImageCountField, PromptWithRandom, ResolutionField } from "./generation-form";
import { PlaygroundScreen } from "./playground-screen";
import { PromptField } from "./prompt-box";

/**
 * /playground/image-generation (Basic Image Generation): a random prompt on load and on
 * Random Prompt, the prompt with its counter, Use Negative Prompt (on by default) with its own box,
 * How many Images? (1 to 4, one parallel call each), Resolution, the cost line (price × count) and
 * Generate, disabled while the prompt is empty. Reuse puts a row's prompt, negative prompt and size
 * back.
 */
export function ImageGenerationPage() {
  const [prompt, setPrompt] = useState(() => randomPrompt());
  const [useNegativePrompt, setUseNegativePrompt] = useState(true);
  const [negativePrompt, setNegativePrompt] = useState("");
  const [count, setCount] = useState(IMAGE_COUNT_DEFAULT);
  const [size, setSize] = useState<ImageSize>({
    width: DEFAULT_RESOLUTION.width,
    height: DEFAULT_RESOLUTION.height,
  });

  return (
    <PlaygroundScreen
      feature={imageGenerationFeature}
      actionLabel="Generate"
      canRun={prompt.trim() !== ""}
      count={count}
      priceLine={(price) => generationChargeText(price, count)}
      buildRequest={() => ({
        files: {},
        body: {
          prompt: prompt.trim(),
          // The negative prompt travels only while its checkbox is on.
          negative_prompt:
            useNegativePrompt && negativePrompt.trim() !== "" ? negativePrompt.trim() : undefined,
          width: size.width,
          height: size.height,
        },
      })}
      onReuse={(item) => {
        const reuse = generationReuse(item.request_data.body);
        setPrompt(reuse.prompt);
        setUseNegativePrompt(reuse.negativePrompt !== null);
        setNegativePrompt(reuse.negativePrompt ?? "");
        setSize(reuse.size);
      }}
      rowDetails={(item) => <GenerationRowDetails item={item} />}
      form={
        <>
          <PromptWithRandom value={prompt} onChange={setPrompt} />
          <Stack gap="xs">
            <Checkbox
              label="Use Negative Prompt"
              checked={useNegativePrompt}
              onChange={(event) => setUseNegativePrompt(event.currentTarget.checked)}
            />
            <Collapse expanded={useNegativePrompt}>
              <PromptField
                label="Negative Prompt"
                placeholder="What the image should not show, e.g. blurry, text, watermark"
                value={negativePrompt}
                onChange={setNegativePrompt}
                counterTestId="negative-prompt-counter"
              />
            </Collapse>
          </Stack>
          <ImageCountField value={count} onChange={setCount} />
          <ResolutionField value={size} onChange={setSize} />
        </>
      }
    />
  );
}
