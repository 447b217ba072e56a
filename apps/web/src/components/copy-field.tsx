import { ActionIcon, CopyButton, TextInput, type TextInputProps, Tooltip } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";

/** A read-only value (an id, a secret shown once) with a copy button at its end. */
export function CopyField({
  value,
  ...props
}: { value: string } & Omit<TextInputProps, "value" | "readOnly">) {
  return (
    <TextInput
      {...props}
      value={value}
      readOnly
      styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
      onFocus={(event) => event.currentTarget.select()}
      rightSection={
        <CopyButton value={value} timeout={1600}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? "Copied" : "Copy"} withArrow position="left">
              <ActionIcon
                variant="subtle"
                color={copied ? "teal" : "gray"}
                onClick={copy}
                aria-label={copied ? "Copied" : `Copy ${props.label ?? "value"}`}
              >
                {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      }
    />
  );
}
