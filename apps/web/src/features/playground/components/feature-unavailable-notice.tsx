import { Alert, Anchor, Code, Group, Stack, Text } from "@mantine/core";
import {
  ERROR_MESSAGES,
  FEATURE_NEEDS_MODEL_SERVER,
  FEATURE_NOT_AVAILABLE_YET,
  type Feature,
  type FeatureStatus,
  featureUnavailableTitle,
  LIGHTING_VARIABLES_LEAD,
  MODEL_SERVERS_DOCS_PATH,
  variablesThatLight,
} from "@prism/contract";
import { IconPlugConnectedX } from "@tabler/icons-react";
import { useCan } from "../../../lib/permissions";
import { needsModelServer } from "../api/use-feature-status";

/**
 * Why a feature's screen cannot run on this deployment, in plain words for whoever reads it. A member
 * learns that the feature is not available here yet; the owner, who may run the service, also reads
 * which variables turn it on (a hosted platform's key or a model server's address, from the contract's
 * one list) and gets a link to the API reference's page on model servers.
 */
export function FeatureUnavailableNotice({ feature, status }: { feature: Feature; status: FeatureStatus }) {
  const missingServer = needsModelServer(status);
  const isOwner = useCan("owner");
  const operator = missingServer && isOwner;
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
        {operator ? (
          <Stack gap={4} data-testid="operator-instructions">
            <Group gap={4} data-testid="lighting-variables">
              <Text size="sm" c="dimmed">
                {LIGHTING_VARIABLES_LEAD}
              </Text>
              {variablesThatLight(feature.id).map((variable) => (
                <Code key={variable}>{variable}</Code>
              ))}
            </Group>
            <Anchor href={MODEL_SERVERS_DOCS_PATH} target="_blank" rel="noopener noreferrer" size="sm">
              How to connect a model server
            </Anchor>
          </Stack>
        ) : null}
      </Stack>
    </Alert>
  );
}
