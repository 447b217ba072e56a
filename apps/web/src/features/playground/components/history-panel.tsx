import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
  UnstyledButton,
} from "@mantine/core";
import { useIntersection } from "@mantine/hooks";
import {
  CANCELED_LABEL,
  formatCost,
  GENERATION_ERROR_LABEL,
  HISTORY_EMPTY,
  HISTORY_EMPTY_STACKED,
  queuedLabel,
  THUMBNAIL_SUFFIX,
} from "@prism/contract";
import {
  IconAlertTriangle,
  IconArrowRight,
  IconArrowsLeftRight,
  IconCircleX,
  IconCode,
  IconDownload,
  IconPhotoOff,
  IconPlayerStop,
  IconRefresh,
  IconSparkles,
  IconTrash,
} from "@tabler/icons-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { BeforeAfter } from "../../../components/before-after";
import { Lightbox, type LightboxImage } from "../../../components/lightbox";
import { LoadingIndicator } from "../../../components/loading-indicator";
import { formatDateTime } from "../../../lib/format";
import { useIsPhone, useStackedPanels } from "../../../lib/media";
import type { HistoryItem, PlaygroundHistory } from "../api/use-history";
import type { Comparison } from "../lib/comparison";
import { ElapsedTimer } from "./elapsed-timer";

/** The stored thumbnail of a file URL; local previews (blob:) have none. */
export function thumbnailUrl(url: string): string {
  return url.startsWith("blob:") || url.startsWith("data:") ? url : `${url}${THUMBNAIL_SUFFIX}`;
}

/** One picture of a row: an input file or the result. */
export interface RowImage {
  label: string;
  url: string;
  /**
   * Shows the picture as a mask over this image (a "Mask overlay"): white areas of `url` tint the
   * image. The lightbox still opens `url`, the mask itself.
   */
  overlayOn?: string;
}

/** The tint of a mask overlay thumbnail, as in the mask editor. */
const MASK_OVERLAY_TINT = "rgba(121, 80, 242, 0.75)";

/** The pictures a row shows, by default the first file of every input field, then the result. */
export function defaultRowImages(item: HistoryItem, inputLabels: Record<string, string> = {}): RowImage[] {
  const images: RowImage[] = [];
  for (const [field, urls] of Object.entries(item.request_data.files)) {
    const url = urls[0];
    if (url) images.push({ label: inputLabels[field] ?? "Original", url });
  }
  if (item.response_data.file) images.push({ label: "Result", url: item.response_data.file });
  return images;
}

export interface HistoryRowActions {
  /** The file name a row's Download saves under; null: the screen offers no Download. */
  downloadName: ((item: HistoryItem) => string) | null;
  /** The link of a row's Download when it is not the result file (e.g. a JSON body). */
  downloadUrl?: (item: HistoryItem) => string | undefined;
  onDelete: (item: HistoryItem) => void;
  /** Cancels a queued or running call of the server's (refunded in full). */
  onCancel?: (item: HistoryItem) => void;
  onShowApiCall: (item: HistoryItem) => void;
  /** Present only where the spec offers Reuse (generation screens). */
  onReuse?: (item: HistoryItem) => void;
}

/**
 * A row's picture takes its share of the row, square, between a phone's and a wide card's sizes: two
 * or three side by side on a 390 px screen, larger on a wide one, never a fixed 132 px box.
 */
const PICTURE_SLOT = { flex: "1 1 0", minWidth: 64, maxWidth: 200 } as const;
const PICTURE_BOX = { width: "100%", aspectRatio: "1 / 1" } as const;

function Thumb({ image, onOpen }: { image: RowImage; onOpen: () => void }) {
  const [failed, setFailed] = useState(false);
  return (
    <Stack gap={4} align="center" style={PICTURE_SLOT} data-testid="history-picture">
      <UnstyledButton
        onClick={onOpen}
        aria-label={`Open ${image.label.toLowerCase()} image`}
        style={{
          ...PICTURE_BOX,
          borderRadius: "var(--mantine-radius-md)",
          overflow: "hidden",
          border: "1px solid var(--mantine-color-default-border)",
          background:
            "repeating-conic-gradient(var(--mantine-color-gray-1) 0% 25%, var(--mantine-color-white) 0% 50%) 50% / 14px 14px",
          display: "flex",
          alignItems: "center",
          justifyContent: "center",
        }}
      >
        {failed ? (
          <IconPhotoOff size={28} color="var(--mantine-color-dimmed)" aria-hidden />
        ) : image.overlayOn ? (
          <Box pos="relative" w="100%" h="100%">
            <img
              src={thumbnailUrl(image.overlayOn)}
              alt={image.label}
              loading="lazy"
              onError={() => setFailed(true)}
              style={{ width: "100%", height: "100%", objectFit: "contain" }}
            />
            <Box
              aria-hidden
              data-testid="mask-overlay"
              style={{
                position: "absolute",
                inset: 0,
                background: MASK_OVERLAY_TINT,
                // The mask is black and white: its luminance lets the tint through where it is white.
                maskImage: `url("${thumbnailUrl(image.url)}")`,
                maskMode: "luminance",
                maskSize: "contain",
                maskPosition: "center",
                maskRepeat: "no-repeat",
              }}
            />
          </Box>
        ) : (
          <img
            src={thumbnailUrl(image.url)}
            alt={image.label}
            loading="lazy"
            onError={() => setFailed(true)}
            style={{ width: "100%", height: "100%", objectFit: "contain" }}
          />
        )}
      </UnstyledButton>
      <Text size="xs" c="dimmed">
        {image.label}
      </Text>
    </Stack>
  );
}

function Placeholder({ children }: { children: ReactNode }) {
  return (
    <Stack gap={4} align="center" style={PICTURE_SLOT} data-testid="history-picture">
      <Center
        style={{
          ...PICTURE_BOX,
          borderRadius: "var(--mantine-radius-md)",
          border: "1px dashed var(--mantine-color-default-border)",
          background: "var(--mantine-color-gray-0)",
        }}
      >
        {children}
      </Center>
      <Text size="xs" c="dimmed">
        Result
      </Text>
    </Stack>
  );
}

function HistoryRow({
  item,
  images,
  actions,
  onOpenImage,
  onCompare,
  body,
  details,
}: {
  item: HistoryItem;
  images: RowImage[];
  actions: HistoryRowActions;
  onOpenImage: (url: string) => void;
  /** Present when the row is a finished edit with a before and an after. */
  onCompare?: () => void;
  /** The screen's own row content instead of the pictures. */
  body?: ReactNode;
  /** The screen's own text beside the pictures (a generation's prompt and size). */
  details?: ReactNode;
}) {
  const queued = item.status === "queued";
  // A queued call shows as waiting, with the spinner of a running one; both are "generating" to the spec.
  const generating = item.status === "generating" || queued;
  const canceled = item.status === "canceled";
  const failed = item.status === "error";
  const resultUrl = item.response_data.file;
  const unusable = generating || failed || canceled || !resultUrl;
  const downloadUrl = actions.downloadUrl?.(item) ?? resultUrl;
  const downloadable = !generating && !failed && !canceled && downloadUrl !== undefined;
  const inputs = images.filter((image) => image.url !== resultUrl);
  const withDetails = body === undefined && details !== undefined;

  return (
    <Paper withBorder p="md" radius="md" data-testid="history-row" data-status={item.status}>
      {/* Actions move below the pictures (and details) when the row is too narrow for them. */}
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
        {body !== undefined ? (
          <Box style={{ flex: 1, minWidth: 0 }}>{body}</Box>
        ) : (
          <Group
            gap="sm"
            align="center"
            wrap="nowrap"
            style={{ flex: "1 1 280px", minWidth: 0, maxWidth: inputs.length > 1 ? 680 : 460 }}
            data-testid="history-pictures"
          >
            {inputs.map((image) => (
              <Thumb
                key={`${image.label}-${image.url}`}
                image={image}
                onOpen={() => onOpenImage(image.url)}
              />
            ))}
            {inputs.length > 0 ? (
              <IconArrowRight
                size={18}
                color="var(--mantine-color-dimmed)"
                aria-hidden
                style={{ marginBottom: 20, flexShrink: 0 }}
              />
            ) : null}
            {generating ? (
              <Placeholder>
                <Stack gap={6} align="center">
                  <Loader size="sm" />
                  {queued ? (
                    <Text size="xs" fw={500} ta="center" data-testid="queue-position">
                      {queuedLabel(item.queuePosition)}
                    </Text>
                  ) : (
                    <Text size="sm" fw={500} ff="monospace">
                      {item.startedAt ? <ElapsedTimer startedAt={item.startedAt} /> : "…"}
                    </Text>
                  )}
                </Stack>
              </Placeholder>
            ) : canceled ? (
              <Placeholder>
                <Stack gap={6} align="center" px="xs">
                  <ThemeIcon variant="light" color="gray" radius="xl">
                    <IconCircleX size={16} aria-hidden />
                  </ThemeIcon>
                  <Text size="xs" c="dimmed" fw={600} ta="center">
                    {CANCELED_LABEL}
                  </Text>
                </Stack>
              </Placeholder>
            ) : failed ? (
              <Placeholder>
                <Stack gap={6} align="center" px="xs">
                  <ThemeIcon variant="light" color="red" radius="xl">
                    <IconAlertTriangle size={16} aria-hidden />
                  </ThemeIcon>
                  <Text size="xs" c="red" fw={600} ta="center">
                    {GENERATION_ERROR_LABEL}
                  </Text>
                  {item.errorMessage ? (
                    <Tooltip label={item.errorMessage} multiline w={260} withArrow>
                      <Text size="xs" c="dimmed" ta="center" lineClamp={2} data-testid="row-error-reason">
                        {item.errorMessage}
                      </Text>
                    </Tooltip>
                  ) : null}
                </Stack>
              </Placeholder>
            ) : resultUrl ? (
              <Thumb image={{ label: "Result", url: resultUrl }} onOpen={() => onOpenImage(resultUrl)} />
            ) : null}
          </Group>
        )}
        {withDetails ? <Box style={{ flex: "1 1 240px", minWidth: 0 }}>{details}</Box> : null}
        {/* At most the row's width, so that on a phone the buttons wrap instead of widening the page. */}
        <Stack gap="xs" align="flex-end" ml="auto" maw="100%" style={{ flexShrink: 0 }}>
          <Group gap={6}>
            {body !== undefined ? null : queued ? (
              <Badge variant="light" color="gray">
                Queued
              </Badge>
            ) : generating ? (
              <Badge variant="light" color="blue" leftSection={<IconSparkles size={12} aria-hidden />}>
                Generating
              </Badge>
            ) : canceled ? (
              <Badge variant="light" color="gray">
                {CANCELED_LABEL}
              </Badge>
            ) : failed ? (
              <Badge variant="light" color="red">
                {GENERATION_ERROR_LABEL}
              </Badge>
            ) : null}
            {/* The call's cost under its date; a local placeholder has not been charged yet. */}
            <Stack gap={0} align="flex-end">
              <Text size="xs" c="dimmed">
                {formatDateTime(item.request_date)}
              </Text>
              {item.local ? null : (
                <Text size="xs" c="dimmed" data-testid="row-cost">
                  {formatCost(item.cost)}
                </Text>
              )}
            </Stack>
          </Group>
          <Group gap={6} justify="flex-end">
            {generating && !item.local && actions.onCancel ? (
              <Button
                size="xs"
                variant="light"
                color="red"
                leftSection={<IconPlayerStop size={14} aria-hidden />}
                onClick={() => actions.onCancel?.(item)}
              >
                Cancel
              </Button>
            ) : null}
            {onCompare ? (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconArrowsLeftRight size={14} aria-hidden />}
                onClick={onCompare}
              >
                Compare
              </Button>
            ) : null}
            {actions.onReuse ? (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconRefresh size={14} aria-hidden />}
                disabled={unusable}
                onClick={() => actions.onReuse?.(item)}
              >
                Reuse
              </Button>
            ) : null}
            {actions.downloadName ? (
              !downloadable ? (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconDownload size={14} aria-hidden />}
                  disabled
                >
                  Download
                </Button>
              ) : (
                <Button
                  size="xs"
                  variant="default"
                  component="a"
                  href={downloadUrl}
                  download={actions.downloadName(item)}
                  leftSection={<IconDownload size={14} aria-hidden />}
                >
                  Download
                </Button>
              )
            ) : null}
            <Button
              size="xs"
              variant="default"
              leftSection={<IconCode size={14} aria-hidden />}
              onClick={() => actions.onShowApiCall(item)}
            >
              Show API Call
            </Button>
            <Tooltip label="Delete">
              <ActionIcon
                variant="default"
                size={30}
                aria-label="Delete"
                disabled={generating}
                onClick={() => actions.onDelete(item)}
              >
                <IconTrash size={15} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * The right panel: the feature's list name, the rows newest first, more rows when the bottom
 * comes into view, the empty text, and one lightbox over every picture of the loaded rows.
 */
export function HistoryPanel({
  title,
  history,
  actions,
  rowImages = (item) => defaultRowImages(item),
  renderRowBody,
  rowDetails,
  comparison,
}: {
  title: string;
  history: PlaygroundHistory;
  actions: HistoryRowActions;
  rowImages?: (item: HistoryItem) => RowImage[];
  renderRowBody?: (item: HistoryItem) => ReactNode;
  /** Text shown beside a row's pictures, keeping the spinner, Generation Error and lightbox. */
  rowDetails?: (item: HistoryItem) => ReactNode;
  /** The before and after of a finished edit, offered as a comparison slider. */
  comparison?: (item: HistoryItem) => Comparison | undefined;
}) {
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  const [comparing, setComparing] = useState<Comparison | null>(null);
  const isPhone = useIsPhone();
  // The empty text points to the options: to the left, or above where the panels stack.
  const stacked = useStackedPanels();
  const { items, loadMore, hasMoreItems, loading, loadedOnce, failed } = history;

  const imagesByItem = useMemo(
    () => items.map((item) => ({ item, images: rowImages(item) })),
    [items, rowImages],
  );
  const gallery: LightboxImage[] = useMemo(
    () =>
      imagesByItem.flatMap(({ item, images }) =>
        images
          .filter((image) => !(image.url === item.response_data.file && item.status !== "done"))
          .map((image) => ({
            src: image.url,
            alt: image.label,
            caption: `${image.label} · ${formatDateTime(item.request_date)}`,
          })),
      ),
    [imagesByItem],
  );

  // Load more when the end of the list scrolls into view (the page is the scrolling content area).
  // A bottom still in view after a page arrived (items.length, loading) asks for the next one.
  const { ref: sentinel, entry } = useIntersection<HTMLDivElement>({ rootMargin: "0px 0px 200px 0px" });
  const atEnd = entry?.isIntersecting ?? false;
  // biome-ignore lint/correctness/useExhaustiveDependencies: items.length and loading re-check an end still in view.
  useEffect(() => {
    if (atEnd) loadMore();
  }, [atEnd, loadMore, items.length, loading]);

  const empty = loadedOnce && !loading && items.length === 0;

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="md">
        <Title order={3} fz="lg">
          {title}
        </Title>
        {items.length > 0 ? (
          <Text size="xs" c="dimmed">
            {items.length} {items.length === 1 ? "item" : "items"}
            {hasMoreItems && !failed ? " loaded" : ""}
          </Text>
        ) : null}
      </Group>
      <Stack gap="sm">
        {empty ? (
          <Stack align="center" gap="sm" py={56} ta="center" maw={420} mx="auto">
            <ThemeIcon size={48} radius="xl" variant="light" color="gray">
              <IconSparkles size={24} aria-hidden />
            </ThemeIcon>
            <Text c="dimmed" size="sm">
              {stacked ? HISTORY_EMPTY_STACKED : HISTORY_EMPTY}
            </Text>
          </Stack>
        ) : null}
        {imagesByItem.map(({ item, images }) => (
          <HistoryRow
            key={item.key}
            item={item}
            images={images}
            actions={actions}
            body={renderRowBody?.(item)}
            details={rowDetails?.(item)}
            onCompare={(() => {
              const found = comparison?.(item);
              return found ? () => setComparing(found) : undefined;
            })()}
            onOpenImage={(url) => {
              const index = gallery.findIndex((image) => image.src === url);
              if (index >= 0) setOpenIndex(index);
            }}
          />
        ))}
        {loading ? (
          <Center py="lg">
            <LoadingIndicator label="Loading history" />
          </Center>
        ) : null}
        <Box ref={sentinel} h={1} aria-hidden />
      </Stack>
      <Modal
        opened={comparing !== null}
        onClose={() => setComparing(null)}
        title="Before and after"
        size="min(1280px, 94vw)"
        fullScreen={isPhone}
        centered
        closeButtonProps={{ "aria-label": "Close" }}
      >
        {comparing ? (
          <BeforeAfter
            before={comparing.before}
            after={comparing.after}
            inset={comparing.inset}
            maxHeight={isPhone ? "60vh" : "72vh"}
          />
        ) : null}
      </Modal>
      <Lightbox
        images={gallery}
        index={openIndex}
        onIndexChange={setOpenIndex}
        onClose={() => setOpenIndex(null)}
      />
    </Paper>
  );
}
