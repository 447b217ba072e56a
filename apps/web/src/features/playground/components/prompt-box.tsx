import { Group, Input, Stack, Text, Textarea } from "@mantine/core";
import { PROMPT_MAX_LENGTH, PROMPT_PLACEHOLDER } from "@prism/contract";
import { type ReactNode, useId } from "react";

/** A prompt box with its "n/1000" counter and an optional action beside its label. */
export function PromptField({
  label = "Prompt",
  value,
  onChange,
  placeholder = PROMPT_PLACEHOLDER,
  counterTestId = "prompt-counter",
  labelAction,
  hint,
}: {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  counterTestId?: string;
  labelAction?: ReactNode;
  /** A line under the label, e.g. what the prompt is for. */
  hint?: string;
}) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Group justify="space-between" align="flex-end" gap="xs">
        <Input.Label htmlFor={id}>{label}</Input.Label>
        {labelAction}
      </Group>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
      <Textarea
        id={id}
        placeholder={placeholder}
        value={value}
        maxLength={PROMPT_MAX_LENGTH}
        autosize
        minRows={3}
        maxRows={8}
        onChange={(event) => onChange(event.currentTarget.value.slice(0, PROMPT_MAX_LENGTH))}
        inputWrapperOrder={["input", "description"]}
        description={
          <Text component="span" size="xs" c="dimmed" data-testid={counterTestId}>
            {`${value.length}/${PROMPT_MAX_LENGTH}`}
          </Text>
        }
        styles={{ description: { textAlign: "right", marginTop: 4 } }}
      />
    </Stack>
  );
}

/** The prompt with the Random Prompt button beside its label. */
