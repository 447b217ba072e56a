import {
  Anchor,
  Avatar,
  Badge,
  Combobox,
  Group,
  Input,
  InputBase,
  Loader,
  Stack,
  Text,
  useCombobox,
} from "@mantine/core";
import { pegasusTrainingFeature, type TrainedIdentity } from "@prism/contract";
import { IconUserCircle } from "@tabler/icons-react";
import { useEffect } from "react";
import { Link } from "react-router";
import { formatDateTime } from "../../../lib/format";
import { useTrainedIdentities } from "../api/use-trained-identities";
import { thumbnailUrl } from "./history-panel";

export interface IdentityPickerProps {
  projectId: string | null;
  /** The chosen AI Clone; the picker selects the first ready one by default once the list loads. */
  value: TrainedIdentity | null;
  onChange: (identity: TrainedIdentity | null) => void;
  disabled?: boolean;
  label?: string;
}

/** Only a finished clone can be used; the others are listed with their status. */
export function isSelectableIdentity(identity: TrainedIdentity): boolean {
  return identity.identity_status === "ready" && identity.identity_id !== "";
}

/** The first training image's thumbnail stands for the clone (trainingFirstImage). */
function identityThumbnail(identity: TrainedIdentity): string | undefined {
  const first = identity.request_data.files.images?.[0];
  return first ? thumbnailUrl(first) : undefined;
}

function IdentityLine({ identity }: { identity: TrainedIdentity }) {
  const selectable = isSelectableIdentity(identity);
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar src={identityThumbnail(identity)} alt={identity.description} radius="md" size={40}>
        <IconUserCircle size={22} aria-hidden />
      </Avatar>
      <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
        <Text size="sm" fw={500} truncate="end">
          {identity.description}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(identity.request_date)}
        </Text>
      </Stack>
      {selectable ? null : (
        <Badge size="sm" variant="light" color={identity.identity_status === "failed" ? "red" : "gray"}>
          {identity.identity_status}
        </Badge>
      )}
    </Group>
  );
}

/**
 * The AI Clone picker (Pegasus Generation, Identity inpainting): each
 * option shows the clone's first training image and its description. The first ready clone is chosen
 * once the list has loaded; choosing another closes the list. Clones still training are shown with
 * their status and cannot be chosen. A failed load leaves the list empty without a dialog.
 */
export function IdentityPicker({
  projectId,
  value,
  onChange,
  disabled = false,
  label = "AI Clone",
}: IdentityPickerProps) {
  const { identities, isLoading, isLoaded } = useTrainedIdentities(projectId);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });

  // Default choice, and a fresh one when the chosen clone is no longer listed (another project).
  useEffect(() => {
    if (!isLoaded) return;
    const listed = value ? identities.find((identity) => identity.id === value.id) : undefined;
    if (listed && isSelectableIdentity(listed)) {
      if (listed !== value) onChange(listed);
      return;
    }
    const first = identities.find(isSelectableIdentity) ?? null;
    if (first?.id !== value?.id) onChange(first);
  }, [identities, isLoaded, value, onChange]);

  const empty = isLoaded && identities.length === 0;

  return (
    <Stack gap={4}>
      <Combobox
        store={combobox}
        withinPortal
        disabled={disabled}
        onOptionSubmit={(id) => {
          const chosen = identities.find((identity) => identity.id === id);
          if (chosen && isSelectableIdentity(chosen)) onChange(chosen);
          combobox.closeDropdown();
        }}
      >
        <Combobox.Target>
          <InputBase
            component="button"
            type="button"
            label={label}
            pointer
            disabled={disabled}
            multiline
            data-testid="identity-picker"
            rightSection={isLoading ? <Loader size={16} /> : <Combobox.Chevron />}
            rightSectionPointerEvents="none"
            onClick={() => combobox.toggleDropdown()}
          >
            {value ? (
              <IdentityLine identity={value} />
            ) : (
              <Input.Placeholder>
                {isLoading ? "Loading your AI Clones…" : empty ? "No AI Clones yet" : "Select an AI Clone"}
              </Input.Placeholder>
            )}
          </InputBase>
        </Combobox.Target>
        <Combobox.Dropdown>
          <Combobox.Options mah={320} style={{ overflowY: "auto" }}>
            {identities.length === 0 ? (
              <Combobox.Empty>{isLoading ? "Loading…" : "No AI Clones yet"}</Combobox.Empty>
            ) : (
              identities.map((identity) => (
                <Combobox.Option
                  key={identity.id}
                  value={identity.id}
                  disabled={!isSelectableIdentity(identity)}
                  active={identity.id === value?.id}
                  aria-label={`${identity.description} (${identity.identity_status})`}
                >
                  <IdentityLine identity={identity} />
                </Combobox.Option>
              ))
            )}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
      {empty ? (
        <Text size="xs" c="dimmed">
          Train one in{" "}
          <Anchor component={Link} to={pegasusTrainingFeature.playgroundRoute} size="xs">
            New AI Cloning
          </Anchor>
          .
        </Text>
      ) : null}
    </Stack>
  );
}
