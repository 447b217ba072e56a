import {
  Avatar,
  Badge,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from "@mantine/core";
import {
  EDIT_OWN_PERMISSIONS_REFUSED,
  ERROR_DIALOGS,
  hasPermission,
  type Invitation,
  LEAVE_ORGANIZATION_REFUSED,
  type Member,
  memberKeysRevokedText,
  OWN_OWNER_ROW_NOTE,
  OWNER_PERMISSIONS_FIXED,
  OWNER_ROW_NOTE,
  type Project,
  summarizePermissions,
} from "@prism/contract";
import { IconAlertTriangle, IconMailForward, IconUserPlus } from "@tabler/icons-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { EmailAddress } from "../../../components/email-address";
import { NoOrganizationSelected } from "../../../components/empty-state";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal } from "../../../components/overlays/modals";
import { PageHeader } from "../../../components/page-header";
import { type ResponsiveColumn, ResponsiveTable } from "../../../components/responsive-table";
import { isApiError } from "../../../lib/api-client";
import { PATHS } from "../../../lib/paths";
import { useCan } from "../../../lib/permissions";
import { useSession, useUserInfo } from "../../../lib/session";
import { useMembers } from "../api/get-members";
import { useRemoveMember } from "../api/remove-member";
import { useRevokeInvitation } from "../api/revoke-invitation";
import { useInvitationFlow } from "./invitation-flow";
import { memberDisplayName, PermissionsDialog, type PermissionsDialogTarget } from "./permissions-dialog";

function initialsOf(member: Member): string {
  const initials = `${member.firstName.trim().charAt(0)}${member.lastName.trim().charAt(0)}`;
  return (initials || member.email.charAt(0)).toUpperCase();
}

function SectionCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder component="section" aria-label={title} style={{ overflow: "hidden" }}>
      <Stack gap={2} px="lg" py="md" style={{ borderBottom: "1px solid var(--prism-border)" }}>
        <Title order={3} fz="md">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </Stack>
      {children}
    </Paper>
  );
}

function MemberIdentity({ member, isYou, isOwner }: { member: Member; isYou: boolean; isOwner: boolean }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar color={isOwner ? "orange" : "prism"} radius="xl" size={34} style={{ flexShrink: 0 }}>
        {initialsOf(member)}
      </Avatar>
      <Group gap={6} miw={0}>
        <Text size="sm" fw={500} style={{ overflowWrap: "anywhere" }}>
          {memberDisplayName(member)}
        </Text>
        {isYou ? (
          <Badge variant="light" color="prism" size="sm" style={{ flexShrink: 0 }}>
            You
          </Badge>
        ) : null}
        {isOwner ? (
          <Badge variant="light" color="orange" size="sm" style={{ flexShrink: 0 }}>
            Owner
          </Badge>
        ) : null}
      </Group>
    </Group>
  );
}

function MemberActions({
  member,
  onEdit,
  onRemove,
}: {
  member: Member;
  onEdit: (member: Member) => void;
  onRemove: (member: Member) => void;
}) {
  const userInfo = useUserInfo();
  const canEdit = useCan("members.edit");
  const canDelete = useCan("members.delete");
  const isYou = member.id === userInfo.id;
  const isOwner = member.permissions.owner === true;
  // The server refuses changing the owner's rights and one's own: the button says why instead.
  const editRefusal = isOwner ? OWNER_PERMISSIONS_FIXED : isYou ? EDIT_OWN_PERMISSIONS_REFUSED : null;
  const showsEdit = canEdit;
  const showsRemove = canDelete || isYou;
  // Greyed-out buttons also say why under them, for touch screens (no tooltips) and for everyone.
  const note =
    (showsEdit && editRefusal) || (showsRemove && isOwner)
      ? isOwner
        ? isYou
          ? OWN_OWNER_ROW_NOTE
          : OWNER_ROW_NOTE
        : EDIT_OWN_PERMISSIONS_REFUSED
      : null;
  const noteId = useId();
  return (
    <Stack gap={4} align="flex-end">
      <Group gap="xs" justify="flex-end" wrap="nowrap">
        {showsEdit ? (
          <Tooltip label={editRefusal} disabled={!editRefusal} withArrow multiline w={240}>
            <span>
              <Button
                variant="default"
                size="xs"
                disabled={editRefusal !== null}
                onClick={() => onEdit(member)}
                aria-label={`Edit permissions of ${memberDisplayName(member)}`}
                aria-describedby={editRefusal !== null && note ? noteId : undefined}
              >
                Edit permissions
              </Button>
            </span>
          </Tooltip>
        ) : null}
        {showsRemove ? (
          <Tooltip
            label={isYou ? LEAVE_ORGANIZATION_REFUSED : "The owner cannot be removed"}
            disabled={!isOwner}
            withArrow
            multiline
            w={280}
          >
            <span>
              <Button
                variant="light"
                color="red"
                size="xs"
                disabled={isOwner}
                onClick={() => onRemove(member)}
                aria-label={isYou ? "Leave" : `Remove ${memberDisplayName(member)}`}
                aria-describedby={isOwner && note ? noteId : undefined}
              >
                {isYou ? "Leave" : "Remove"}
              </Button>
            </span>
          </Tooltip>
        ) : null}
      </Group>
      {note ? (
        <Text id={noteId} size="xs" c="dimmed" ta="right" maw={300} data-testid="member-actions-note">
          {note}
        </Text>
      ) : null}
    </Stack>
  );
}

/** Name, email, a few words on each member's rights, and the actions; stacked cards on a phone. */
function MembersTable({
  members,
  projects,
  onEdit,
  onRemove,
}: {
  members: readonly Member[];
  projects: readonly Project[];
  onEdit: (member: Member) => void;
  onRemove: (member: Member) => void;
}) {
  const userInfo = useUserInfo();
  const projectIds = projects.map((project) => project.id);
  const columns: ResponsiveColumn<Member>[] = [
    {
      key: "name",
      header: "Name",
      phone: "title",
      cell: (member) => (
        <MemberIdentity
          member={member}
          isYou={member.id === userInfo.id}
          isOwner={member.permissions.owner === true}
        />
      ),
    },
    {
      key: "email",
      header: "Email",
      phone: "wide-field",
      cell: (member) => <EmailAddress email={member.email} c="dimmed" />,
    },
    {
      key: "access",
      header: "Access",
      phone: "wide-field",
      cell: (member) => (
        <Text size="sm" data-testid="member-access">
          {summarizePermissions(member.permissions, projectIds)}
        </Text>
      ),
    },
    {
      key: "actions",
      header: "Actions",
      align: "right",
      phone: "footer",
      cell: (member) => <MemberActions member={member} onEdit={onEdit} onRemove={onRemove} />,
    },
  ];
  return (
    <ResponsiveTable
      label="Members"
      columns={columns}
      rows={members}
      rowKey={(member) => member.id}
      rowProps={(member) => ({ "data-testid": `member-${member.email}` })}
      minWidth={760}
      tableProps={{ highlightOnHover: true }}
    />
  );
}

function InvitationsTable({
  invitations,
  canRevoke,
  onRevoke,
}: {
  invitations: readonly Invitation[];
  canRevoke: boolean;
  onRevoke: (invitation: Invitation) => void;
}) {
  const columns: ResponsiveColumn<Invitation>[] = [
    {
      key: "email",
      header: "Email",
      phone: "title",
      cell: (invitation) => (
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color="gray" radius="xl" size={30} style={{ flexShrink: 0 }}>
            <IconMailForward size={16} aria-hidden />
          </ThemeIcon>
          <Group gap={6} miw={0}>
            <EmailAddress email={invitation.email} />
            <Badge variant="dot" color="yellow" size="sm" style={{ flexShrink: 0 }}>
              Pending
            </Badge>
          </Group>
        </Group>
      ),
    },
    {
      key: "actions",
      header: "Actions",
      align: "right",
      phone: "footer",
      cell: (invitation) => (
        <Group justify="flex-end">
          <Button
            variant="light"
            color="red"
            size="xs"
            disabled={!canRevoke}
            onClick={() => onRevoke(invitation)}
            aria-label={`Revoke the invitation of ${invitation.email}`}
          >
            Revoke
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <ResponsiveTable
      label="Pending Invitations"
      columns={columns}
      rows={invitations}
      rowKey={(invitation) => invitation.id}
    />
  );
}

function MembersSkeleton() {
  return (
    <Stack gap="md" p="lg" aria-label="Loading members" role="status">
      {[0, 1, 2].map((row) => (
        <Group key={row} gap="sm" wrap="nowrap">
          <Skeleton circle height={34} />
          <Skeleton height={12} width="30%" />
          <Skeleton height={12} width="25%" ml="auto" />
        </Group>
      ))}
    </Stack>
  );
}

function OrganizationMembers({
  organizationId,
  organizationName,
}: {
  organizationId: string;
  organizationName: string;
}) {
  const userInfo = useUserInfo();
  const navigate = useNavigate();
  const { selectedOrganization } = useSession();
  const isOwner = hasPermission(selectedOrganization?.permissions, "owner");
  const canInvite = useCan("members.invite");
  const members = useMembers(organizationId);
  const removeMember = useRemoveMember();
  const revokeInvitation = useRevokeInvitation();
  const [dialogTarget, setDialogTarget] = useState<PermissionsDialogTarget | null>(null);

  // A failed list shows "Failed to Retrieve Members" (a 401 signs out instead), once per failure.
  const reportedError = useRef<unknown>(null);
  useEffect(() => {
    if (!members.error || reportedError.current === members.error) return;
    reportedError.current = members.error;
    void showErrorDialog(ERROR_DIALOGS.retrieveMembers, members.error);
  }, [members.error]);

  const remove = async (member: Member) => {
    const isYou = member.id === userInfo.id;
    const keysRevoked = memberKeysRevokedText(member.apiKeyCount, isYou);
    const confirmed = await openConfirmModal({
      title: isYou ? "Leave Organization" : "Remove Member",
      message: (
        <>
          {isYou ? (
            <Text size="sm">
              Are you sure you want to leave <b>{organizationName}</b>? You will lose access to its projects
              until you are invited again.
            </Text>
          ) : (
            <Text size="sm">
              Are you sure you want to remove <b>{memberDisplayName(member)}</b> from{" "}
              <b>{organizationName}</b>?
            </Text>
          )}
          {keysRevoked && (
            <Text size="sm" mt="sm" c="red.7" data-testid="member-keys-revoked">
              {keysRevoked}
            </Text>
          )}
        </>
      ),
      variant: "delete",
    });
    if (!confirmed) return;
    removeMember.mutate(
      { organizationId, userIdToRemove: member.id },
      {
        onSuccess: () => {
          if (isYou) navigate(PATHS.home);
        },
        onError: (error) => void showErrorDialog(ERROR_DIALOGS.removeUser, error),
      },
    );
  };

  const revoke = async (invitation: Invitation) => {
    const confirmed = await openConfirmModal({
      title: "Revoke Invitation",
      message: (
        <Text size="sm">
          Revoke the invitation sent to <b>{invitation.email}</b>? Its link will stop working.
        </Text>
      ),
      variant: "delete",
    });
    if (!confirmed) return;
    revokeInvitation.mutate(
      { organizationId, invitationId: invitation.id },
      { onError: (error) => void showErrorDialog(ERROR_DIALOGS.revokeInvitation, error) },
    );
  };

  const data = members.data;
  return (
    <>
      <PageHeader
        title="Members"
        description={
          <>
            People in <b>{organizationName}</b>, their permissions and pending invitations.
          </>
        }
        actions={
          canInvite ? (
            <Button
              leftSection={<IconUserPlus size={16} aria-hidden />}
              onClick={() => setDialogTarget({ kind: "invite" })}
              disabled={!data}
            >
              Invite
            </Button>
          ) : null
        }
      />
      <Stack gap="lg">
        <SectionCard title="Members" description="Everyone with access to this organization.">
          {members.isPending ? (
            <MembersSkeleton />
          ) : data ? (
            <MembersTable
              members={data.members}
              projects={data.projects}
              onEdit={(member) => setDialogTarget({ kind: "edit", member })}
              onRemove={(member) => void remove(member)}
            />
          ) : (
            <Stack align="center" gap="xs" py={40} ta="center" role="alert">
              <ThemeIcon variant="light" color="red" radius="xl" size={40}>
                <IconAlertTriangle size={20} aria-hidden />
              </ThemeIcon>
              <Text fw={600}>{ERROR_DIALOGS.retrieveMembers.title}</Text>
              <Text size="sm" c="dimmed">
                {isApiError(members.error) && members.error.status === 403
                  ? "You do not have permission to see the members of this organization."
                  : "The members could not be loaded."}
              </Text>
              <Button variant="default" size="xs" mt="xs" onClick={() => void members.refetch()}>
                Try again
              </Button>
            </Stack>
          )}
        </SectionCard>
        {data && data.invitations.length > 0 ? (
          <SectionCard title="Pending Invitations" description="Invitations that have not been accepted yet.">
            <InvitationsTable
              invitations={data.invitations}
              canRevoke={canInvite}
              onRevoke={(invitation) => void revoke(invitation)}
            />
          </SectionCard>
        ) : null}
      </Stack>
      {data ? (
        <PermissionsDialog
          target={dialogTarget}
          organizationId={organizationId}
          organizationName={organizationName}
          projects={data.projects}
          actingPermissions={selectedOrganization?.permissions ?? null}
          canTransferOwnership={isOwner}
          onClose={() => setDialogTarget(null)}
        />
      ) : null}
    </>
  );
}

/** /organization/members, which also runs the invitation flow (accepting an invitation link). */
export function MembersPage() {
  useInvitationFlow();
  const { selectedOrganization } = useSession();
  if (!selectedOrganization) {
    return (
      <>
        <PageHeader title="Members" />
        <NoOrganizationSelected>
          Create an organization from the picker in the top bar, or accept an invitation to join one.
        </NoOrganizationSelected>
      </>
    );
  }
  return (
    <OrganizationMembers
      key={selectedOrganization.id}
      organizationId={selectedOrganization.id}
      organizationName={selectedOrganization.name}
    />
  );
}
