import { Avatar, Burger, Button, Group, Menu, Text, UnstyledButton } from "@mantine/core";
import { LOGOUT_CONFIRM } from "@prism/contract";
import { IconBook, IconChevronDown, IconLogout, IconUser } from "@tabler/icons-react";
import { Link, useNavigate } from "react-router";
import { BrandMark } from "../../components/brand-mark";
import { openConfirmModal } from "../../components/overlays/modals";
import { productName } from "../../lib/env";
import { formatUsd } from "../../lib/format";
import { PATHS } from "../../lib/paths";
import { useCan } from "../../lib/permissions";
import { useSession } from "../../lib/session";
import { OrganizationPicker, ProjectPicker } from "./pickers";
import classes from "./shell.module.css";

function BalanceDisplay() {
  const { selectedOrganization } = useSession();
  const canPay = useCan("organization.payments");
  if (!selectedOrganization) return null;
  const content = (
    <>
      <Text span size="xs" c="dimmed" fz={10} tt="uppercase" style={{ letterSpacing: "0.04em" }}>
        Balance
      </Text>{" "}
      <Text span size="sm" fw={600} ff="monospace" data-testid="balance">
        {formatUsd(selectedOrganization.balance)}
      </Text>
    </>
  );
  // Those who may pay get a shortcut to the payments page; others just read the figure.
  return canPay ? (
    <Link
      to={PATHS.organizationPayments}
      className={classes.balance}
      aria-label={`Balance ${formatUsd(selectedOrganization.balance)}. Open payments`}
    >
      {content}
    </Link>
  ) : (
    <div
      className={classes.balance}
      role="status"
      aria-label={`Balance ${formatUsd(selectedOrganization.balance)}`}
    >
      {content}
    </div>
  );
}

function initialsOf(firstName: string, lastName: string, email: string): string {
  const initials = `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`;
  return (initials || email.charAt(0)).toUpperCase();
}

function UserMenu() {
  const { userInfo, logout } = useSession();
  const navigate = useNavigate();
  if (!userInfo) return null;
  const fullName = `${userInfo.firstName} ${userInfo.lastName}`.trim() || userInfo.email;

  const confirmLogout = async () => {
    const confirmed = await openConfirmModal({
      title: "Logout",
      message: LOGOUT_CONFIRM,
    });
    if (confirmed) await logout();
  };

  return (
    <Menu position="bottom-end" width={240}>
      <Menu.Target>
        <UnstyledButton className={classes.userButton} aria-label={`Account menu for ${fullName}`}>
          <Avatar color="prism" radius="xl" size={32} aria-hidden>
            {/* Drawn from CSS, so the button's words are its name alone ("Ada Lovelace", in its label). */}
            <span
              className={classes.initials}
              data-initials={initialsOf(userInfo.firstName, userInfo.lastName, userInfo.email)}
            />
          </Avatar>
          <Text size="sm" fw={500} visibleFrom="sm" truncate="end" maw={160}>
            {fullName}
          </Text>
          <IconChevronDown size={14} stroke={1.6} aria-hidden className={classes.desktopOnly} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="dark" truncate="end">
            {fullName}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {userInfo.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item
          leftSection={<IconUser size={16} aria-hidden />}
          onClick={() => navigate(PATHS.settingsProfile)}
        >
          Your Profile
        </Menu.Item>
        {/* The top bar of a phone has no room for the Docs button. */}
        <Menu.Item
          component="a"
          href={PATHS.docs}
          target="_blank"
          rel="noopener noreferrer"
          leftSection={<IconBook size={16} aria-hidden />}
          hiddenFrom="sm"
        >
          API reference
        </Menu.Item>
        <Menu.Item
          leftSection={<IconLogout size={16} aria-hidden />}
          color="red"
          onClick={() => void confirmLogout()}
        >
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The top bar. On a phone it takes two rows: the menu, the balance and the account on the first, the
 * organization and project pickers side by side on the second, so their names stay readable.
 */
export function TopBar({
  navbarOpened,
  onToggleNavbar,
}: {
  navbarOpened: boolean;
  onToggleNavbar: () => void;
}) {
  return (
    <div className={classes.bar}>
      <Group gap="xs" wrap="nowrap" className={classes.lead}>
        <Burger
          opened={navbarOpened}
          onClick={onToggleNavbar}
          hiddenFrom="sm"
          size="sm"
          aria-label={navbarOpened ? "Close navigation" : "Open navigation"}
        />
        {/* The name starts with the words it shows ("Prism Console"), as speech input users say them. */}
        <Link to={PATHS.home} aria-label={`${productName()} Console, home`} className={classes.phoneBrand}>
          <BrandMark size="sm" />
        </Link>
      </Group>
      <div className={classes.pickers}>
        <OrganizationPicker />
        <span className={classes.separator} aria-hidden>
          /
        </span>
        <ProjectPicker />
      </div>
      <Group gap="sm" wrap="nowrap" className={classes.actions}>
        <BalanceDisplay />
        <Button
          component="a"
          href={PATHS.docs}
          target="_blank"
          rel="noopener noreferrer"
          variant="subtle"
          color="gray"
          c="gray.7"
          fw={500}
          leftSection={<IconBook size={16} aria-hidden />}
          visibleFrom="sm"
        >
          Docs
        </Button>
        <UserMenu />
      </Group>
    </div>
  );
}
