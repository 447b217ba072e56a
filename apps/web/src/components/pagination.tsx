import { Button, Group, Text, UnstyledButton } from "@mantine/core";
import { PAGINATION_FULL_LINKS, PAGINATION_WINDOW } from "@prism/contract";
import { IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import classes from "./pagination.module.css";

export type PaginationItem = number | "ellipsis-start" | "ellipsis-end";

/**
 * The page links of the spec: every page up to 9 pages; beyond that the first, the last, two pages
 * either side of the current one, and an ellipsis wherever pages are left out. The rule is followed
 * literally (an ellipsis may stand for one page) so the pager never grows past 9 slots.
 */
export function paginationItems(currentPage: number, totalPages: number): PaginationItem[] {
  if (totalPages <= 0) return [];
  const current = Math.min(Math.max(1, currentPage), totalPages);
  if (totalPages <= PAGINATION_FULL_LINKS) {
    return Array.from({ length: totalPages }, (_, index) => index + 1);
  }
  const start = Math.max(2, current - PAGINATION_WINDOW);
  const end = Math.min(totalPages - 1, current + PAGINATION_WINDOW);
  const items: PaginationItem[] = [1];
  if (start > 2) items.push("ellipsis-start");
  for (let page = start; page <= end; page += 1) items.push(page);
  if (end < totalPages - 1) items.push("ellipsis-end");
  items.push(totalPages);
  return items;
}

/** Previous, the page links of {@link paginationItems}, Next. Renders nothing for a single page. */
export function Pagination({
  currentPage,
  totalPages,
  onChange,
  disabled = false,
}: {
  currentPage: number;
  totalPages: number;
  onChange: (page: number) => void;
  disabled?: boolean;
}) {
  if (totalPages <= 1) return null;
  const items = paginationItems(currentPage, totalPages);
  return (
    <Group component="nav" aria-label="Pagination" gap={4} justify="center" wrap="wrap">
      <Button
        variant="subtle"
        color="gray"
        size="compact-sm"
        leftSection={<IconChevronLeft size={14} aria-hidden />}
        disabled={disabled || currentPage <= 1}
        onClick={() => onChange(currentPage - 1)}
      >
        Previous
      </Button>
      {items.map((item) =>
        typeof item === "number" ? (
          <UnstyledButton
            key={item}
            className={classes.page}
            data-active={item === currentPage || undefined}
            aria-current={item === currentPage ? "page" : undefined}
            aria-label={`Page ${item}`}
            disabled={disabled}
            onClick={() => item !== currentPage && onChange(item)}
          >
            {item}
          </UnstyledButton>
        ) : (
          <Text key={item} span c="dimmed" size="sm" className={classes.ellipsis} aria-hidden>
            …
          </Text>
        ),
      )}
      <Button
        variant="subtle"
        color="gray"
        size="compact-sm"
        rightSection={<IconChevronRight size={14} aria-hidden />}
        disabled={disabled || currentPage >= totalPages}
        onClick={() => onChange(currentPage + 1)}
      >
        Next
      </Button>
    </Group>
  );
}
