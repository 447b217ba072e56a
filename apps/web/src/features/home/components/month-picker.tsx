import "@mantine/dates/styles.css";
import { ActionIcon, Group } from "@mantine/core";
import { MonthPickerInput } from "@mantine/dates";
import { IconCalendarMonth, IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import { formatMonth, MONTH_FORMAT } from "../../../lib/format";
import { formatYearMonth, shiftMonth, type YearMonth } from "../lib/usage";

/**
 * The home page's month picker, which drives the whole page (chart, table, pie and exports), shown in
 * the console's month format ("Nov 2026").
 */
export function MonthPicker({
  value,
  onChange,
  label,
  maxMonth,
}: {
  value: YearMonth;
  onChange: (value: YearMonth) => void;
  /** Accessible name, distinct per picker. */
  label: string;
  maxMonth: YearMonth;
}) {
  const atMax = value.year * 12 + value.month >= maxMonth.year * 12 + maxMonth.month;
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        variant="default"
        size={36}
        onClick={() => onChange(shiftMonth(value, -1))}
        aria-label={`${label}: previous month`}
      >
        <IconChevronLeft size={16} aria-hidden />
      </ActionIcon>
      <MonthPickerInput
        aria-label={`${label}: ${formatMonth(value)}`}
        value={`${formatYearMonth(value)}-01`}
        valueFormat={MONTH_FORMAT}
        maxDate={`${formatYearMonth(maxMonth)}-01`}
        leftSection={<IconCalendarMonth size={16} aria-hidden />}
        onChange={(next) => {
          if (!next) return;
          const [year, month] = next.split("-").map(Number);
          if (year && month) onChange({ year, month });
        }}
        w={136}
        data-testid="month-picker"
      />
      <ActionIcon
        variant="default"
        size={36}
        onClick={() => onChange(shiftMonth(value, 1))}
        disabled={atMax}
        aria-label={`${label}: next month`}
      >
        <IconChevronRight size={16} aria-hidden />
      </ActionIcon>
    </Group>
  );
}
