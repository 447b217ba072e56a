import { Stack, Text, Textarea } from "@mantine/core";
import { PROMPT_MAX_LENGTH, PROMPT_PLACEHOLDER } from "@prism/contract";

/** A prompt textarea with its counter out of 1000 (001 §5); longer text is cut at the limit. */
export function PromptBox({
  value,
  onChange,
  label = "Prompt",
  description,
}: {
  value: string;
  onChange: (value: string) => void;
  label?: string;
  description?: string;
}) {
  return (
    <Stack gap={4}>
      <Textarea
        label={label}
        description={description}
        placeholder={PROMPT_PLACEHOLDER}
        autosize
        minRows={3}
        maxRows={8}
        maxLength={PROMPT_MAX_LENGTH}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value.slice(0, PROMPT_MAX_LENGTH))}
      />
      <Text size="xs" c="dimmed" ta="right" data-testid="prompt-counter">
        {value.length}/{PROMPT_MAX_LENGTH}
      </Text>
    </Stack>
  );
}
