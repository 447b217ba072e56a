import { Button, Group } from "@mantine/core";
import {
  EXPORT_CSV_LABEL,
  EXPORT_SUMMARY_LABEL,
  USAGE_EXPORT_PATH,
  USAGE_SUMMARY_EXPORT_PATH,
  usageExportFileName,
  usageExportSearch,
} from "@prism/contract";
import { IconDownload } from "@tabler/icons-react";
import type { YearMonth } from "../lib/usage";

/**
 * "Export CSV" on the home page: the selected month's calls of the selected projects, one row each,
 * and beside it the month per day and feature. Plain download links: the browser sends the session
 * cookie and saves the file as the server streams it, so no month is ever held in the page either. Both
 * are the same kind of button: two downloads of equal standing, not a primary action and a link.
 */
export function ExportCsvButtons({ month, projectIds }: { month: YearMonth; projectIds: readonly string[] }) {
  if (projectIds.length === 0) return null;
  const search = usageExportSearch(month.year, month.month, projectIds);
  const monthText = `${month.year}-${String(month.month).padStart(2, "0")}`;
  return (
    <Group gap="xs">
      <Button
        component="a"
        variant="default"
        href={`${USAGE_EXPORT_PATH}?${search}`}
        download={usageExportFileName(monthText, "calls")}
        leftSection={<IconDownload size={16} aria-hidden />}
      >
        {EXPORT_CSV_LABEL}
      </Button>
      <Button
        component="a"
        variant="default"
        href={`${USAGE_SUMMARY_EXPORT_PATH}?${search}`}
        download={usageExportFileName(monthText, "summary")}
        leftSection={<IconDownload size={16} aria-hidden />}
      >
        {EXPORT_SUMMARY_LABEL}
      </Button>
    </Group>
  );
}
