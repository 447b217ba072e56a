import { Alert, Button, Divider, Grid, Group, Paper, Skeleton, Stack, Text } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import {
  chargeNoticeText,
  ERROR_DIALOGS,
  type Feature,
  type HistoryRequestRecord,
  type PriceInfo,
  type TitledMessage,
} from "@prism/contract";
import { API_KEY_VARIABLE, generateSnippets, type SnippetValue } from "@prism/contract/snippets";
import { IconCode, IconDeviceMobileOff } from "@tabler/icons-react";
import { type ReactNode, useCallback, useEffect } from "react";
import { openApiCallModal } from "../../../components/api-call-modal";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal, openInfoModal } from "../../../components/overlays/modals";
import { PageHeader } from "../../../components/page-header";
import { api } from "../../../lib/api-client";
import { escapeHtml } from "../../../lib/html";
import { useSession } from "../../../lib/session";
import { cancelRequest } from "../api/call-feature";
import { type FeatureRequest, fromDetail, useFeatureRun } from "../api/use-feature-run";
import { useFeatureStatus } from "../api/use-feature-status";
import { type HistoryItem, isOpenItem, usePlaygroundHistory } from "../api/use-history";
import { comparisonOf } from "../lib/comparison";
import { BalanceNotice } from "./balance-notice";
import { FeatureUnavailableNotice } from "./feature-unavailable-notice";
import { HistoryPanel, type RowImage } from "./history-panel";

export type { FeatureRequest };

export interface PlaygroundScreenProps {
  feature: Feature;
  /** The left panel's inputs (upload, sliders, prompt...). */
  form: ReactNode;
  /** The action button's label, e.g. "Remove Background". */
  actionLabel: string;
  /** Whether the inputs are complete (button enabling). */
  canRun: boolean;
  /**
   * The current inputs as a request; called when the action runs and for Show API Call. May be async,
   * e.g. to encode a drawn mask.
   */
  buildRequest: () => FeatureRequest | Promise<FeatureRequest>;
  /** Called after a successful call, e.g. to clear the form. */
  onSuccess?: (record: HistoryRequestRecord) => void;
  /** Reuse on history rows; only generation screens offer it. */
  onReuse?: (item: HistoryItem) => void;
  /** The pictures of a row; defaults to the inputs' first files plus the result. */
  rowImages?: (item: HistoryItem) => RowImage[];
  /** Overrides the price line; gets the price info of the feature (e.g. price times image count). */
  priceLine?: (price: number, priceInfo: PriceInfo) => string;
  /** How many calls one click launches, in parallel (How many Images?); one placeholder row each. */
  count?: number;
  /** Checked when the action is clicked; a returned message is shown as a dialog and nothing is sent. */
  validate?: () => TitledMessage | null;
  /** Replaces a row's pictures and status badge with the screen's own content (transcripts, AI Clones). */
  renderRowBody?: (item: HistoryItem) => ReactNode;
  /** Text beside a row's pictures (a generation's prompt and size); pictures, spinner and error stay. */
  rowDetails?: (item: HistoryItem) => ReactNode;
  /** Extra headers for a history row's Show API Call (the AI Clone's request id is not in the record). */
  rowHeaders?: (item: HistoryItem) => Record<string, string> | undefined;
  /** Shown above the action button, e.g. the lock message of training before the first deposit. */
  actionNotice?: ReactNode;
  /**
   * Rows that may still change on the server (training in progress): while any is listed, the first
   * page is re-read every HISTORY_REFRESH_MS.
   */
  refreshWhile?: (item: HistoryItem) => boolean;
  /** The Download link of a row without a result file, e.g. its JSON body (transcriptions). */
  rowDownloadUrl?: (item: HistoryItem) => string | undefined;
}

/** A plain box for the disabled inputs of a feature that cannot run (a fieldset's own look removed). */
const UNAVAILABLE_FIELDSET = { border: 0, margin: 0, padding: 0, minWidth: 0 } as const;

/** How often rows that are still changing on the server are re-read (cheap: one page, one call). */
export const HISTORY_REFRESH_MS = 12_000;

function fileNamesOf(files: Record<string, readonly (File | string)[]>): Record<string, string[]> {
  const names: Record<string, string[]> = {};
  for (const [field, list] of Object.entries(files)) {
    names[field] = list.map((entry, index) => {
      if (typeof entry !== "string") return entry.name;
      const extension = /\.(png|jpe?g|webp|mp3|wav|ogg|flac)$/i.exec(entry)?.[0] ?? ".png";
      return list.length > 1 ? `${field}_${index + 1}${extension}` : `${field}${extension}`;
    });
  }
  return names;
}

function bodyOf(record: HistoryRequestRecord): Record<string, SnippetValue | undefined> {
  const body: Record<string, SnippetValue | undefined> = {};
  for (const [key, value] of Object.entries(record.request_data.body)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      body[key] = value;
  }
  return body;
}

/**
 * The playground framework (Common playground behaviour): page header, the left panel (the
 * screen's form, price line, action button, Show API Call) and the right panel with the history.
 * It runs the call with a generating row at the top, swaps in the stored record, marks Generation
 * Error on failure, shows the 402 and upload dialogs, updates the balance, deletes with confirmation
 * and opens the API Call Details. A feature whose provider is unavailable says so and disables the
 * action. Each screen passes only its inputs.
 */
export function PlaygroundScreen({
  feature,
  form,
  actionLabel,
  canRun,
  buildRequest,
  onSuccess,
  onReuse,
  rowImages,
  priceLine = chargeNoticeText,
  count = 1,
  validate,
  renderRowBody,
  rowDetails,
  actionNotice,
  rowHeaders,
  refreshWhile,
  rowDownloadUrl,
}: PlaygroundScreenProps) {
  const { selectedProject, selectedOrganization, updateUserInfo, refreshUserInfo } = useSession();
  const projectId = selectedProject?.id ?? null;
  const history = usePlaygroundHistory(feature, projectId);
  const { status, isLoading: statusLoading } = useFeatureStatus(feature.endpoint);

  const isMobile = useMediaQuery("(max-width: 48em)") ?? false;
  const mobileBlocked = feature.mobileUnavailable && isMobile;
  const unavailable = status !== undefined && !status.available;
  const priceInfo = history.priceInfo ?? status?.priceInfo;
  const organizationId = selectedOrganization?.id;

  const setBalance = useCallback(
    (balance: number) => {
      if (!organizationId) return;
      updateUserInfo((user) => ({
        ...user,
        organizations: user.organizations.map((organization) =>
          organization.id === organizationId ? { ...organization, balance } : organization,
        ),
      }));
    },
    [organizationId, updateUserInfo],
  );

  const featureRun = useFeatureRun({
    feature,
    history,
    onBalance: setBalance,
    // A followed call ended with a charge: the balance is read again (the settlement moved it).
    onSucceeded: () => void refreshUserInfo(),
    onSuccess,
  });

  // Calls still queued or running when the list arrived (a reload, another tab): followed to their end.
  const { follow } = featureRun;
  useEffect(() => {
    if (!projectId) return;
    for (const item of history.items) if (!item.local && isOpenItem(item)) follow(item, projectId);
  }, [history.items, projectId, follow]);

  const cancelItem = async (item: HistoryItem) => {
    if (!projectId) return;
    try {
      const detail = await cancelRequest(item.id, projectId);
      history.update(item.key, (row) => ({ ...row, ...fromDetail(detail), key: row.key }));
    } catch (error) {
      await showErrorDialog(ERROR_DIALOGS.cancelRequest, error);
    }
  };

  const { refresh } = history;
  const needsRefresh =
    refreshWhile !== undefined && history.items.some((item) => !item.local && refreshWhile(item));
  useEffect(() => {
    if (!needsRefresh) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "hidden") return;
      // A failed re-read is retried at the next tick; the list itself stays as it is.
      refresh().catch(() => undefined);
    }, HISTORY_REFRESH_MS);
    return () => clearInterval(timer);
  }, [needsRefresh, refresh]);

  const run = async () => {
    if (!projectId || !canRun || unavailable || mobileBlocked) return;
    const problem = validate?.();
    if (problem) {
      await openInfoModal({ title: problem.title, html: escapeHtml(problem.message) });
      return;
    }
    let request: FeatureRequest;
    try {
      request = await buildRequest();
    } catch (error) {
      await openInfoModal({
        title: feature.failureDialog?.title ?? "Error Preparing the Request",
        html: escapeHtml(error instanceof Error ? error.message : "The inputs could not be prepared."),
      });
      return;
    }
    await featureRun.run(request, projectId, count);
  };

  const showApiCall = (
    files: Record<string, readonly (File | string)[]>,
    body: FeatureRequest["body"],
    headers?: Record<string, string>,
  ) => {
    openApiCallModal(
      generateSnippets(feature, {
        origin: window.location.origin,
        // One convention with the API reference: the key from the environment.
        apiKey: API_KEY_VARIABLE,
        body,
        fileNames: fileNamesOf(files),
        headers,
      }),
    );
  };

  const deleteItem = async (item: HistoryItem) => {
    if (item.local) {
      featureRun.discard(item.key);
      return;
    }
    const confirmed = await openConfirmModal({
      title: feature.deleteConfirmTitle,
      message: "Are you sure you want to delete this item? This cannot be undone.",
      variant: "delete",
    });
    if (!confirmed || !projectId) return;
    try {
      await api.playground.deleteRequest({ projectId, requestId: item.id });
      history.remove(item.key);
    } catch (error) {
      await showErrorDialog(feature.deleteError, error);
    }
  };

  return (
    <>
      <PageHeader title={feature.name} description={feature.description} />
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
          <Paper withBorder p="lg" radius="md" component="section" aria-label={`${feature.name} options`}>
            <Stack gap="lg">
              {unavailable && status ? <FeatureUnavailableNotice feature={feature} status={status} /> : null}
              {mobileBlocked ? (
                <Alert
                  color="gray"
                  variant="light"
                  icon={<IconDeviceMobileOff size={18} aria-hidden />}
                  title="Not available on mobile"
                  data-testid="mobile-unavailable"
                >
                  {feature.name} needs a larger screen to draw masks. Please open this page on a computer.
                </Alert>
              ) : unavailable ? (
                // What cannot run cannot be filled in either: the inputs stay visible, disabled.
                <fieldset disabled style={UNAVAILABLE_FIELDSET} data-testid="unavailable-form">
                  {form}
                </fieldset>
              ) : (
                form
              )}
              {unavailable ? null : <Divider />}
              {unavailable ? null : (
                <Group justify="space-between" gap="xs">
                  <Text size="sm" c="dimmed">
                    Price
                  </Text>
                  {priceInfo === undefined ? (
                    statusLoading ? (
                      <Skeleton height={14} width={120} />
                    ) : (
                      <Text size="sm">—</Text>
                    )
                  ) : (
                    <Text size="sm" fw={500} data-testid="price-line">
                      {priceLine(priceInfo.price, priceInfo)}
                    </Text>
                  )}
                </Group>
              )}
              {unavailable ? null : (
                <BalanceNotice cost={priceInfo === undefined ? undefined : priceInfo.price * count} />
              )}
              {actionNotice}
              <Button
                size="md"
                fullWidth
                onClick={() => void run()}
                disabled={!canRun || unavailable || !projectId || mobileBlocked}
                loading={featureRun.running > 0}
              >
                {actionLabel}
              </Button>
              {unavailable ? null : (
                <Button
                  variant="subtle"
                  size="xs"
                  leftSection={<IconCode size={14} aria-hidden />}
                  onClick={() => {
                    void Promise.resolve(buildRequest()).then(
                      (request) => showApiCall(request.files, request.body, request.headers),
                      () => undefined,
                    );
                  }}
                >
                  Show API Call
                </Button>
              )}
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
          <HistoryPanel
            title={feature.historyListName}
            history={history}
            rowImages={rowImages}
            renderRowBody={renderRowBody}
            rowDetails={rowDetails}
            comparison={(item) => comparisonOf(feature, item)}
            actions={{
              // The spec names every download image.png or speech.json.
              downloadName: feature.downloadName ? () => feature.downloadName ?? "" : null,
              downloadUrl: rowDownloadUrl,
              onDelete: (item) => void deleteItem(item),
              onCancel: (item) => void cancelItem(item),
              onShowApiCall: (item) => showApiCall(item.request_data.files, bodyOf(item), rowHeaders?.(item)),
              onReuse,
            }}
          />
        </Grid.Col>
      </Grid>
    </>
  );
}
