import {
  Alert,
  Anchor,
  Badge,
  Box,
  Drawer,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import {
  featureByEndpoint,
  REQUEST_STATUS_LABELS,
  type RequestLogDetail,
  THUMBNAIL_SUFFIX,
  trainingResultSchema,
  transcriptionResultSchema,
} from "@prism/contract";
import { API_KEY_VARIABLE, generateSnippets, type SnippetValue } from "@prism/contract/snippets";
import { IconAlertTriangle, IconExternalLink, IconTrash } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { ApiCallDetails } from "../../../components/api-call-modal";
import { CopyField } from "../../../components/copy-field";
import { LoadingIndicator } from "../../../components/loading-indicator";
import { formatCost, formatDateTime } from "../../../lib/format";
import { useIsPhone } from "../../../lib/media";
import { useRequestDetail } from "../api/get-request";
import { formatCallDuration, STATUS_COLORS } from "./request-format";

const IMAGE_FILE = /\.(png|jpe?g|webp)$/i;

/** The last part of a stored file's path: what the caller uploaded it as, more or less. */
function fileName(url: string): string {
  return decodeURIComponent(url.split("/").at(-1) ?? url);
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} fz="sm" tt="uppercase" c="dimmed" style={{ letterSpacing: "0.04em" }}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Box fz="sm" style={{ overflowWrap: "anywhere" }}>
        {children}
      </Box>
    </Stack>
  );
}

/** A stored file: its thumbnail when it is a picture, and a link that opens it. */
function FileLink({ label, url }: { label: string; url: string }) {
  const picture = IMAGE_FILE.test(url);
  return (
    <Group gap="sm" wrap="nowrap" align="center">
      {picture ? (
        <Image
          src={`${url}${THUMBNAIL_SUFFIX}`}
          alt={label}
          w={56}
          h={56}
          fit="contain"
          radius="sm"
          bg="gray.1"
          style={{ flexShrink: 0 }}
        />
      ) : null}
      <Stack gap={0} miw={0}>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Anchor
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
          style={{ overflowWrap: "anywhere" }}
        >
          <Group gap={4} wrap="nowrap" component="span">
            {fileName(url)} <IconExternalLink size={14} aria-hidden />
          </Group>
        </Anchor>
      </Stack>
    </Group>
  );
}

/** A result that is not a file: a transcript's words, a training's AI Clone, or its JSON. */
function ResultBody({ body }: { body: unknown }) {
  const transcript = transcriptionResultSchema.safeParse(body);
  if (transcript.success) {
    return (
      <Text size="sm" data-testid="request-transcript" style={{ whiteSpace: "pre-wrap" }}>
        {transcript.data.segments
          .map((segment) => segment.text.trim())
          .join(" ")
          .trim() || "(no words were recognised)"}
      </Text>
    );
  }
  const training = trainingResultSchema.safeParse(body);
  if (training.success) {
    return (
      <Text size="sm">
        AI Clone{" "}
        <Text span ff="monospace">
          {training.data.identityId}
        </Text>
        , {training.data.status}
      </Text>
    );
  }
  return (
    <Box component="pre" fz="xs" m={0} p="sm" bg="gray.0" style={{ overflowX: "auto", borderRadius: 6 }}>
      {JSON.stringify(body, null, 2)}
    </Box>
  );
}

/** The values the call was sent, by their API names (what a reproduction sends again). */
function snippetBody(parameters: Record<string, unknown>): Record<string, SnippetValue | undefined> {
  const body: Record<string, SnippetValue | undefined> = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      body[name] = value;
  }
  return body;
}

function Reproduce({ call, onClose }: { call: RequestLogDetail; onClose: () => void }) {
  const feature = featureByEndpoint(call.endpoint);
  if (!feature) return null;
  const snippets = generateSnippets(feature, {
    origin: window.location.origin,
    apiKey: API_KEY_VARIABLE,
    shellVariables: true,
    body: snippetBody(call.parameters),
    // The call's own files by name, when they are still kept; the feature's example names otherwise.
    fileNames: Object.fromEntries(
      Object.entries(call.inputs).map(([field, urls]) => [field, urls.map(fileName)]),
    ),
  });
  return (
    <ApiCallDetails
      snippets={snippets}
      onClose={onClose}
      intro={
        <>
          The same call with an API key of the project: set {API_KEY_VARIABLE} to the key and put the files
          (downloaded above) beside the code.
        </>
      }
    />
  );
}

function CallDetail({ call, onClose }: { call: RequestLogDetail; onClose: () => void }) {
  const parameters = Object.entries(call.parameters);
  const inputs = Object.entries(call.inputs).flatMap(([field, urls]) =>
    urls.map((url, index) => ({ label: urls.length > 1 ? `${field} ${index + 1}` : field, url })),
  );
  return (
    <Stack gap="lg" data-testid="request-detail">
      <Group gap="sm">
        <Badge variant="light" color={STATUS_COLORS[call.status]}>
          {REQUEST_STATUS_LABELS[call.status]}
        </Badge>
        <Text size="sm" c="dimmed">
          {formatDateTime(call.date)}
        </Text>
      </Group>
      <CopyField label="Request ID" value={call.id} />
      <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="md">
        <Fact label="Cost">{formatCost(call.cost)}</Fact>
        <Fact label="Duration">{formatCallDuration(call.durationMs)}</Fact>
        <Fact label="Project">{call.projectName}</Fact>
        <Fact label="Caller">
          {call.apiKeyId
            ? `API key ${call.caller}`
            : call.userName
              ? `${call.caller} (${call.userName})`
              : call.caller}
        </Fact>
        <Fact label="IP address">
          <Text span size="sm" ff="monospace">
            {call.clientIp ?? "—"}
          </Text>
        </Fact>
      </SimpleGrid>
      {call.error ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="Error">
          {call.error}
        </Alert>
      ) : null}
      {call.deleted ? (
        <Alert color="gray" variant="light" icon={<IconTrash size={18} aria-hidden />}>
          Deleted from the playground's history: its files and result are gone; what it cost stays here.
        </Alert>
      ) : null}
      <Section title="Parameters">
        {parameters.length === 0 ? (
          <Text size="sm" c="dimmed">
            None beyond the files.
          </Text>
        ) : (
          <Table withTableBorder verticalSpacing={6} aria-label="Parameters">
            <Table.Tbody>
              {parameters.map(([name, value]) => (
                <Table.Tr key={name}>
                  <Table.Th w="40%" fw={500}>
                    <Text span size="sm" ff="monospace">
                      {name}
                    </Text>
                  </Table.Th>
                  <Table.Td style={{ overflowWrap: "anywhere" }}>
                    {typeof value === "string" ? value : JSON.stringify(value)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>
      {inputs.length > 0 ? (
        <Section title="Inputs">
          {inputs.map((input) => (
            <FileLink key={input.url} label={input.label} url={input.url} />
          ))}
        </Section>
      ) : null}
      {call.resultUrl || call.resultBody !== null ? (
        <Section title="Output">
          {call.resultUrl ? <FileLink label="result" url={call.resultUrl} /> : null}
          {call.resultBody !== null ? <ResultBody body={call.resultBody} /> : null}
        </Section>
      ) : null}
      <Section title="Reproduce">
        <Reproduce call={call} onClose={onClose} />
      </Section>
    </Stack>
  );
}

/**
 * One call of the Requests view, opened from its row (as OpenAI's and Replicate's logs do): its id to
 * copy, parameters, inputs and outputs, error, cost, duration and caller, and the same call as code
 * to run with an API key.
 */
export function RequestDrawer({
  organizationId,
  requestId,
  onClose,
}: {
  organizationId: string;
  requestId: string | null;
  onClose: () => void;
}) {
  const isPhone = useIsPhone();
  const detail = useRequestDetail(organizationId, requestId);
  const call = detail.data;
  return (
    <Drawer
      opened={requestId !== null}
      onClose={onClose}
      position="right"
      size={isPhone ? "100%" : "xl"}
      title={
        <Text fw={600} fz="lg">
          {call ? `${call.feature} call` : "Call"}
        </Text>
      }
      closeButtonProps={{ "aria-label": "Close the call" }}
    >
      {detail.isPending ? (
        <Group justify="center" py="xl">
          <LoadingIndicator label="Loading the call" />
        </Group>
      ) : detail.isError || !call ? (
        <Alert color="red" title="The call could not be loaded">
          {detail.error?.message ?? "Please try again."}
        </Alert>
      ) : (
        <CallDetail call={call} onClose={onClose} />
      )}
    </Drawer>
  );
}
