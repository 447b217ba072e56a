import { Alert, Button, Group, Modal, Stack, Text, Textarea } from "@mantine/core";
import {
  CHANGES_SAVED,
  ERROR_DIALOGS,
  type Member,
  type Permissions,
  type Project,
  parseEmailList,
} from "@prism/contract";
import { IconCrown, IconInfoCircle } from "@tabler/icons-react";
import { useState } from "react";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { useChangeOwner } from "../api/change-owner";
import { useEditPermissions } from "../api/edit-permissions";
import { useInviteMembers } from "../api/invite-members";
import { deselectAll, initialPermissions, selectAll } from "../lib/permission-editor";
import { PermissionEditor } from "./permission-editor";

export const PERMISSIONS_DIALOG_TITLE = "Invite Members or Permissions";

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
  canTransferOwnership,
  onClose,
}: {
  target: PermissionsDialogTarget;
  organizationId: string;
  organizationName: string;
  projects: readonly Project[];
  canTransferOwnership: boolean;
  onClose: () => void;
}) {
  const projectIds = projects.map((project) => project.id);
  const [permissions, setPermissions] = useState<Permissions>(() =>
    initialPermissions(target.kind === "edit" ? target.member.permissions : null, projectIds),
  );
  const [emails, setEmails] = useState("");
  const [emailsInvalid, setEmailsInvalid] = useState(false);
  const invite = useInviteMembers();
  const edit = useEditPermissions();
  const changeOwner = useChangeOwner();
  const busy = invite.isPending || edit.isPending || changeOwner.isPending;

  const sendInvites = () => {
    const emailList = parseEmailList(emails);
    // Spec 000 §5: an empty list or a malformed address sends nothing and shows no message; the field
    // is only outlined so the user sees where to look.
    if (!emailList) {
      setEmailsInvalid(true);
      return;
    }
    invite.mutate(
      { organizationId, emailList: emailList.join(" "), permissions },
      {
        onSuccess: () => {
          notify(CHANGES_SAVED);
          onClose();
        },
        // Spec 000 §8: a failed invite shows the members dialog ("Failed to Retrieve Members").
        onError: (error) => void showErrorDialog(ERROR_DIALOGS.retrieveMembers, error),
      },
    );
  };

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
          value={emails}
          error={emailsInvalid}
          onChange={(event) => {
            setEmails(event.currentTarget.value);
            setEmailsInvalid(false);
          }}
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

      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>
            Permissions
          </Text>
          <Group gap={4}>
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => setPermissions(selectAll(projectIds))}
              disabled={busy}
            >
              Select All
            </Button>
            <Button
              variant="subtle"
              size="compact-sm"
              color="gray"
              onClick={() => setPermissions(deselectAll(projectIds))}
              disabled={busy}
            >
              Deselect All
            </Button>
          </Group>
        </Group>
        <PermissionEditor value={permissions} projects={projects} onChange={setPermissions} disabled={busy} />
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
            <Button onClick={sendInvites} loading={invite.isPending}>
              Send Invites
            </Button>
          )}
        </Group>
      </Group>
    </Stack>
  );
}

/** The "Invite Members or Permissions" dialog of spec 000 §2. */
export function PermissionsDialog({
  target,
  onClose,
  ...rest
}: {
  target: PermissionsDialogTarget | null;
  organizationId: string;
  organizationName: string;
  projects: readonly Project[];
  canTransferOwnership: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened={target !== null} onClose={onClose} title={PERMISSIONS_DIALOG_TITLE} size="lg" centered>
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
