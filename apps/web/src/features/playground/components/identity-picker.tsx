import {
  Anchor,
  Avatar,
  Badge,
  Combobox,
  Group,
  InputBase,
  Loader,
  Stack,
  Text,
  useCombobox,
} from "@mantine/core";
import { type IdentityStatus, pegasusTrainingFeature, type TrainedIdentity } from "@prism/contract";
import { IconUserCircle } from "@tabler/icons-react";
import { useEffect } from "react";
import { Link } from "react-router";
import { useTrainedIdentities } from "../api/use-trained-identities";
import { thumbnailUrl } from "./history-panel";

export interface IdentityPickerProps {
  /** The selected project; the list is that project's AI Clones. */
  projectId: string | null;
  value: TrainedIdentity | null;
  onChange: (identity: TrainedIdentity | null) => void;
  disabled?: boolean;
  label?: string;
}

const STATUS_LABELS: Record<IdentityStatus, string> = {
  pending: "Pending",
  training: "Training",
  ready: "Ready",
  failed: "Failed",
};

const STATUS_COLORS: Record<IdentityStatus, string> = {
  pending: "gray",
  training: "blue",
  ready: "teal",
  failed: "red",
};

function isReady(identity: TrainedIdentity): boolean {
  return identity.identity_status === "ready";
}

/** The first training image's thumbnail stands for the clone (001 §3 trainingFirstImage). */
function firstImageThumb(identity: TrainedIdentity): string | undefined {
  const first = identity.request_data.files.images?.[0];
  return first ? thumbnailUrl(first) : undefined;
}

function IdentityLabel({ identity }: { identity: TrainedIdentity }) {
  return (
    <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
      <Avatar src={firstImageThumb(identity)} alt="" radius="sm" size={36}>
        <IconUserCircle size={20} aria-hidden />
      </Avatar>
      <Text size="sm" fw={500} truncate>
        {identity.description}
      </Text>
    </Group>
  );
}

/**
 * The AI Clone picker (001 §2 Pegasus generation, Identity inpainting; §4): each clone of the project
 * with its first training image and description. Clones still training (or failed) are listed with
 * their status but cannot be chosen. The first ready clone is selected once the list has loaded, and
 * choosing one closes the list. A load failure is ignored: the list stays empty (001 §8).
 */
export function IdentityPicker({
  projectId,
  value,
  onChange,
  disabled,
  label = "AI Clone",
}: IdentityPickerProps) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const { identities, isLoading } = useTrainedIdentities(projectId);

  // Once loaded, keep a ready clone of this list selected: the first one by default, and a new one
  // when the selected clone is no longer listed (another project, deleted).
  useEffect(() => {
    if (isLoading) return;
    const stillListed = value && identities.some((identity) => identity.id === value.id && isReady(identity));
    if (stillListed) return;
    const next = identities.find(isReady) ?? null;
    if ((next?.id ?? null) !== (value?.id ?? null)) onChange(next);
  }, [identities, isLoading, value, onChange]);

  const options = identities.map((identity) => {
    const ready = isReady(identity);
    return (
      <Combobox.Option
        key={identity.id}
        value={identity.id}
        disabled={!ready}
        active={identity.id === value?.id}
        aria-label={identity.description}
      >
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <IdentityLabel identity={identity} />
          {ready ? null : (
            <Badge size="xs" variant="light" color={STATUS_COLORS[identity.identity_status]}>
              {STATUS_LABELS[identity.identity_status]}
            </Badge>
          )}
        </Group>
      </Combobox.Option>
    );
  });

  const empty = !isLoading && identities.length === 0;

  return (
    <Stack gap={6}>
      <Combobox
        store={combobox}
        withinPortal
        disabled={disabled}
        onOptionSubmit={(id) => {
          const chosen = identities.find((identity) => identity.id === id);
          if (chosen && isReady(chosen)) onChange(chosen);
          combobox.closeDropdown();
        }}
      >
        <Combobox.Target targetType="button" withExpandedAttribute>
          <InputBase
            component="button"
            type="button"
            label={label}
            pointer
            disabled={disabled || empty}
            rightSection={isLoading ? <Loader size={14} /> : <Combobox.Chevron />}
            rightSectionPointerEvents="none"
            onClick={() => combobox.toggleDropdown()}
            multiline
            data-testid="identity-picker"
            styles={{ input: { minHeight: 52, paddingTop: 7, paddingBottom: 7 } }}
          >
            {value ? (
              <IdentityLabel identity={value} />
            ) : (
              <Text size="sm" c="dimmed" lh="36px">
                {isLoading ? "Loading your AI Clones…" : empty ? "No AI Clones yet" : "Select an AI Clone"}
              </Text>
            )}
          </InputBase>
        </Combobox.Target>
        <Combobox.Dropdown>
          <Combobox.Options mah={320} style={{ overflowY: "auto" }} aria-label="Your AI Clones">
            {options.length > 0 ? options : <Combobox.Empty>No AI Clones yet</Combobox.Empty>}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
      {empty ? (
        <Text size="xs" c="dimmed">
          Train one in{" "}
          <Anchor component={Link} to={pegasusTrainingFeature.playgroundRoute} size="xs">
            {pegasusTrainingFeature.name}
          </Anchor>{" "}
          first.
        </Text>
      ) : null}
    </Stack>
  );
}
