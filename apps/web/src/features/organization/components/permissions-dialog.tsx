import { Alert, Button, Group, Modal, Stack, Text, Textarea } from "@mantine/core";
import { schemaResolver, useForm } from "@mantine/form";
import {
  CHANGES_SAVED,
  EDIT_PERMISSIONS_TITLE,
  ERROR_DIALOGS,
  GRANT_NOT_HELD_NOTE,
  INVITE_MEMBERS_TITLE,
  inviteMembersRequest,
  type Member,
  matchingRolePreset,
  type Permissions,
  type Project,
  parseEmailList,
  ROLE_PRESETS,
} from "@prism/contract";
import { IconCrown, IconInfoCircle } from "@tabler/icons-react";
import { useId, useMemo, useState } from "react";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { useChangeOwner } from "../api/change-owner";
import { useEditPermissions } from "../api/edit-permissions";
import { useInviteMembers } from "../api/invite-members";
import {
  applyRolePreset,
  deselectAll,
  grantableBy,
  initialPermissions,
  keepUngrantable,
  PERMISSION_GROUPS,
  selectAll,
} from "../lib/permission-editor";
import { PermissionEditor } from "./permission-editor";

/** The invite's address list, as the invite call checks it. */
const inviteEmailsSchema = inviteMembersRequest.pick({ emailList: true });

/** What the dialog is open for: new invitations, or one existing member's rights. */
export type PermissionsDialogTarget = { kind: "invite" } | { kind: "edit"; member: Member };

export function memberDisplayName(member: Pick<Member, "firstName" | "lastName" | "email">): string {
  return `${member.firstName} ${member.lastName}`.trim() || member.email;
}

function DialogBody({
  target,
  organizationId,
  organizationName,
  projects,
  actingPermissions,
  canTransferOwnership,
  onClose,
}: {
  target: PermissionsDialogTarget;
  organizationId: string;
  organizationName: string;
  projects: readonly Project[];
  actingPermissions: Permissions | null;
  canTransferOwnership: boolean;
  onClose: () => void;
}) {
  const projectIds = projects.map((project) => project.id);
  const [permissions, setPermissions] = useState<Permissions>(() =>
    initialPermissions(target.kind === "edit" ? target.member.permissions : null, projectIds),
  );
  const grantable = useMemo(() => grantableBy(actingPermissions), [actingPermissions]);
  // Select All, Deselect All and the presets change only the boxes the acting member may grant.
  const fill = (next: Permissions) =>
    setPermissions(keepUngrantable(next, permissions, grantable, projectIds));
  const matchingPreset = matchingRolePreset(permissions, projectIds);
  const someRefused =
    !grantable.allProjects ||
    projectIds.some((id) => !grantable.project(id)) ||
    PERMISSION_GROUPS.some((group) => group.toggles.some((toggle) => !grantable.flag(toggle)));
  const presetsLabelId = useId();
  // The addresses are checked by the request's own schema (each an address, at most the limit). The
  // spec's invite shows no message for a bad list: the field is only outlined, until it is edited.
  const inviteForm = useForm({
    initialValues: { emailList: "" },
    validate: schemaResolver(inviteEmailsSchema, { sync: true }),
  });
  const invite = useInviteMembers();
  const edit = useEditPermissions();
  const changeOwner = useChangeOwner();
  const busy = invite.isPending || edit.isPending || changeOwner.isPending;

  const sendInvites = inviteForm.onSubmit(({ emailList }) => {
    const emails = parseEmailList(emailList) ?? [];
    invite.mutate(
      { organizationId, emailList: emails.join(" "), permissions },
      {
        onSuccess: () => {
          notify(CHANGES_SAVED);
          onClose();
        },
        // A failed invite shows the members dialog ("Failed to Retrieve Members").
        onError: (error) => void showErrorDialog(ERROR_DIALOGS.retrieveMembers, error),
      },
    );
  });

  const saveChanges = (member: Member) =>
    edit.mutate(
      { organizationId, memberUserId: member.id, permissions },
      {
        onSuccess: () => {
          notify(CHANGES_SAVED);
          onClose();
        },
        onError: (error) => void showErrorDialog(ERROR_DIALOGS.saveSettings, error),
      },
    );

  const transferOwnership = async (member: Member) => {
    const confirmed = await openConfirmModal({
      title: "Transfer Ownership",
      message: (
        <Text size="sm">
          Make <b>{memberDisplayName(member)}</b> the owner of <b>{organizationName}</b>? You keep every
          permission except ownership, and only the new owner can undo this.
        </Text>
      ),
      variant: "delete",
    });
    if (!confirmed) return;
    changeOwner.mutate(
      { organizationId, newOwnerUserId: member.id },
      {
        onSuccess: () => {
          notify(CHANGES_SAVED);
          onClose();
        },
        onError: (error) => void showErrorDialog(ERROR_DIALOGS.transferOwnership, error),
      },
    );
  };

  return (
    <Stack gap="lg">
      {target.kind === "invite" ? (
        <Textarea
          label="Email addresses"
          description="Each address receives a link to join the organization with the permissions below."
          placeholder="Emails separated by commas"
          rows={3}
          {...inviteForm.getInputProps("emailList")}
          error={Boolean(inviteForm.errors.emailList)}
          data-autofocus
        />
      ) : (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} aria-hidden />} p="sm">
          <Text size="sm">
            Permissions of <b>{memberDisplayName(target.member)}</b>{" "}
            <Text span c="dimmed" size="sm">
              ({target.member.email})
            </Text>
          </Text>
        </Alert>
      )}

      <Stack gap={6}>
        <Text size="sm" fw={600} id={presetsLabelId}>
          Start from a role
        </Text>
        <Group gap="xs" role="group" aria-labelledby={presetsLabelId}>
          {ROLE_PRESETS.map((preset) => {
            const active = matchingPreset?.id === preset.id;
            return (
              <Button
                key={preset.id}
                size="compact-sm"
                radius="xl"
                variant={active ? "light" : "default"}
                aria-pressed={active}
                onClick={() => setPermissions(applyRolePreset(preset, permissions, grantable, projectIds))}
                disabled={busy}
              >
                {preset.label}
              </Button>
            );
          })}
        </Group>
        <Text size="xs" c="dimmed" data-testid="role-preset-description">
          {matchingPreset
            ? `${matchingPreset.label}: ${matchingPreset.description}`
            : "Custom rights. A role fills the boxes below, which stay editable."}
        </Text>
      </Stack>

      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>
            Permissions
          </Text>
          <Group gap={4}>
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => fill(selectAll(projectIds))}
              disabled={busy}
            >
              Select All
            </Button>
            <Button
              variant="subtle"
              size="compact-sm"
              color="gray"
              onClick={() => fill(deselectAll(projectIds))}
              disabled={busy}
            >
              Deselect All
            </Button>
          </Group>
        </Group>
        {someRefused ? (
          <Text size="xs" c="dimmed" data-testid="grant-not-held-note">
            {GRANT_NOT_HELD_NOTE}
          </Text>
        ) : null}
        <PermissionEditor
          value={permissions}
          projects={projects}
          grantable={grantable}
          onChange={setPermissions}
          disabled={busy}
        />
      </Stack>

      <Group justify="space-between" gap="sm" pt="md" style={{ borderTop: "1px solid var(--prism-border)" }}>
        {target.kind === "edit" && canTransferOwnership ? (
          <Button
            variant="light"
            color="orange"
            leftSection={<IconCrown size={16} aria-hidden />}
            onClick={() => void transferOwnership(target.member)}
            loading={changeOwner.isPending}
            disabled={busy && !changeOwner.isPending}
          >
            Transfer Ownership
          </Button>
        ) : (
          <span />
        )}
        <Group gap="xs">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          {target.kind === "edit" ? (
            <Button
              onClick={() => saveChanges(target.member)}
              loading={edit.isPending}
              disabled={busy && !edit.isPending}
            >
              Save Changes
            </Button>
          ) : (
            <Button onClick={() => sendInvites()} loading={invite.isPending}>
              Send Invites
            </Button>
          )}
        </Group>
      </Group>
    </Stack>
  );
}

/**
 * The "Invite Members or Permissions" dialog; titled "Edit Permissions" when it edits
 * one member, so the title says what it does.
 */
export function PermissionsDialog({
  target,
  onClose,
  ...rest
}: {
  target: PermissionsDialogTarget | null;
  organizationId: string;
  organizationName: string;
  projects: readonly Project[];
  /** The rights of the member using the dialog: they grant only what they hold. */
  actingPermissions: Permissions | null;
  canTransferOwnership: boolean;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title={target?.kind === "edit" ? EDIT_PERMISSIONS_TITLE : INVITE_MEMBERS_TITLE}
      size="lg"
      centered
    >
      {target ? (
        <DialogBody
          key={target.kind === "edit" ? target.member.id : "invite"}
          target={target}
          onClose={onClose}
          {...rest}
        />
      ) : null}
    </Modal>
  );
}
