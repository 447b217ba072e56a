import { Alert, Anchor, Code, Stack, Text } from "@mantine/core";
import {
  ERROR_MESSAGES,
  FEATURE_NEEDS_MODEL_SERVER,
  FEATURE_NOT_AVAILABLE_YET,
  type Feature,
  type FeatureStatus,
  featureOperatorInstructions,
  featureUnavailableTitle,
  MODEL_SERVERS_DOCS_PATH,
} from "@prism/contract";
import { IconPlugConnectedX } from "@tabler/icons-react";
import { Fragment } from "react";
import { useCan } from "../../../lib/permissions";
import { needsModelServer } from "../api/use-feature-status";

/** The instructions with their variable names set as code ("sets MODEL_SERVER_URL or OPENAI_API_KEY"). */
function WithVariables({ text }: { text: string }) {
  return (
    <>
      {text.split(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/).map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence.
          <Code key={index}>{part}</Code>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence.
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/**
 * Why a feature's screen cannot run on this deployment, in plain words for whoever reads it. A member
 * learns that the feature is not available here yet; the owner, who may run the service, also reads
 * what turns it on (the server settings, from the contract) and the guide to model servers.
 */
export function FeatureUnavailableNotice({ feature, status }: { feature: Feature; status: FeatureStatus }) {
  const missingServer = needsModelServer(status);
  const isOwner = useCan("owner");
  const reason = missingServer
    ? isOwner
      ? FEATURE_NEEDS_MODEL_SERVER
      : FEATURE_NOT_AVAILABLE_YET
    : (status.reason ?? ERROR_MESSAGES["feature-unavailable"]);
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconPlugConnectedX size={18} aria-hidden />}
      title={featureUnavailableTitle(feature.name)}
      data-testid="feature-unavailable"
    >
      <Stack gap={6}>
        <Text size="sm">{reason}</Text>
        {missingServer && isOwner ? (
          <Text size="sm" c="dimmed" data-testid="operator-instructions">
            <WithVariables text={featureOperatorInstructions(feature.id)} />{" "}
            <Anchor href={MODEL_SERVERS_DOCS_PATH} target="_blank" rel="noopener noreferrer" size="sm">
              How to connect a model server
            </Anchor>
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
