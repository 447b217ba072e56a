import { Button, Code, Group, ScrollArea, Stack, Tabs, Text } from "@mantine/core";
import { modals } from "@mantine/modals";
import { API_CALL_DETAILS_TITLE, CODE_COPIED, SNIPPET_COPIED_MS } from "@prism/contract";
import { API_KEY_VARIABLE, type Snippet } from "@prism/contract/snippets";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { type ReactNode, useEffect, useRef, useState } from "react";

/** Writes text to the clipboard, falling back to a hidden textarea where the async API is missing. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

export function ApiCallDetails({
  snippets,
  onClose,
  intro,
}: {
  snippets: readonly Snippet[];
  onClose: () => void;
  /** What to replace before running the code; the playground's words by default. */
  intro?: ReactNode;
}) {
  const [language, setLanguage] = useState<string>(snippets[0]?.language ?? "curl");
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const current = snippets.find((snippet) => snippet.language === language) ?? snippets[0];

  const copy = async () => {
    if (!current) return;
    await copyText(current.code);
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), SNIPPET_COPIED_MS);
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {intro ?? (
          <>
            Call this endpoint from your own code: set {API_KEY_VARIABLE.slice(1)} to an API key from Projects
            → API Keys, and put your files beside the code under these names.
          </>
        )}
      </Text>
      <Tabs value={language} onChange={(value) => value && setLanguage(value)}>
        <Tabs.List>
          {snippets.map((snippet) => (
            <Tabs.Tab key={snippet.language} value={snippet.language}>
              {snippet.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {/* The code scrolls: its viewport takes focus so the keyboard can scroll it (axe's
          scrollable-region-focusable), named as the region it then is. */}
      <ScrollArea.Autosize
        mah={380}
        type="auto"
        viewportProps={{ tabIndex: 0, role: "region", "aria-label": "API call code" }}
      >
        <Code block data-testid="api-call-code" style={{ fontSize: 13, whiteSpace: "pre" }}>
          {current?.code}
        </Code>
      </ScrollArea.Autosize>
      <Group justify="space-between">
        <Text size="sm" c="teal.9" fw={500} role="status" aria-live="polite">
          {copied ? CODE_COPIED : ""}
        </Text>
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            onClick={() => void copy()}
          >
            Copy
          </Button>
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** The "API Call Details" modal: language tabs, the code, Copy and Close. */
export function openApiCallModal(snippets: readonly Snippet[]): void {
  const modalId = `api-call-${Date.now()}`;
  modals.open({
    modalId,
    title: API_CALL_DETAILS_TITLE,
    size: "xl",
    centered: true,
    children: <ApiCallDetails snippets={snippets} onClose={() => modals.close(modalId)} />,
  });
}
