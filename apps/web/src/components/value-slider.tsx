import { Group, Slider, Stack, Text } from "@mantine/core";
import { useId } from "react";

export interface ValueSliderProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (value: number) => void;
  /** How the value is printed beside the label and on the thumb. */
  format?: (value: number) => string;
  disabled?: boolean;
  /** A short line under the slider saying what the control does. */
  hint?: string;
  /** A fixed width and a quieter value, for a slider in a toolbar (the mask editor's). */
  compact?: boolean;
}

/** A labelled slider that shows its current value (Denoise, CFG Scale, the mask editor's Shape Size). */
export function ValueSlider({
  label,
  value,
  min,
  max,
  step,
  onChange,
  format = String,
  disabled,
  hint,
  compact = false,
}: ValueSliderProps) {
  const labelId = useId();
  return (
    <Stack gap={4} w={compact ? 200 : undefined}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={500} id={labelId}>
          {label}
        </Text>
        <Text
          size={compact ? "xs" : "sm"}
          c={compact ? "dimmed" : undefined}
          ff="monospace"
          data-testid={`${label.toLowerCase().replace(/\s+/g, "-")}-value`}
        >
          {format(value)}
        </Text>
      </Group>
      <Slider
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={onChange}
        disabled={disabled}
        label={format}
        thumbLabel={label}
        aria-labelledby={labelId}
      />
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Stack>
  );
}
