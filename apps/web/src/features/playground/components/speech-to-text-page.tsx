import { Alert, Badge, Box, Group, Loader, Paper, Select, Stack, Text } from "@mantine/core";
import {
  DEFAULT_LANGUAGE,
  isLanguageAvailableOn,
  LANGUAGES,
  languageName,
  TRANSCRIPTION_ERROR,
  transcriptionFeature,
} from "@prism/contract";
import { IconAlertTriangle, IconLanguage } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import type { ChosenAudio } from "../../../components/audio-upload";
import { formatDuration } from "../../../lib/format";
import { useFeatureStatus } from "../api/use-feature-status";
import type { HistoryItem } from "../api/use-history";
import {
  formatTimestamp,
  jsonDataUrl,
  transcriptionOf,
  transcriptionPriceLine,
  transcriptText,
} from "../lib/transcription";
import { ElapsedTimer } from "./elapsed-timer";
import { PlaygroundScreen } from "./playground-screen";
import { AudioUpload } from "./playground-uploads";

const audioInput = transcriptionFeature.inputs.files[0];

function rowLanguage(item: HistoryItem): string {
  const stored = transcriptionOf(item.response_data.body)?.language ?? item.request_data.body.language;
  const code = typeof stored === "string" ? stored : DEFAULT_LANGUAGE;
  return languageName(code) ?? code;
}

/** A row of Your Audio Transcriptions: language, duration, the recording, the transcript and its segments. */
function TranscriptionRow({ item }: { item: HistoryItem }) {
  const result = transcriptionOf(item.response_data.body);
  const audioUrl = item.request_data.files.audio?.[0];
  const duration = result?.duration ?? result?.segments.at(-1)?.end;

  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Badge variant="light" color="gray" leftSection={<IconLanguage size={12} aria-hidden />}>
          {rowLanguage(item)}
        </Badge>
        {duration !== undefined ? (
          <Text size="xs" c="dimmed" data-testid="row-duration">
            Duration: {formatDuration(duration)}
          </Text>
        ) : null}
        {item.status === "generating" ? (
          <Badge variant="light" color="blue" leftSection={<Loader size={10} color="blue" />}>
            Transcribing
          </Badge>
        ) : item.status === "error" ? (
          <Badge variant="light" color="red">
            Error
          </Badge>
        ) : null}
      </Group>
      {audioUrl ? (
        // Metadata only: the player shows the recording's length before it is played, not 0:00 / 0:00.
        // biome-ignore lint/a11y/useMediaCaption: the user's own recording has no captions; its transcript is shown below.
        <audio
          controls
          preload="metadata"
          src={audioUrl}
          style={{ width: "100%", height: 36 }}
          aria-label="Recording"
        />
      ) : null}
      {item.status === "generating" ? (
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            Transcribing the audio…
          </Text>
          {item.startedAt ? (
            <Text size="sm" ff="monospace" fw={500}>
              <ElapsedTimer startedAt={item.startedAt} />
            </Text>
          ) : null}
        </Group>
      ) : item.status === "error" ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={16} aria-hidden />}
          data-testid="transcription-error"
          p="xs"
        >
          <Text size="sm">{TRANSCRIPTION_ERROR}</Text>
          {item.errorMessage ? (
            <Text size="xs" c="dimmed" mt={4} data-testid="row-error-reason">
              {item.errorMessage}
            </Text>
          ) : null}
        </Alert>
      ) : result ? (
        <Stack gap="xs">
          <Paper p="sm" radius="md" bg="var(--mantine-color-gray-0)" data-testid="transcript">
            <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
              {transcriptText(result) || "No speech was recognised in this recording."}
            </Text>
          </Paper>
          {result.segments.length > 0 ? (
            <Stack gap={2} component="ol" m={0} p={0} style={{ listStyle: "none" }} aria-label="Segments">
              {result.segments.map((segment) => (
                <Group
                  key={`${segment.start}-${segment.end}`}
                  component="li"
                  gap="sm"
                  wrap="nowrap"
                  align="flex-start"
                  data-testid="segment"
                >
                  <Text size="xs" c="dimmed" ff="monospace" style={{ flexShrink: 0 }} pt={2}>
                    {formatTimestamp(segment.start)} – {formatTimestamp(segment.end)}
                  </Text>
                  <Text size="sm">{segment.text.trim()}</Text>
                </Group>
              ))}
            </Stack>
          ) : null}
        </Stack>
      ) : null}
    </Stack>
  );
}

/**
 * /playground/speech-to-text (Transcription): the Audio Source File upload with its
 * duration and a player, the language dropdown (100 languages, English by default; those the
 * deployment's provider cannot transcribe are listed apart and disabled), the per-minute price with the
 * audio rounded up to whole minutes, and Transcribe Audio, which needs a file. Rows show the transcript
 * with timed segments; Download saves the JSON result as speech.json.
 */
export function SpeechToTextPage() {
  const [audio, setAudio] = useState<ChosenAudio | null>(null);
  const [language, setLanguage] = useState<string>(DEFAULT_LANGUAGE);
  const { status } = useFeatureStatus(transcriptionFeature.endpoint);
  const provider = status?.provider ?? null;

  const languageData = useMemo(() => {
    const options = LANGUAGES.map((entry) => ({
      value: entry.code,
      label: entry.name,
      disabled: provider !== null && !isLanguageAvailableOn(provider, entry.code),
    }));
    const available = options.filter((option) => !option.disabled);
    const unavailable = options.filter((option) => option.disabled);
    return unavailable.length === 0
      ? options
      : [
          { group: "Available on this deployment", items: available },
          { group: "Needs a speech model server", items: unavailable },
        ];
  }, [provider]);
  const limited =
    provider !== null && LANGUAGES.some((entry) => !isLanguageAvailableOn(provider, entry.code));
  const languageAvailable = provider === null || isLanguageAvailableOn(provider, language);

  return (
    <PlaygroundScreen
      feature={transcriptionFeature}
      actionLabel="Transcribe Audio"
      canRun={audio !== null && languageAvailable}
      buildRequest={() => ({
        files: { audio: audio ? [audio.file] : [] },
        body: { language },
      })}
      priceLine={(price) => transcriptionPriceLine(price, audio?.durationSeconds ?? null)}
      rowImages={() => []}
      renderRowBody={(item) => <TranscriptionRow item={item} />}
      rowDownloadUrl={(item) =>
        item.response_data.file ??
        (transcriptionOf(item.response_data.body) ? jsonDataUrl(item.response_data.body) : undefined)
      }
      form={
        <>
          <AudioUpload input={audioInput} label="Audio Source File" value={audio} onChange={setAudio} />
          <Box>
            <Select
              label="Language"
              description={
                limited
                  ? "This deployment's builtin engine transcribes English only; the other languages need a speech model server."
                  : "The language spoken in the recording."
              }
              data={languageData}
              value={language}
              onChange={(next) => setLanguage(next ?? DEFAULT_LANGUAGE)}
              searchable
              allowDeselect={false}
              nothingFoundMessage="No language matches"
              maxDropdownHeight={280}
              leftSection={<IconLanguage size={16} aria-hidden />}
            />
          </Box>
        </>
      }
    />
  );
}
