import { Menu, Text, UnstyledButton } from "@mantine/core";
import { IconBuilding, IconCheck, IconFolder, IconPlus, IconSelector } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import { PATHS } from "../../lib/paths";
import { useCan } from "../../lib/permissions";
import { useSession } from "../../lib/session";
import { useCreateOrganization, useCreateProject } from "./create-flows";
import classes from "./shell.module.css";

interface PickerOption {
  id: string;
  name: string;
}

function Picker({
  kind,
  icon,
  current,
  options,
  emptyLabel,
  createLabel,
  onSelect,
  onCreate,
  disabled,
}: {
  kind: string;
  icon: ReactNode;
  current: PickerOption | null;
  options: readonly PickerOption[];
  emptyLabel: string;
  createLabel: string;
  onSelect: (id: string) => void;
  /** Absent when the user may not create one (the server would refuse). */
  onCreate?: () => void;
  disabled?: boolean;
}) {
  return (
    <Menu position="bottom-start" width={260} withinPortal disabled={disabled}>
      <Menu.Target>
        <UnstyledButton
          className={classes.picker}
          aria-label={`${kind}: ${current?.name ?? emptyLabel}. Change ${kind.toLowerCase()}`}
          disabled={disabled}
        >
          <span className={classes.pickerIcon}>{icon}</span>
          <span className={classes.pickerText}>
            <Text span size="xs" c="dimmed" className={classes.pickerKind}>
              {kind}
            </Text>{" "}
            <Text span size="sm" fw={500} truncate="end" className={classes.pickerName}>
              {current?.name ?? emptyLabel}
            </Text>
          </span>
          <IconSelector size={14} stroke={1.6} aria-hidden className={classes.pickerChevron} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{kind === "Organization" ? "Your organizations" : "Projects"}</Menu.Label>
        {options.length === 0 ? (
          <Menu.Item disabled>
            <Text size="sm" c="dimmed">
              {emptyLabel}
            </Text>
          </Menu.Item>
        ) : null}
        {options.map((option) => (
          <Menu.Item
            key={option.id}
            onClick={() => onSelect(option.id)}
            rightSection={option.id === current?.id ? <IconCheck size={14} aria-label="Selected" /> : null}
            fw={option.id === current?.id ? 600 : undefined}
          >
            <Text span size="sm" truncate="end" display="block" maw={190}>
              {option.name}
            </Text>
          </Menu.Item>
        ))}
        {onCreate ? (
          <>
            <Menu.Divider />
            <Menu.Item leftSection={<IconPlus size={14} aria-hidden />} onClick={onCreate} c="prism.7">
              {createLabel}
            </Menu.Item>
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Selecting an organization selects its first project and goes to /home. */
export function OrganizationPicker() {
  const { userInfo, selectedOrganization, selectOrganization } = useSession();
  const navigate = useNavigate();
  const createOrganization = useCreateOrganization();
  return (
    <Picker
      kind="Organization"
      icon={<IconBuilding size={16} stroke={1.6} aria-hidden style={{ display: "block" }} />}
      current={selectedOrganization}
      options={userInfo?.organizations ?? []}
      emptyLabel="No organization"
      createLabel="Create organization"
      onSelect={(id) => {
        selectOrganization(id);
        navigate(PATHS.home);
      }}
      onCreate={() => void createOrganization()}
    />
  );
}

/**
 * Selecting a project goes to /home. Creating one needs organization.general (the owner
 * holds it), as the server requires; others are not offered it.
 */
export function ProjectPicker() {
  const { selectedOrganization, selectedProject, selectProject } = useSession();
  const navigate = useNavigate();
  const createProject = useCreateProject();
  const canCreateProject = useCan("organization.general");
  return (
    <Picker
      kind="Project"
      icon={<IconFolder size={16} stroke={1.6} aria-hidden style={{ display: "block" }} />}
      current={selectedProject}
      options={selectedOrganization?.projects ?? []}
      emptyLabel="No project"
      createLabel="Create project"
      disabled={!selectedOrganization}
      onSelect={(id) => {
        selectProject(id);
        navigate(PATHS.home);
      }}
      onCreate={canCreateProject ? () => void createProject() : undefined}
    />
  );
}
