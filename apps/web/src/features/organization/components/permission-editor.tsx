import { Checkbox, Divider, SimpleGrid, Stack, Text } from "@mantine/core";
import type { Permissions, Project } from "@prism/contract";
import {
  isProjectLocked,
  PERMISSION_GROUPS,
  setToggle,
  withAllProjects,
  withProject,
} from "../lib/permission-editor";

/**
 * The permission checkboxes of the "Invite Members or Permissions" dialog. Controlled: every change
 * hands the whole new tree to `onChange`. While All Projects is on, every project is on and locked.
 */
export function PermissionEditor({
  value,
  projects,
  onChange,
  disabled = false,
}: {
  value: Permissions;
  projects: readonly Project[];
  onChange: (permissions: Permissions) => void;
  disabled?: boolean;
}) {
  const projectIds = projects.map((project) => project.id);
  const locked = isProjectLocked(value);

  return (
    <Stack gap="md">
      {PERMISSION_GROUPS.map((group) => (
        <fieldset
          key={group.key}
          style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}
          disabled={disabled}
        >
          <Text component="legend" size="xs" fw={700} tt="uppercase" c="dimmed" mb={8} lts="0.04em">
            {group.label}
          </Text>
          <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs" verticalSpacing={8}>
            {group.toggles.map((toggle) => {
              const checked = (value[toggle.group] as Record<string, boolean>)[toggle.key] === true;
              return (
                <Checkbox
                  key={toggle.key}
                  label={toggle.label}
                  aria-label={`${group.label}: ${toggle.label}`}
                  checked={checked}
                  disabled={disabled}
                  onChange={(event) => onChange(setToggle(value, toggle, event.currentTarget.checked))}
                />
              );
            })}
          </SimpleGrid>
        </fieldset>
      ))}
      <Divider />
      <fieldset style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }} disabled={disabled}>
        <Text component="legend" size="xs" fw={700} tt="uppercase" c="dimmed" mb={8} lts="0.04em">
          Projects
        </Text>
        <Stack gap={8}>
          <Checkbox
            label="All Projects"
            description="Includes every current and future project of the organization."
            checked={value.projects.all}
            disabled={disabled}
            onChange={(event) => onChange(withAllProjects(value, event.currentTarget.checked, projectIds))}
          />
          {projects.length > 0 ? (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing={8} pl={30}>
              {projects.map((project) => (
                <Checkbox
                  key={project.id}
                  label={project.name}
                  aria-label={`Project: ${project.name}`}
                  checked={locked || value.projects[project.id] === true}
                  disabled={disabled || locked}
                  onChange={(event) => onChange(withProject(value, project.id, event.currentTarget.checked))}
                />
              ))}
            </SimpleGrid>
          ) : null}
        </Stack>
      </fieldset>
    </Stack>
  );
}
