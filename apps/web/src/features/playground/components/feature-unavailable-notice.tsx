import { Alert, Anchor, Code, Group, Stack, Text } from "@mantine/core";
import {
  ERROR_MESSAGES,
  FEATURE_NEEDS_MODEL_SERVER,
  FEATURE_NEEDS_MODEL_SERVER_ADMIN,
  type Feature,
  type FeatureStatus,
  LIGHTING_VARIABLES_LEAD,
  MODEL_SERVERS_DOCS_PATH,
  variablesThatLight,
} from "@prism/contract";
import { IconPlugConnectedX } from "@tabler/icons-react";
import { needsModelServer } from "../api/use-feature-status";

/**
 * Why a feature's screen cannot run on this deployment, in plain words. A feature no provider serves
 * needs a model server: whoever runs the deployment is told which variables turn it on (a hosted
 * platform's key or a model server's address) and gets a link to the API reference's page on them.
 */
export function FeatureUnavailableNotice({ feature, status }: { feature: Feature; status: FeatureStatus }) {
  const missingServer = needsModelServer(status);
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconPlugConnectedX size={18} aria-hidden />}
      title={`${feature.name} is unavailable`}
      data-testid="feature-unavailable"
    >
      <Stack gap={6}>
        <Text size="sm">
          {missingServer
            ? FEATURE_NEEDS_MODEL_SERVER
            : (status.reason ?? ERROR_MESSAGES["feature-unavailable"])}
        </Text>
        {missingServer ? (
          <Text size="sm" c="dimmed">
            {FEATURE_NEEDS_MODEL_SERVER_ADMIN}{" "}
            <Anchor href={MODEL_SERVERS_DOCS_PATH} target="_blank" rel="noopener noreferrer" size="sm">
              How to connect a model server
            </Anchor>
          </Text>
        ) : null}
        {missingServer ? (
          <Group gap={4} data-testid="lighting-variables">
            <Text size="sm" c="dimmed">
              {LIGHTING_VARIABLES_LEAD}
            </Text>
            {variablesThatLight(feature.id).map((variable) => (
              <Code key={variable}>{variable}</Code>
            ))}
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
}
