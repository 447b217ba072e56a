import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Tooltip,
} from "@mantine/core";
import { schemaResolver, useForm } from "@mantine/form";
import {
  AI_CLONE_NAME_MISSING,
  NAME_MAX_LENGTH,
  pegasusTrainingFeature,
  type TitledMessage,
  TRAINING_EXPECTED_MINUTES,
  TRAINING_LOCKED,
  TRAINING_MAX_IMAGES,
  TRAINING_MIN_IMAGES,
  TRAINING_STARTED,
} from "@prism/contract";
import { IconLock, IconPhoto, IconPhotoOff, IconUser, IconX } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { openInfoModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { formatUploadHint, UploadDropzone } from "../../../components/upload-dropzone";
import { escapeHtml } from "../../../lib/html";
import { PATHS } from "../../../lib/paths";
import { useSession } from "../../../lib/session";
import type { HistoryItem } from "../api/use-history";
import { keptCount, prepareTrainingImage } from "../lib/training-images";
import {
  isTrainingInProgress,
  TRAINING_STATUS_LABELS,
  type TrainingRowStatus,
  trainingRowStatus,
} from "../lib/training-status";
import { checkImageUpload } from "../lib/upload-checks";
import { thumbnailUrl } from "./history-panel";
import { PlaygroundScreen } from "./playground-screen";

const imagesInput = pegasusTrainingFeature.inputs.files[0];

interface ChosenPhoto {
  id: string;
  file: File;
  url: string;
}

const STATUS_COLORS: Record<TrainingRowStatus, string> = {
  sending: "blue",
  pending: "gray",
  training: "yellow",
  ready: "teal",
  failed: "red",
};

function showRejection(problem: TitledMessage, fileName: string) {
  void openInfoModal({
    title: problem.title,
    html: `${escapeHtml(problem.message)}<br><br>${escapeHtml(fileName)}`,
  });
}

function CloneThumbnail({ url, name }: { url: string | undefined; name: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <Box
      w={72}
      h={72}
      style={{
        flexShrink: 0,
        borderRadius: "var(--mantine-radius-md)",
        overflow: "hidden",
        border: "1px solid var(--mantine-color-default-border)",
        background: "var(--mantine-color-gray-0)",
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
      }}
    >
      {url && !failed ? (
        <img
          src={thumbnailUrl(url)}
          alt={`${name}, first of the training set`}
          loading="lazy"
          onError={() => setFailed(true)}
          style={{ width: "100%", height: "100%", objectFit: "cover" }}
        />
      ) : (
        <IconPhotoOff size={24} color="var(--mantine-color-dimmed)" aria-hidden />
      )}
    </Box>
  );
}

/** A row of Your AI Clones: the first training photo, the clone's name, its photo count and its status. */
function CloneRow({ item }: { item: HistoryItem }) {
  const status = trainingRowStatus(item);
  const description = item.request_data.body.description;
  const name = typeof description === "string" && description !== "" ? description : "Unnamed AI Clone";
  const photos = item.request_data.files.images ?? [];
  return (
    <Group gap="md" wrap="nowrap" align="center">
      <CloneThumbnail url={photos[0]} name={name} />
      <Stack gap={4} style={{ minWidth: 0 }}>
        <Text fw={600} truncate data-testid="clone-name">
          {name}
        </Text>
        <Text size="xs" c="dimmed">
          {photos.length} training photos
        </Text>
        <Group gap={6}>
          <Badge variant="light" color={STATUS_COLORS[status]} data-testid="clone-status">
            {TRAINING_STATUS_LABELS[status]}
          </Badge>
          {isTrainingInProgress(status) ? (
            <Text size="xs" c="dimmed">
              Training takes {TRAINING_EXPECTED_MINUTES} minutes or more.
            </Text>
          ) : null}
        </Group>
      </Stack>
    </Group>
  );
}

/**
 * /playground/pegasus-training (Pegasus training): a drop area for 10 to 15 photos (extras
 * beyond 15 ignored, each checked like any upload), their thumbnails, Clear Images, the clone's Name
 * (required) and Start Training, enabled with 10 to 15 photos. Each photo is sent resized to a short
 * side of 1024 as JPEG 0.95. An organization that has not made its first deposit cannot train yet.
 * Rows follow the training's status, re-read while any is pending or training.
 */
export function PegasusTrainingPage() {
  const { selectedOrganization } = useSession();
  const locked = selectedOrganization?.properties.isNew === true;
  const [photos, setPhotos] = useState<ChosenPhoto[]>([]);
  // The clone's name is the call's `description`, checked by the feature's own body schema. The spec
  // names a missing one in a dialog (Missing AI Clone Name), so the field shows no message of its own.
  const form = useForm({
    initialValues: { description: "" },
    validate: schemaResolver(pegasusTrainingFeature.bodySchema, { sync: true }),
  });
  const [checking, setChecking] = useState(false);
  const photosRef = useRef(photos);
  photosRef.current = photos;

  // The previews live as long as the page: revoke whatever is left when it unmounts.
  useEffect(
    () => () => {
      for (const photo of photosRef.current) URL.revokeObjectURL(photo.url);
    },
    [],
  );

  const addPhotos = async (files: readonly File[]) => {
    const room = keptCount(photosRef.current.length, files.length);
    if (room === 0 || checking) return;
    setChecking(true);
    try {
      const accepted: ChosenPhoto[] = [];
      let firstProblem: { problem: TitledMessage; fileName: string } | null = null;
      for (const file of files) {
        if (accepted.length >= room) break;
        const problem = await checkImageUpload(file, imagesInput);
        if (problem) {
          firstProblem ??= { problem, fileName: file.name };
          continue;
        }
        accepted.push({ id: crypto.randomUUID(), file, url: URL.createObjectURL(file) });
      }
      setPhotos((current) => {
        const kept = accepted.slice(0, keptCount(current.length, accepted.length));
        for (const photo of accepted.slice(kept.length)) URL.revokeObjectURL(photo.url);
        return [...current, ...kept];
      });
      if (firstProblem) showRejection(firstProblem.problem, firstProblem.fileName);
    } finally {
      setChecking(false);
    }
  };

  const removePhoto = (id: string) => {
    setPhotos((current) => {
      const removed = current.find((photo) => photo.id === id);
      if (removed) URL.revokeObjectURL(removed.url);
      return current.filter((photo) => photo.id !== id);
    });
  };

  const clearPhotos = () => {
    for (const photo of photosRef.current) URL.revokeObjectURL(photo.url);
    setPhotos([]);
  };

  const count = photos.length;
  const enough = count >= TRAINING_MIN_IMAGES && count <= TRAINING_MAX_IMAGES;
  const full = count >= TRAINING_MAX_IMAGES;

  return (
    <PlaygroundScreen
      feature={pegasusTrainingFeature}
      actionLabel="Start Training"
      canRun={enough && !locked}
      validate={() => (form.validate().hasErrors ? AI_CLONE_NAME_MISSING : null)}
      buildRequest={async () => ({
        files: { images: await Promise.all(photos.map((photo) => prepareTrainingImage(photo.file))) },
        body: { description: form.getValues().description.trim() },
      })}
      onSuccess={() => {
        notify(TRAINING_STARTED);
        clearPhotos();
        form.reset();
      }}
      rowImages={() => []}
      renderRowBody={(item) => <CloneRow item={item} />}
      refreshWhile={(item) => isTrainingInProgress(trainingRowStatus(item))}
      actionNotice={
        locked ? (
          <Alert
            color="orange"
            variant="light"
            icon={<IconLock size={18} aria-hidden />}
            title="Training is locked"
            data-testid="training-locked"
          >
            <Text size="sm">{TRAINING_LOCKED}</Text>
            <Anchor component={Link} to={PATHS.organizationPayments} size="sm" fw={500}>
              Add funds in Payments
            </Anchor>
          </Alert>
        ) : null
      }
      form={
        <>
          <Text size="sm" c="dimmed">
            Upload {TRAINING_MIN_IMAGES} to {TRAINING_MAX_IMAGES} photos of the same person: clear faces,
            varied angles and light. Training takes {TRAINING_EXPECTED_MINUTES} minutes or more.
          </Text>
          <Stack gap={6}>
            <Group justify="space-between">
              <Text size="sm" fw={500}>
                Training Images
              </Text>
              <Text size="sm" fw={600} c={enough ? "teal" : "dimmed"} data-testid="photo-count">
                {count} / {TRAINING_MAX_IMAGES}
              </Text>
            </Group>
            <UploadDropzone
              label="Training Images"
              accept={imagesInput.acceptedMimeTypes}
              onFiles={(files) => void addPhotos(files)}
              multiple
              loading={checking}
              disabled={full}
              idleIcon={IconPhoto}
              title={
                full ? `${TRAINING_MAX_IMAGES} photos chosen` : "Drag photos here or click to select them"
              }
              hint={`${formatUploadHint(imagesInput)} each`}
              compact
            />
            <Text size="xs" c={count > 0 && !enough ? "orange" : "dimmed"} data-testid="photo-hint">
              {TRAINING_MIN_IMAGES} to {TRAINING_MAX_IMAGES} images are needed
              {count < TRAINING_MIN_IMAGES ? ` (${TRAINING_MIN_IMAGES - count} more)` : ""}.
            </Text>
          </Stack>
          {count > 0 ? (
            <SimpleGrid cols={5} spacing={6} data-testid="photo-grid">
              {photos.map((photo, index) => (
                <Box
                  key={photo.id}
                  pos="relative"
                  style={{
                    aspectRatio: "1",
                    borderRadius: "var(--mantine-radius-sm)",
                    overflow: "hidden",
                    border: "1px solid var(--mantine-color-default-border)",
                  }}
                >
                  <img
                    src={photo.url}
                    alt={`Chosen for training, ${index + 1} of ${count}`}
                    style={{ width: "100%", height: "100%", objectFit: "cover", display: "block" }}
                  />
                  <Tooltip label="Remove photo">
                    <ActionIcon
                      size="xs"
                      radius="xl"
                      variant="filled"
                      color="dark"
                      pos="absolute"
                      top={3}
                      right={3}
                      aria-label={`Remove training photo ${index + 1}`}
                      onClick={() => removePhoto(photo.id)}
                      style={{ opacity: 0.8 }}
                    >
                      <IconX size={10} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Box>
              ))}
            </SimpleGrid>
          ) : (
            <Group gap="xs" c="dimmed">
              <ThemeIcon variant="light" color="gray" size="sm" radius="xl">
                <IconUser size={12} aria-hidden />
              </ThemeIcon>
              <Text size="xs">No photos chosen yet.</Text>
            </Group>
          )}
          <Button variant="default" size="xs" onClick={clearPhotos} disabled={count === 0} w="fit-content">
            Clear Images
          </Button>
          <TextInput
            label="Name"
            placeholder="e.g. Jane Doe"
            description="How your AI Clone is listed in Pegasus generation and identity inpainting."
            {...form.getInputProps("description")}
            error={undefined}
            maxLength={NAME_MAX_LENGTH}
            withAsterisk
          />
        </>
      }
    />
  );
}
