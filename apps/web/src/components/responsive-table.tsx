import { Box, Group, Skeleton, Stack, Table, type TableProps, Text } from "@mantine/core";
import type { HTMLAttributes, ReactNode } from "react";
import { useIsPhone } from "../lib/media";

export interface ResponsiveColumn<Row> {
  key: string;
  /** The column's header; on a phone, the label above the value. */
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  align?: "left" | "right";
  width?: number | string;
  /**
   * Where the cell goes on a phone's card: `title` on the first line, `aside` beside the title (small
   * actions), `footer` on a last line of its own (buttons), `field` as a labelled value (the default),
   * `wide-field` as a labelled value over the card's whole width (long text such as an email).
   */
  phone?: "title" | "aside" | "footer" | "field" | "wide-field";
}

type RowAttributes = HTMLAttributes<HTMLElement> & { [data: `data-${string}`]: string | undefined };

/**
 * A table on larger screens and a list of stacked cards on phones, so that no column, and above all no
 * action, hides behind a sideways scroll. Both carry the same label and row attributes, so tests and
 * assistive technology find the rows the same way at either size.
 */
export function ResponsiveTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  loadingRows = 3,
  minWidth,
  tableProps,
}: {
  label: string;
  columns: readonly ResponsiveColumn<Row>[];
  /** Undefined while loading: placeholder rows are shown. */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  rowProps?: (row: Row) => RowAttributes;
  loadingRows?: number;
  /** Between a phone and a wide screen (tablets), the table scrolls inside its box below this width. */
  minWidth?: number;
  tableProps?: Omit<TableProps, "children">;
}) {
  const isPhone = useIsPhone();
  if (isPhone) {
    return (
      <CardList
        label={label}
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        rowProps={rowProps}
        loadingRows={loadingRows}
      />
    );
  }
  const table = (
    <Table verticalSpacing="sm" horizontalSpacing="lg" aria-label={label} {...tableProps}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            // Headers keep to one line: a column is as wide as its header, never "Created / by".
            <Table.Th key={column.key} ta={column.align} w={column.width} style={{ whiteSpace: "nowrap" }}>
              {column.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows
          ? rows.map((row) => (
              <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
                {columns.map((column) => (
                  <Table.Td key={column.key} ta={column.align}>
                    {column.cell(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          : Array.from({ length: loadingRows }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity.
              <Table.Tr key={index}>
                {columns.map((column) => (
                  <Table.Td key={column.key}>
                    <Skeleton height={14} width="70%" />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
      </Table.Tbody>
    </Table>
  );
  return minWidth ? <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer> : table;
}

function CardList<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  loadingRows,
}: {
  label: string;
  columns: readonly ResponsiveColumn<Row>[];
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  rowProps?: (row: Row) => RowAttributes;
  loadingRows: number;
}) {
  const placed = (place: NonNullable<ResponsiveColumn<Row>["phone"]>) =>
    columns.filter((column) => (column.phone ?? "field") === place);
  const titles = placed("title");
  const asides = placed("aside");
  const footers = placed("footer");
  const fields = columns.filter((column) => ["field", "wide-field", undefined].includes(column.phone));

  if (!rows) {
    return (
      <Stack gap="sm" p="md" role="status" aria-label={`Loading ${label}`}>
        {Array.from({ length: loadingRows }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity.
          <Skeleton key={index} height={56} radius="md" />
        ))}
      </Stack>
    );
  }

  return (
    <Box component="ul" aria-label={label} m={0} p={0} style={{ listStyle: "none" }}>
      {rows.map((row, index) => (
        <Box
          component="li"
          key={rowKey(row)}
          px="md"
          py="sm"
          style={index > 0 ? { borderTop: "1px solid var(--prism-border)" } : undefined}
          {...rowProps?.(row)}
        >
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Box miw={0} style={{ flex: 1 }}>
              {titles.map((column) => (
                <Box key={column.key}>{column.cell(row)}</Box>
              ))}
            </Box>
            {asides.length > 0 ? (
              <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                {asides.map((column) => (
                  <Box key={column.key}>{column.cell(row)}</Box>
                ))}
              </Group>
            ) : null}
          </Group>
          {fields.length > 0 ? (
            <Box
              mt="xs"
              style={{ display: "grid", gridTemplateColumns: "repeat(2, minmax(0, 1fr))", gap: "8px 12px" }}
            >
              {fields.map((column) => (
                <Box
                  key={column.key}
                  miw={0}
                  style={column.phone === "wide-field" ? { gridColumn: "1 / -1" } : undefined}
                >
                  <Text size="xs" c="dimmed" fw={500}>
                    {column.header}
                  </Text>
                  <Box style={{ overflowWrap: "anywhere" }}>{column.cell(row)}</Box>
                </Box>
              ))}
            </Box>
          ) : null}
          {footers.length > 0 ? (
            <Group justify="flex-end" gap="xs" mt="sm">
              {footers.map((column) => (
                <Box key={column.key}>{column.cell(row)}</Box>
              ))}
            </Group>
          ) : null}
        </Box>
      ))}
    </Box>
  );
}
