import "@mantine/dates/styles.css";
import { ActionIcon, Group } from "@mantine/core";
import { MonthPickerInput } from "@mantine/dates";
import { IconCalendarMonth, IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import { formatYearMonth, shiftMonth, type YearMonth } from "../lib/usage";

/**
 * One of the home page's three month pickers, shown as Y-m. All three are controlled by the
 * same month, so changing any of them moves the others.
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
        aria-label={label}
        value={`${formatYearMonth(value)}-01`}
        valueFormat="YYYY-MM"
        maxDate={`${formatYearMonth(maxMonth)}-01`}
        leftSection={<IconCalendarMonth size={16} aria-hidden />}
        onChange={(next) => {
          if (!next) return;
          const [year, month] = next.split("-").map(Number);
          if (year && month) onChange({ year, month });
        }}
        w={130}
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
