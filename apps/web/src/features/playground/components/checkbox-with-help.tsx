import { ActionIcon, Checkbox, Group, Tooltip } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";

export interface CheckboxWithHelpProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The explanation in the tooltip of the info button beside the checkbox. */
  help: string;
  /** The info button's accessible name, e.g. "About the custom mask". */
  helpLabel: string;
}

/** A checkbox with an info button beside it whose tooltip says what the option does. */
export function CheckboxWithHelp({ label, checked, onChange, help, helpLabel }: CheckboxWithHelpProps) {
  return (
    <Group gap={6} wrap="nowrap">
      <Checkbox label={label} checked={checked} onChange={(event) => onChange(event.currentTarget.checked)} />
      <Tooltip label={help} multiline w={280} withArrow position="top-start">
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={helpLabel}>
          <IconInfoCircle size={16} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
