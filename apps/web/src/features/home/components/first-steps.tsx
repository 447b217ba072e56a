import {
  Anchor,
  Box,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import { backgroundRemovalFeature, type FirstSteps as Steps } from "@prism/contract";
import { API_KEY_VARIABLE, curlSnippet } from "@prism/contract/snippets";
import { IconCheck, IconCopy, IconX } from "@tabler/icons-react";
import { type ReactNode, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ADD_CARD_STATE, PATHS, SAMPLE_IMAGE_PATH } from "../../../lib/paths";
import { useCan } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { allStepsDone, useFirstSteps } from "../api/get-first-steps";

/** Remembered per organization in this browser: the owner put the checklist away. */
const DISMISSED_KEY = (organizationId: string) => `firstStepsDismissed:${organizationId}`;
const SAMPLE_FILE = SAMPLE_IMAGE_PATH.split("/").at(-1) ?? "sample.jpg";

/** The commands of the last step, ready to paste: the sample picture, then the call with the key. */
export function firstCallSnippet(origin: string): string {
  const call = curlSnippet(backgroundRemovalFeature, {
    origin,
    apiKey: API_KEY_VARIABLE,
    shellVariables: true,
    fileNames: { image: [SAMPLE_FILE] },
  });
  return [
    `export ${API_KEY_VARIABLE.slice(1)}="paste the key you created here"`,
    `curl -o ${SAMPLE_FILE} '${origin}${SAMPLE_IMAGE_PATH}'`,
    call,
  ].join("\n");
}

function Step({
  index,
  done,
  title,
  children,
  action,
}: {
  index: number;
  done: boolean;
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Box component="li" data-testid="first-step" data-done={done}>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <ThemeIcon
          radius="xl"
          size={28}
          variant={done ? "filled" : "light"}
          color={done ? "teal" : "prism"}
          aria-hidden
          style={{ flexShrink: 0 }}
        >
          {done ? (
            <IconCheck size={16} />
          ) : (
            <Text size="sm" fw={700}>
              {index}
            </Text>
          )}
        </ThemeIcon>
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text fw={600} td={done ? "line-through" : undefined} c={done ? "dimmed" : undefined}>
              {title}
              <Text span size="sm" c="teal.9" fw={500}>
                {done ? " · done" : ""}
              </Text>
            </Text>
            {done ? null : action}
          </Group>
          <Text size="sm" c="dimmed" component="div">
            {children}
          </Text>
        </Stack>
      </Group>
    </Box>
  );
}

function FirstCall({ done }: { done: boolean }) {
  const code = firstCallSnippet(window.location.origin);
  return (
    <Stack gap={6}>
      <Text size="sm" c="dimmed">
        Paste this in a terminal with your key: it downloads a sample picture and removes its background. This
        step ticks itself once the call arrives.
      </Text>
      {done ? null : (
        <Box pos="relative">
          {/* Scrolls sideways on a phone: focusable so the keyboard can scroll it too (axe's
              scrollable-region-focusable), and named as the region it then is. */}
          <Code
            block
            data-testid="first-call-code"
            tabIndex={0}
            role="region"
            aria-label="First call command"
            style={{ whiteSpace: "pre", overflowX: "auto", paddingRight: 48 }}
          >
            {code}
          </Code>
          <CopyButton value={code} timeout={2000}>
            {({ copied, copy }) => (
              <Button
                size="compact-xs"
                variant="default"
                onClick={copy}
                pos="absolute"
                top={6}
                right={6}
                leftSection={
                  copied ? <IconCheck size={12} aria-hidden /> : <IconCopy size={12} aria-hidden />
                }
              >
                {copied ? "Copied" : "Copy"}
              </Button>
            )}
          </CopyButton>
        </Box>
      )}
    </Stack>
  );
}

/** The checklist itself, for a set of steps as the server reads them. */
export function FirstStepsChecklist({ steps, onDismiss }: { steps: Steps; onDismiss: () => void }) {
  const navigate = useNavigate();
  const canCreateKeys = useCan("apiKeys.create");
  const doneCount = [steps.cardAdded, steps.recharged, steps.apiKeyCreated, steps.apiCallMade].filter(
    Boolean,
  ).length;
  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      component="section"
      aria-label="First steps"
      data-testid="first-steps"
    >
      <Group justify="space-between" align="flex-start" mb="md" wrap="nowrap">
        <Stack gap={2}>
          <Title order={3} fz="lg">
            First steps
          </Title>
          <Text size="sm" c="dimmed">
            From a new account to your first API call, {doneCount} of 4 done.
          </Text>
        </Stack>
        <Button
          variant="subtle"
          color="gray"
          size="xs"
          leftSection={<IconX size={14} aria-hidden />}
          onClick={onDismiss}
        >
          Hide
        </Button>
      </Group>
      <Stack component="ol" gap="lg" m={0} p={0} style={{ listStyle: "none" }}>
        <Step
          index={1}
          done={steps.cardAdded}
          title="Add a card"
          action={
            <Button size="xs" onClick={() => navigate(PATHS.organizationPayments, { state: ADD_CARD_STATE })}>
              Add a card
            </Button>
          }
        >
          Recharges and auto recharge are charged to it.
        </Step>
        <Step
          index={2}
          done={steps.recharged}
          title="Add funds"
          action={
            <Button size="xs" variant="light" component={Link} to={PATHS.organizationPayments}>
              Recharge
            </Button>
          }
        >
          Calls are paid from the organization's prepaid balance.
        </Step>
        <Step
          index={3}
          done={steps.apiKeyCreated}
          title="Create an API key"
          action={
            canCreateKeys ? (
              <Button size="xs" variant="light" component={Link} to={PATHS.projectsApiKeys}>
                Create a key
              </Button>
            ) : undefined
          }
        >
          {canCreateKeys ? (
            "Your code signs its calls with it. It is shown once: keep it somewhere safe."
          ) : (
            <>
              Ask someone who may create keys in this organization for one, on{" "}
              <Anchor component={Link} to={PATHS.projectsApiKeys} size="sm">
                API Keys
              </Anchor>
              .
            </>
          )}
        </Step>
        <Step index={4} done={steps.apiCallMade} title="Make your first call">
          <FirstCall done={steps.apiCallMade} />
        </Step>
      </Stack>
    </Paper>
  );
}

/**
 * Home's checklist for a new organization, shown to whoever may pay for it until every step is done
 * or it is hidden: add a card, add funds, create a key, run a ready call with it. Each step ticks
 * itself from what the server saw happen.
 */
export function FirstStepsCard() {
  const { selectedOrganization } = useSession();
  const canPay = useCan("organization.payments");
  const organizationId = selectedOrganization?.id ?? "";
  const [dismissed, setDismissed] = useState(
    () => organizationId !== "" && localStorage.getItem(DISMISSED_KEY(organizationId)) === "true",
  );
  const steps = useFirstSteps(organizationId, canPay && !dismissed);
  if (!canPay || dismissed || !steps.data || allStepsDone(steps.data)) return null;
  return (
    <FirstStepsChecklist
      steps={steps.data}
      onDismiss={() => {
        localStorage.setItem(DISMISSED_KEY(organizationId), "true");
        setDismissed(true);
      }}
    />
  );
}
