import { Badge, Button, Group, Input, SegmentedControl, Select, Stack, Text } from "@mantine/core";
import { IMAGE_COUNT_MAX, IMAGE_COUNT_MIN, randomPrompt } from "@prism/contract";
import { IconArrowsShuffle } from "@tabler/icons-react";
import type { HistoryItem } from "../api/use-history";
import {
  generationReuse,
  type ImageSize,
  parseSizeKey,
  resolutionOptionLabel,
  resolutionOptions,
  sizeKey,
} from "../lib/generation";
import { PromptField } from "./prompt-box";

/** The form parts the two generation screens share (Basic Image Generation, Pegasus Generation). */

const IMAGE_COUNTS = Array.from({ length: IMAGE_COUNT_MAX - IMAGE_COUNT_MIN + 1 }, (_, index) =>
  String(IMAGE_COUNT_MIN + index),
);

export function PromptWithRandom({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <PromptField
      label="Prompt"
      value={value}
      onChange={onChange}
      counterTestId="prompt-counter"
      labelAction={
        <Button
          variant="light"
          size="compact-sm"
          leftSection={<IconArrowsShuffle size={14} aria-hidden />}
          onClick={() => onChange(randomPrompt(value))}
        >
          Random Prompt
        </Button>
      }
    />
  );
}

/** How many Images? 1 to 4; each launches its own call. */
export function ImageCountField({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  return (
    <Input.Wrapper label="How many Images?" id="image-count">
      <SegmentedControl
        fullWidth
        mt={4}
        data={IMAGE_COUNTS}
        value={String(value)}
        onChange={(next) => onChange(Number(next))}
        aria-labelledby="image-count-label"
        data-testid="image-count"
      />
    </Input.Wrapper>
  );
}

/** The Resolution dropdown: the four listed sizes, plus a reused custom size. */
export function ResolutionField({
  value,
  onChange,
}: {
  value: ImageSize;
  onChange: (size: ImageSize) => void;
}) {
  return (
    <Select
      label="Resolution"
      data={resolutionOptions(value)}
      value={sizeKey(value)}
      allowDeselect={false}
      onChange={(next) => {
        const size = parseSizeKey(next);
        if (size) onChange(size);
      }}
    />
  );
}

/** A generation row's text beside its picture: the prompt, the negative prompt and the size. */
export function GenerationRowDetails({ item }: { item: HistoryItem }) {
  const { prompt, negativePrompt, size, artistic, identityId } = generationReuse(item.request_data.body);
  return (
    <Stack gap={6} data-testid="row-prompt">
      <Text size="sm" lineClamp={3} title={prompt}>
        {prompt}
      </Text>
      {negativePrompt ? (
        <Text size="xs" c="dimmed" lineClamp={2} title={negativePrompt}>
          <Text span size="xs" fw={600} c="dimmed">
            Negative:{" "}
          </Text>
          {negativePrompt}
        </Text>
      ) : null}
      <Group gap={6}>
        <Text size="xs" c="dimmed" ff="monospace">
          {resolutionOptionLabel(size)}
        </Text>
        {identityId ? (
          <Badge variant="light" size="sm" radius="sm" color="grape">
            AI Clone
          </Badge>
        ) : null}
        {identityId && artistic ? (
          <Badge variant="light" size="sm" radius="sm" color="violet">
            Artistic
          </Badge>
        ) : null}
      </Group>
    </Stack>
  );
}
