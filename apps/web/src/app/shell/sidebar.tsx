import { AppShell, Badge, CloseButton, Group, NavLink, ScrollArea, Tooltip } from "@mantine/core";
import {
  FEATURES,
  type FeatureId,
  featureLightingText,
  NEEDS_MODEL_SERVER_BADGE,
  UNAVAILABLE_BADGE,
} from "@prism/contract";
import {
  IconArrowsMaximize,
  IconBackground,
  IconBrain,
  IconBrush,
  IconBuilding,
  IconEraser,
  IconFaceId,
  IconFlask,
  IconFolders,
  IconHome,
  IconMicrophone,
  IconPhoto,
  IconSettings,
  IconSparkles,
  IconTypography,
  IconUserScan,
  IconWand,
  IconZoomIn,
} from "@tabler/icons-react";
import { type ComponentType, useEffect, useMemo, useState } from "react";
import { Link, useLocation } from "react-router";
import { BrandMark } from "../../components/brand-mark";
import { needsModelServer, useFeatureStatuses } from "../../features/playground/api/use-feature-status";
import { productName, useIsProduction } from "../../lib/env";
import { PATHS } from "../../lib/paths";
import { hasPermission, type PermissionPath, useCan } from "../../lib/permissions";
import { useSession } from "../../lib/session";
import { buildNavigation, type NavSection, sectionForPath } from "./navigation";

type Icon = ComponentType<{ size?: number; stroke?: number; "aria-hidden"?: boolean }>;

const SECTION_ICONS: Record<NavSection["key"], Icon> = {
  home: IconHome,
  organization: IconBuilding,
  projects: IconFolders,
  playground: IconFlask,
  settings: IconSettings,
};

const PLAYGROUND_ICONS: Record<string, Icon> = {
  "/playground/image-generation": IconPhoto,
  "/playground/pegasus-generation": IconSparkles,
  "/playground/pegasus-training": IconBrain,
  "/playground/generative-fill": IconBrush,
  "/playground/object-removal": IconEraser,
  "/playground/text-removal": IconTypography,
  "/playground/image-extension": IconArrowsMaximize,
  "/playground/image-background-removal": IconBackground,
  "/playground/image-upscaling": IconZoomIn,
  "/playground/speech-to-text": IconMicrophone,
  "/playground/face-swapping": IconFaceId,
  "/playground/reimagine": IconWand,
  "/playground/identity-inpainting": IconUserScan,
};

const FEATURE_OF_ROUTE: ReadonlyMap<string, (typeof FEATURES)[number]> = new Map(
  FEATURES.map((feature) => [feature.playgroundRoute, feature]),
);

/**
 * A playground entry's mark when the feature cannot run here, so nobody has to open it to find out.
 * It sits under the label, which keeps its full width.
 */
function UnavailableBadge({
  featureId,
  missingServer,
  reason,
}: {
  featureId: FeatureId;
  missingServer: boolean;
  reason: string | null;
}) {
  // "Needs a model server" and the variables that light it are for the owner, who may run the service;
  // members read "Unavailable".
  const isOwner = useCan("owner");
  const operator = missingServer && isOwner;
  const label = operator ? NEEDS_MODEL_SERVER_BADGE : UNAVAILABLE_BADGE;
  // A dark feature's badge says which variables light it; another's says why it cannot run now.
  const explanation = operator ? featureLightingText(featureId) : missingServer ? null : reason;
  return (
    <Tooltip label={explanation ?? label} withArrow multiline w={240} disabled={!explanation}>
      <Badge
        component="span"
        size="xs"
        variant="light"
        color={missingServer ? "orange" : "gray"}
        radius="sm"
        tt="none"
        fw={600}
        mt={2}
        data-testid="unavailable-badge"
        aria-label={label}
      >
        {label}
      </Badge>
    </Tooltip>
  );
}

export function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const { pathname } = useLocation();
  const { selectedOrganization } = useSession();
  const isProduction = useIsProduction();
  const canUsePlayground = hasPermission(
    selectedOrganization?.permissions ?? null,
    "organization.playground",
  );
  const statuses = useFeatureStatuses(canUsePlayground);

  const sections = useMemo(
    () =>
      buildNavigation({
        can: (permission: PermissionPath) =>
          hasPermission(selectedOrganization?.permissions ?? null, permission),
        isProduction,
        playground: FEATURES,
      }),
    [selectedOrganization, isProduction],
  );

  const [opened, setOpened] = useState<ReadonlySet<string>>(() => {
    const current = sectionForPath(sections, pathname);
    return new Set(current ? [current] : []);
  });

  // Arriving in another section (a link, the pickers, the back button) opens its submenu too.
  useEffect(() => {
    const current = sectionForPath(sections, pathname);
    if (current)
      setOpened((previous) => (previous.has(current) ? previous : new Set([...previous, current])));
  }, [sections, pathname]);

  const toggle = (key: string) =>
    setOpened((previous) => {
      const next = new Set(previous);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <>
      <AppShell.Section px="md" py={14} style={{ borderBottom: "1px solid var(--prism-border)" }}>
        <Group justify="space-between" wrap="nowrap">
          <Link
            to={PATHS.home}
            style={{ color: "inherit", textDecoration: "none" }}
            aria-label={`${productName()} Console, home`}
          >
            <BrandMark />
          </Link>
          <CloseButton hiddenFrom="sm" onClick={onNavigate} aria-label="Close navigation" />
        </Group>
      </AppShell.Section>
      <AppShell.Section grow component={ScrollArea} px="sm" py="md">
        <nav aria-label="Main">
          {sections.map((section) => {
            const SectionIcon = SECTION_ICONS[section.key];
            const icon = <SectionIcon size={18} stroke={1.7} aria-hidden />;
            if (!section.items) {
              return (
                <NavLink
                  key={section.key}
                  component={Link}
                  to={section.to ?? section.basePath}
                  label={section.label}
                  leftSection={icon}
                  // Home's views (Usage, Requests) are pages under /home.
                  active={pathname === section.to || pathname.startsWith(`${section.to}/`)}
                  onClick={onNavigate}
                  variant="light"
                  fw={500}
                  style={{ borderRadius: "var(--mantine-radius-md)" }}
                />
              );
            }
            return (
              <NavLink
                key={section.key}
                label={section.label}
                leftSection={icon}
                opened={opened.has(section.key)}
                onChange={() => toggle(section.key)}
                childrenOffset={28}
                fw={500}
                style={{ borderRadius: "var(--mantine-radius-md)" }}
              >
                {section.items.map((item) => {
                  const ItemIcon = section.key === "playground" ? PLAYGROUND_ICONS[item.to] : undefined;
                  const feature = section.key === "playground" ? FEATURE_OF_ROUTE.get(item.to) : undefined;
                  const status = feature ? statuses.get(feature.endpoint) : undefined;
                  return (
                    <NavLink
                      key={item.to}
                      component={Link}
                      to={item.to}
                      label={item.label}
                      leftSection={ItemIcon ? <ItemIcon size={16} stroke={1.6} aria-hidden /> : undefined}
                      description={
                        feature && status && !status.available ? (
                          <UnavailableBadge
                            featureId={feature.id}
                            missingServer={needsModelServer(status)}
                            reason={status.reason}
                          />
                        ) : undefined
                      }
                      active={pathname === item.to}
                      aria-current={pathname === item.to ? "page" : undefined}
                      onClick={onNavigate}
                      variant="light"
                      fz="sm"
                      style={{ borderRadius: "var(--mantine-radius-md)" }}
                    />
                  );
                })}
              </NavLink>
            );
          })}
        </nav>
      </AppShell.Section>
    </>
  );
}
