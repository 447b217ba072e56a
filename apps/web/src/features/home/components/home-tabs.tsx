import { Tabs } from "@mantine/core";
import { REQUESTS_PAGE_TITLE } from "@prism/contract";
import { IconChartBar, IconListDetails } from "@tabler/icons-react";
import { useLocation, useNavigate } from "react-router";
import { PATHS } from "../../../lib/paths";

/** Home's two views, each its own route so a view can be linked to and reloaded. */
export function HomeTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Tabs
      value={pathname === PATHS.homeRequests ? PATHS.homeRequests : PATHS.home}
      onChange={(value) => {
        if (value && value !== pathname) void navigate(value);
      }}
      mb="md"
    >
      <Tabs.List aria-label="Home views">
        <Tabs.Tab value={PATHS.home} leftSection={<IconChartBar size={16} aria-hidden />}>
          Usage
        </Tabs.Tab>
        <Tabs.Tab value={PATHS.homeRequests} leftSection={<IconListDetails size={16} aria-hidden />}>
          {REQUESTS_PAGE_TITLE}
        </Tabs.Tab>
      </Tabs.List>
    </Tabs>
  );
}
