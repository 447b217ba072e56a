import { Checkbox, Divider, SimpleGrid, Stack, Text, Tooltip, VisuallyHidden } from "@mantine/core";
import { GRANT_NOT_HELD, type Permissions, type Project } from "@prism/contract";
import { type ReactElement, useId } from "react";
import {
  type Grantable,
  isProjectLocked,
  PERMISSION_GROUPS,
  setToggle,
  withAllProjects,
  withProject,
} from "../lib/permission-editor";

/** A box the acting member may not grant: disabled, with the reason on hover and focus. */
function WithRefusal({ refused, children }: { refused: boolean; children: ReactElement }) {
  if (!refused) return children;
  return (
    <Tooltip
      label={GRANT_NOT_HELD}
      withArrow
      multiline
      w={220}
      events={{ hover: true, focus: true, touch: true }}
    >
      <div data-refused="true">{children}</div>
    </Tooltip>
  );
}

/**
 * The permission checkboxes of the "Invite Members or Permissions" dialog. Controlled: every change
 * hands the whole new tree to `onChange`. While All Projects is on, every project is on and locked.
 * Boxes for rights the acting member does not hold are disabled, since the server refuses granting them.
 */
export function PermissionEditor({
  value,
  projects,
  grantable,
  onChange,
  disabled = false,
}: {
  value: Permissions;
  projects: readonly Project[];
  grantable: Grantable;
  onChange: (permissions: Permissions) => void;
  disabled?: boolean;
}) {
  const projectIds = projects.map((project) => project.id);
  const locked = isProjectLocked(value);
  // Every refused box points at this one hidden sentence, read out with the box.
  const refusalId = useId();
  const describedBy = (refused: boolean) => (refused ? refusalId : undefined);

  return (
    <Stack gap="md">
      <VisuallyHidden id={refusalId}>{GRANT_NOT_HELD}</VisuallyHidden>
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
              const refused = !grantable.flag(toggle);
              return (
                <WithRefusal key={toggle.key} refused={refused}>
                  <Checkbox
                    label={toggle.label}
                    description={toggle.description}
                    aria-label={`${group.label}: ${toggle.label}`}
                    aria-describedby={describedBy(refused)}
                    checked={checked}
                    disabled={disabled || refused}
                    onChange={(event) => onChange(setToggle(value, toggle, event.currentTarget.checked))}
                  />
                </WithRefusal>
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
          <WithRefusal refused={!grantable.allProjects}>
            <Checkbox
              label="All Projects"
              description="Includes every current and future project of the organization."
              aria-describedby={describedBy(!grantable.allProjects)}
              checked={value.projects.all}
              disabled={disabled || !grantable.allProjects}
              onChange={(event) => onChange(withAllProjects(value, event.currentTarget.checked, projectIds))}
            />
          </WithRefusal>
          {projects.length > 0 ? (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing={8} pl={30}>
              {projects.map((project) => {
                const refused = !grantable.project(project.id);
                return (
                  <WithRefusal key={project.id} refused={refused && !locked}>
                    <Checkbox
                      label={project.name}
                      aria-label={`Project: ${project.name}`}
                      aria-describedby={describedBy(refused)}
                      checked={locked || value.projects[project.id] === true}
                      disabled={disabled || locked || refused}
                      onChange={(event) =>
                        onChange(withProject(value, project.id, event.currentTarget.checked))
                      }
                    />
                  </WithRefusal>
                );
              })}
            </SimpleGrid>
          ) : null}
        </Stack>
      </fieldset>
    </Stack>
  );
}
