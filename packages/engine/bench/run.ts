/**
 * Quality and speed of the builtin engine on the repository's fixtures and on composites this script
 * makes from them (so the truth is known). Run from the repository root with
 * `npm run bench -w packages/engine`; the figures go into docs/benchmarks.md by hand. Every feature runs
 * through the real engine (worker pool); the fills are also run in this process, old and new side by
 * side, so the two are timed on the same machine at the same moment.
 */
import { readFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg } from "node:os";
import sharp from "sharp";
import { findLetters, textRemoval } from "../src/features/text-removal";
import { createEngine, type Engine, type EngineOutput } from "../src/index";
import { inpaintTelea } from "../src/lib/opencv";
import { completeImage, LEGACY_COMPLETION } from "../src/lib/patchmatch";
import { detailRatio, flatFill, psnr, seamRatio, squareMask } from "../test/quality";
import {
  type CaseScore,
  evaluateCaptionSet,
  OUTSIDE_MARGIN,
  OUTSIDE_PSNR_GOAL,
  TEXT_PSNR_GOAL,
  type TextRemovalVersion,
} from "./caption-set";
import {
  CAPTIONS,
  captioned,
  fixture,
  fixturePath,
  HOLE_CENTRES,
  maskPng,
  PHOTOS,
  pngOf,
  type Rgb,
  rgbOf,
  TEXTURES,
} from "./common";
import { findLetters as findLettersBefore, legacyTextRemoval } from "./legacy-text-removal";
import { mainTextRemoval } from "./main-text-removal";

const IMAGES = ["astronaut.png", "coffee.png", "chelsea.png"];

function imageOf(output: EngineOutput): Buffer {
  if (output.kind !== "image") throw new Error("expected an image");
  return output.png;
}

/** Mean SSIM of luma over 8x8 windows with stride 4 (Wang et al. 2004 constants). */
function ssim(a: Rgb, b: Rgb): number {
  const luma = (img: Rgb) => {
    const out = new Float64Array(img.width * img.height);
    for (let i = 0; i < out.length; i++) {
      out[i] = 0.299 * img.data[i * 3]! + 0.587 * img.data[i * 3 + 1]! + 0.114 * img.data[i * 3 + 2]!;
    }
    return out;
  };
  const la = luma(a);
  const lb = luma(b);
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let total = 0;
  let windows = 0;
  for (let y = 0; y + 8 <= a.height; y += 4) {
    for (let x = 0; x + 8 <= a.width; x += 4) {
      let ma = 0;
      let mb = 0;
      for (let dy = 0; dy < 8; dy++) {
        for (let dx = 0; dx < 8; dx++) {
          const i = (y + dy) * a.width + x + dx;
          ma += la[i]!;
          mb += lb[i]!;
        }
      }
      ma /= 64;
      mb /= 64;
      let va = 0;
      let vb = 0;
      let cov = 0;
      for (let dy = 0; dy < 8; dy++) {
        for (let dx = 0; dx < 8; dx++) {
          const i = (y + dy) * a.width + x + dx;
          va += (la[i]! - ma) ** 2;
          vb += (lb[i]! - mb) ** 2;
          cov += (la[i]! - ma) * (lb[i]! - mb);
        }
      }
      va /= 63;
      vb /= 63;
      cov /= 63;
      total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
      windows++;
    }
  }
  return total / windows;
}

const fmt = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "inf");
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * Wall seconds, and the CPU seconds the process used meanwhile (all its threads). On a shared, loaded
 * machine the wall time of a computation in this thread grows with everybody else's work; its CPU time
 * much less, so old and new fills run here are compared by CPU time.
 */
async function timed<T>(
  work: () => Promise<T> | T,
): Promise<{ value: T; seconds: number; cpuSeconds: number }> {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const value = await work();
  const cpu = process.cpuUsage(cpuStart);
  return {
    value,
    seconds: (performance.now() - start) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

function table(header: string[], rows: (string | number)[][]): void {
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  console.log();
}

const speed: (string | number)[][] = [];

async function benchTextRemoval(engine: Engine): Promise<void> {
  console.log(
    "## Text removal: PSNR (dB) in the caption's pixels (and in them grown by 3 px) against the clean photo\n",
  );
  const rows: (string | number)[][] = [];
  for (const caption of CAPTIONS) {
    const { clean, png, texted, text, area } = await captioned(caption);
    const inText = (p: number) => text[p] === 1;
    const inArea = (p: number) => area[p] === 1;
    const quality = await timed(() => engine.run("text-removal", { image: png }));
    const fast = await timed(() => engine.run("text-removal", { image: png, fast_mode: true }));
    const result = await rgbOf(imageOf(quality.value));
    const fastResult = await rgbOf(imageOf(fast.value));
    const both = (image: Rgb) =>
      `${fmt(psnr(image.data, clean.data, inText))} (${fmt(psnr(image.data, clean.data, inArea))})`;
    rows.push([
      `${caption.fixture} ${clean.width} px wide`,
      `"${caption.text}" ${caption.size} px ${caption.fill}`,
      both(texted),
      both(result),
      both(fastResult),
    ]);
    const mp = (clean.width * clean.height) / 1e6;
    speed.push(["text-removal", `${caption.fixture} ${clean.width} px`, fmt(quality.seconds / mp, 1), "MP"]);
    speed.push([
      "text-removal (fast_mode)",
      `${caption.fixture} ${clean.width} px`,
      fmt(fast.seconds / mp, 1),
      "MP",
    ]);
  }
  table(["image", "caption (bold)", "captioned input", "engine", "engine fast_mode"], rows);
}

/**
 * The text removal after issue 34's first round (detection and letter mask; the letters filled by
 * Telea or exemplar-based completion) and now (the membrane fill), in this process; with
 * `CAPTION_BEFORE=1` also the version before issue 34 (a third of the run's time more).
 */
const TEXT_REMOVAL_VERSIONS: TextRemovalVersion[] = [
  ...(process.env.CAPTION_BEFORE === "1"
    ? [{ name: "before", findLetters: findLettersBefore, feature: legacyTextRemoval }]
    : []),
  { name: "round 1", findLetters, feature: mainTextRemoval },
  { name: "now", findLetters, feature: textRemoval },
];

const share = (count: number, total: number) => `${count}/${total} (${((100 * count) / total).toFixed(1)} %)`;

/**
 * Issue 34's display captions (fixtures/captions/): every word found, PSNR in the caption's pixels and
 * outside them, and the CPU time of each version per caption. `CAPTION_CASES=c01,c07` runs only those.
 */
async function benchCaptionSet(): Promise<void> {
  console.log(
    `## Display captions (issue 34): words found, PSNR (dB) in the caption's pixels and outside them grown by ${OUTSIDE_MARGIN} px, per version\n`,
  );
  const warm = await sharp(fixturePath("coffee.png")).resize({ width: 200 }).png().toBuffer();
  for (const version of TEXT_REMOVAL_VERSIONS) await version.feature.run({ image: warm });
  const wanted = process.env.CAPTION_CASES?.split(",");
  const versionNames = TEXT_REMOVAL_VERSIONS.map((version) => version.name).join(" / ");
  const rows: (string | number)[][] = [];
  const results = await evaluateCaptionSet(
    TEXT_REMOVAL_VERSIONS,
    wanted ? (id) => wanted.includes(id) : undefined,
    (result) => {
      const { caption } = result.input;
      const { scores } = result;
      const words = (found: boolean[]) => `${found.filter(Boolean).length}/${found.length}`;
      const each = (show: (score: CaseScore) => string) => scores.map(show).join(" / ");
      const [previous, now] = scores.slice(-2) as [CaseScore, CaseScore];
      const row = [
        caption.id,
        `${caption.photo} ${caption.photoWidth} px`,
        `"${caption.text}" ${caption.font} ${caption.capHeight} px ${caption.fill}${caption.outline ? ` outlined ${caption.outline}` : ""}`,
        fmt(result.inputPsnr),
        each((score) => words(score.found)),
        each((score) => fmt(score.textPsnr)),
        each((score) => fmt(score.outsidePsnr)),
        fmt(result.trueMaskPsnr ?? Number.NaN),
        each((score) => fmt(score.cpuSeconds)),
        fmt(now.cpuSeconds / previous.cpuSeconds),
      ];
      rows.push(row);
      console.error(row.join(" | "));
    },
    true,
  );
  table(
    [
      "case",
      "photo",
      "caption (capitals' height)",
      "captioned input",
      `words found ${versionNames}`,
      `text pixels ${versionNames}`,
      `outside ${versionNames}`,
      "fill (now) with the true mask",
      `CPU s ${versionNames}`,
      "CPU now / round 1",
    ],
    rows,
  );
  const summary = TEXT_REMOVAL_VERSIONS.map((version, v) => {
    const scores = results.map((result) => result.scores[v]!);
    const words = scores.flatMap((score) => score.found);
    return [
      version.name,
      share(scores.filter((score) => !score.found.includes(false)).length, scores.length),
      share(words.filter(Boolean).length, words.length),
      share(scores.filter((score) => score.textPsnr >= TEXT_PSNR_GOAL).length, scores.length),
      share(scores.filter((score) => score.outsidePsnr >= OUTSIDE_PSNR_GOAL).length, scores.length),
      fmt(mean(scores.map((score) => score.textPsnr))),
      fmt(
        scores.reduce((sum, score) => sum + score.cpuSeconds, 0),
        1,
      ),
    ];
  });
  const ceiling = results.map((result) => result.trueMaskPsnr ?? 0);
  console.log(
    `The fill given the caption's true pixels as its mask: ${share(ceiling.filter((value) => value >= TEXT_PSNR_GOAL).length, ceiling.length)} cases ≥ ${TEXT_PSNR_GOAL} dB, mean ${fmt(mean(ceiling))} dB\n`,
  );
  table(
    [
      "version",
      "cases with every word found",
      "words found",
      `cases ≥ ${TEXT_PSNR_GOAL} dB in the text pixels`,
      `cases ≥ ${OUTSIDE_PSNR_GOAL} dB outside`,
      "mean dB in the text pixels",
      "CPU s, all cases",
    ],
    summary,
  );
  const [previous, now] = [TEXT_REMOVAL_VERSIONS.length - 2, TEXT_REMOVAL_VERSIONS.length - 1];
  const ratios = results.map(
    (result) => result.scores[now]!.cpuSeconds / result.scores[previous]!.cpuSeconds,
  );
  console.log(
    `CPU now / round 1: ${fmt(
      results.reduce((sum, result) => sum + result.scores[now]!.cpuSeconds, 0) /
        results.reduce((sum, result) => sum + result.scores[previous]!.cpuSeconds, 0),
    )} over all cases, median per caption ${fmt([...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!)}, highest ${fmt(Math.max(...ratios))}\n`,
  );
}

interface FillScore {
  psnr: number[];
  detail: number[];
  seam: number[];
}

const newScore = (): FillScore => ({ psnr: [], detail: [], seam: [] });

function score(into: FillScore, fill: Uint8Array, image: Rgb, mask: Uint8Array): void {
  into.psnr.push(psnr(fill, image.data, (p) => mask[p] !== 0));
  into.detail.push(detailRatio(fill, image.data, image.width, image.height, mask));
  into.seam.push(seamRatio(fill, image.data, image.width, image.height, mask));
}

const show = (s: FillScore) => `${fmt(mean(s.psnr))} / ${fmt(mean(s.detail))} / ${fmt(mean(s.seam))}`;

/**
 * The best a copy can do: the hole's PSNR when it is filled with the single block of the image, anywhere
 * outside the hole, that is closest to the hidden truth (chosen by looking at it).
 */
function bestCopyPsnr(image: Rgb, left: number, top: number, size: number): number {
  const { data, width, height } = image;
  let best = Number.POSITIVE_INFINITY;
  for (let sy = 0; sy + size <= height; sy++) {
    for (let sx = 0; sx + size <= width; sx++) {
      if (Math.abs(sx - left) < size && Math.abs(sy - top) < size) continue;
      let sum = 0;
      for (let y = 0; y < size && sum < best; y++) {
        const a = ((top + y) * width + left) * 3;
        const b = ((sy + y) * width + sx) * 3;
        for (let k = 0; k < size * 3; k++) sum += (data[a + k]! - data[b + k]!) ** 2;
      }
      best = Math.min(best, sum);
    }
  }
  return 10 * Math.log10((255 * 255) / (best / (size * size * 3)));
}

async function benchObjectRemoval(): Promise<void> {
  console.log(
    "## Object removal: PSNR (dB) / detail ratio / seam ratio inside square holes, old and new fills side by side\n",
  );
  const rows: (string | number)[][] = [];
  const ceilings: (string | number)[][] = [];
  for (const name of [...TEXTURES, ...PHOTOS]) {
    const texture = TEXTURES.includes(name);
    const image = await fixture(name, texture ? undefined : 360);
    const size = texture ? 40 : 48;
    const scores = { flat: newScore(), telea: newScore(), old: newScore(), new: newScore() };
    const seconds = { old: 0, new: 0 };
    const copies: number[] = [];
    for (const [fx, fy] of HOLE_CENTRES) {
      const mask = squareMask(image.width, image.height, size, fx, fy);
      score(scores.flat, flatFill(image.data, image.width, image.height, mask), image, mask);
      score(scores.telea, await inpaintTelea(image.data, image.width, image.height, mask), image, mask);
      const old = await timed(() =>
        completeImage(image.data, image.width, image.height, mask, LEGACY_COMPLETION),
      );
      const now = await timed(() => completeImage(image.data, image.width, image.height, mask));
      score(scores.old, old.value, image, mask);
      score(scores.new, now.value, image, mask);
      seconds.old += old.seconds;
      seconds.new += now.seconds;
      if (texture) {
        const left = Math.round(fx * image.width - size / 2);
        const top = Math.round(fy * image.height - size / 2);
        copies.push(bestCopyPsnr(image, left, top, size));
      }
    }
    rows.push([
      `${name} ${image.width}x${image.height}, ${size} px`,
      show(scores.flat),
      show(scores.telea),
      show(scores.old),
      show(scores.new),
      `${fmt(seconds.old / 3)} / ${fmt(seconds.new / 3)}`,
    ]);
    if (texture) {
      ceilings.push([name, fmt(mean(scores.flat.psnr)), fmt(mean(copies)), fmt(mean(scores.new.psnr))]);
    }
  }
  table(
    [
      "image, hole (3 positions, means)",
      "flat fill",
      "Telea",
      "old (previous version)",
      "new",
      "old / new s per fill",
    ],
    rows,
  );
  console.log("### The PSNR a copied texture can reach (means over the 3 holes)\n");
  table(["texture", "flat fill", "best single copy, chosen with the truth", "new"], ceilings);
}

async function benchFillTime(engine: Engine): Promise<void> {
  console.log(
    "### Fill time by hole size: old and new in this process (CPU seconds, 3 rounds), and the engine end to end (wall)\n",
  );
  // One fill of each first, so neither pays for compiling the shared code.
  const warm = await fixture("coffee.png", 360);
  const warmMask = squareMask(warm.width, warm.height, 24, 0.5, 0.5);
  completeImage(warm.data, warm.width, warm.height, warmMask, LEGACY_COMPLETION);
  completeImage(warm.data, warm.width, warm.height, warmMask);
  const images = await Promise.all(
    ["astronaut.png", "coffee.png", "chelsea.png"].map((name) => fixture(name, 360)),
  );
  const timing: (string | number)[][] = [];
  for (const size of [8, 24, 48, 96]) {
    const total = { old: 0, new: 0, engine: 0, mp: 0 };
    const holes = images.flatMap((image) =>
      HOLE_CENTRES.map(([fx, fy]) => ({ image, mask: squareMask(image.width, image.height, size, fx, fy) })),
    );
    // The process's CPU time counts every thread, so the fills are timed while the engine's workers
    // are idle, not between its jobs; a fill of a small hole takes milliseconds, hence the rounds.
    for (let round = 0; round < 3; round++) {
      for (const { image, mask } of holes) {
        total.old += (
          await timed(() => completeImage(image.data, image.width, image.height, mask, LEGACY_COMPLETION))
        ).cpuSeconds;
        total.new += (
          await timed(() => completeImage(image.data, image.width, image.height, mask))
        ).cpuSeconds;
        total.mp += (image.width * image.height) / 1e6 / 3;
      }
    }
    for (const { image, mask } of holes) {
      // Thin holes go to Telea in the engine; the completion above is timed for every size.
      const png = await pngOf(image);
      const maskBytes = await maskPng(mask, image.width, image.height);
      total.engine += (
        await timed(() => engine.run("object-removal", { image: png, mask: maskBytes }))
      ).seconds;
    }
    timing.push([
      `${size}x${size}`,
      fmt(total.old / 3 / total.mp, 2),
      fmt(total.new / 3 / total.mp, 2),
      fmt(total.new / total.old, 2),
      fmt(total.engine / total.mp, 2),
    ]);
    speed.push(["object-removal", `${size}px masks`, fmt(total.engine / total.mp, 1), "MP"]);
  }
  table(
    [
      "hole (9 per size, 360 px wide photos)",
      "old CPU s/MP",
      "new CPU s/MP",
      "new / old",
      "engine s/MP (new, wall)",
    ],
    timing,
  );
}

async function benchExtension(engine: Engine): Promise<void> {
  console.log(
    "## Image extension: a cut-off strip grown back, PSNR (dB) / detail ratio against the cut-off part\n",
  );
  const rows: (string | number)[][] = [];
  for (const name of ["grass.png", "brick.png", "chelsea.png"]) {
    const image = await fixture(name, 256);
    const strip = 48;
    const mask = new Uint8Array(image.width * image.height);
    for (let y = 0; y < image.height; y++)
      mask.fill(255, y * image.width + image.width - strip, (y + 1) * image.width);
    const old = await timed(() =>
      completeImage(image.data, image.width, image.height, mask, LEGACY_COMPLETION),
    );
    const now = await timed(() => completeImage(image.data, image.width, image.height, mask));
    const both = (fill: Uint8Array) =>
      `${fmt(psnr(fill, image.data, (p) => mask[p] !== 0))} / ${fmt(detailRatio(fill, image.data, image.width, image.height, mask))}`;
    rows.push([
      `${name} 256 px wide, right ${strip} px`,
      both(old.value),
      both(now.value),
      `${fmt(old.seconds)} / ${fmt(now.seconds)}`,
    ]);
  }
  table(["image", "old", "new", "old / new s"], rows);
  const image = await sharp(fixturePath("chelsea.png")).resize({ width: 240 }).png().toBuffer();
  const run = await timed(() =>
    engine.run("image-extension", { image, top: 0, bottom: 0, left: 60, right: 60 }),
  );
  const output = run.value.kind === "image" ? run.value : undefined;
  if (output) {
    speed.push([
      "image-extension",
      "chelsea 240 px + 60 px each side",
      fmt(run.seconds / ((output.width * output.height) / 1e6), 1),
      "output MP",
    ]);
  }
}

async function benchUpscaling(engine: Engine): Promise<void> {
  console.log("## Upscaling (2x): PSNR / SSIM against the original after a 2x downscale\n");
  const rows: (string | number)[][] = [];
  for (const name of IMAGES) {
    const original = await rgbOf(await sharp(fixturePath(name)).resize({ width: 256 }).png().toBuffer());
    const evenWidth = original.width - (original.width % 2);
    const evenHeight = original.height - (original.height % 2);
    const cropped = await rgbOf(
      await sharp(await pngOf(original))
        .extract({ left: 0, top: 0, width: evenWidth, height: evenHeight })
        .toBuffer(),
    );
    const small = await sharp(await pngOf(cropped))
      .resize(evenWidth / 2, evenHeight / 2, { kernel: "cubic" })
      .png()
      .toBuffer();
    const lanczos = await rgbOf(
      await sharp(small).resize(evenWidth, evenHeight, { kernel: "lanczos3" }).toBuffer(),
    );
    const { value, seconds } = await timed(() => engine.run("image-upscaling", { image: small }));
    const upscaled = await rgbOf(imageOf(value));
    rows.push([
      `${name} (${evenWidth / 2}x${evenHeight / 2} → ${evenWidth}x${evenHeight})`,
      `${fmt(psnr(upscaled.data, cropped.data))} / ${fmt(ssim(upscaled, cropped), 3)}`,
      `${fmt(psnr(lanczos.data, cropped.data))} / ${fmt(ssim(lanczos, cropped), 3)}`,
    ]);
    speed.push(["image-upscaling", name, fmt(seconds / ((evenWidth * evenHeight) / 4 / 1e6), 1), "input MP"]);
  }
  table(["image", "engine (ESRGAN slim, tiled)", "sharp Lanczos3"], rows);
}

async function benchBackgroundRemoval(engine: Engine): Promise<void> {
  console.log("## Background removal: IoU against the known alpha of a composite\n");
  const rows: (string | number)[][] = [];
  // A blurred patch of coffee.png's wooden table: a background with no salient object of its own.
  const background = await sharp(fixturePath("coffee.png"))
    .extract({ left: 0, top: 300, width: 160, height: 100 })
    .resize(480, 360, { fit: "fill" })
    .blur(6)
    .removeAlpha()
    .png()
    .toBuffer();
  // Each subject is a crop filled edge to edge by one thing (the cat's face, the orange suit and its
  // patch), cut to a known silhouette, so the whole silhouette is the object and its alpha is the truth.
  const crops = {
    "astronaut.png": { left: 60, top: 300, width: 200, height: 200 },
    "chelsea.png": { left: 120, top: 60, width: 200, height: 200 },
  };
  for (const [name, shape] of [
    ["chelsea.png", "ellipse"],
    ["astronaut.png", "rounded rectangle"],
  ] as const) {
    const width = 240;
    const height = 240;
    const silhouette =
      shape === "ellipse"
        ? `<ellipse cx="120" cy="120" rx="90" ry="115" fill="white"/>`
        : `<rect x="20" y="40" width="200" height="160" rx="30" fill="white"/>`;
    const alphaSvg = Buffer.from(
      `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">${silhouette}</svg>`,
    );
    const alpha = await sharp(alphaSvg).flatten({ background: "#000" }).extractChannel(0).raw().toBuffer();
    // sharp applies removeAlpha after joinChannel in one pipeline, so the RGB crop is made first.
    const crop = await sharp(fixturePath(name)).removeAlpha().extract(crops[name]).png().toBuffer();
    const subject = await sharp(crop)
      .resize(width, height, { fit: "fill" })
      .joinChannel(alpha, {
        raw: { width, height, channels: 1 },
      });
    const composite = await sharp(background)
      .composite([{ input: await subject.png().toBuffer(), left: 120, top: 60 }])
      .png()
      .toBuffer();
    const run = await timed(() => engine.run("image-background-removal", { image: composite }));
    const { data, info } = await sharp(imageOf(run.value))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    let intersection = 0;
    let union = 0;
    for (let y = 0; y < info.height; y++) {
      for (let x = 0; x < info.width; x++) {
        const sx = x - 120;
        const sy = y - 60;
        const truth = sx >= 0 && sy >= 0 && sx < width && sy < height && alpha[sy * width + sx]! > 127;
        const predicted = data[(y * info.width + x) * 4 + 3]! > 127;
        if (truth && predicted) intersection++;
        if (truth || predicted) union++;
      }
    }
    rows.push([
      `${name} crop cut as a ${shape}, on blurred table from coffee.png`,
      fmt(intersection / union, 3),
    ]);
    speed.push([
      "image-background-removal",
      name,
      fmt(run.seconds / ((info.width * info.height) / 1e6), 1),
      "MP",
    ]);
  }
  table(["composite (480x360)", "IoU"], rows);
}

async function benchFaceSwap(engine: Engine): Promise<void> {
  const portrait = await readFile(fixturePath("astronaut.png"));
  const source = await sharp(portrait).removeAlpha().png().toBuffer();
  const target = await sharp(portrait).removeAlpha().flop().modulate({ hue: 30 }).png().toBuffer();
  await engine.run("face-swapping", { source, target });
  const run = await timed(() => engine.run("face-swapping", { source, target }));
  speed.push([
    "face-swapping",
    "astronaut 512x512 onto its mirror",
    fmt(run.seconds / 0.262, 1),
    "target MP",
  ]);
}

async function benchPool(): Promise<void> {
  console.log("## Pool speed-up: the same jobs with 1 and 2 workers (warm)\n");
  const image = await sharp(fixturePath("coffee.png")).resize({ width: 300 }).png().toBuffer();
  const meta = await sharp(image).metadata();
  const mask = await sharp({
    create: { width: meta.width!, height: meta.height!, channels: 3, background: "#000" },
  })
    .composite([
      {
        input: await sharp({ create: { width: 50, height: 50, channels: 3, background: "#fff" } })
          .png()
          .toBuffer(),
        left: 120,
        top: 80,
      },
    ])
    .png()
    .toBuffer();
  const upscaleInput = await sharp(fixturePath("astronaut.png")).resize(192).png().toBuffer();
  const rows: (string | number)[][] = [];
  const results: Record<string, number[]> = { objects: [], upscale: [] };
  for (const workers of [1, 2]) {
    const engine = createEngine({ workers, jobTimeoutMs: 600_000 });
    await Promise.all(Array.from({ length: workers }, () => engine.run("object-removal", { image, mask })));
    await engine.run("image-upscaling", { image: upscaleInput });
    const jobs = await timed(() =>
      Promise.all(Array.from({ length: 6 }, () => engine.run("object-removal", { image, mask }))),
    );
    const upscale = await timed(() => engine.run("image-upscaling", { image: upscaleInput }));
    results.objects!.push(jobs.seconds);
    results.upscale!.push(upscale.seconds);
    await engine.close();
  }
  rows.push([
    "6 object-removal jobs (300 px, 50 px mask)",
    ...results.objects!.map((s) => fmt(s)),
    fmt(results.objects![0]! / results.objects![1]!),
  ]);
  rows.push([
    "1 upscaling job (192 px, tiles spread)",
    ...results.upscale!.map((s) => fmt(s)),
    fmt(results.upscale![0]! / results.upscale![1]!),
  ]);
  table(["work", "1 worker (s)", "2 workers (s)", "speed-up"], rows);
}

/** Loads every model in both workers, so the timings below are warm. */
async function warmUp(engine: Engine): Promise<void> {
  const image = await sharp(fixturePath("astronaut.png")).resize(96).removeAlpha().png().toBuffer();
  const mask = await sharp({ create: { width: 96, height: 96, channels: 3, background: "#000" } })
    .composite([
      {
        input: await sharp({ create: { width: 20, height: 20, channels: 3, background: "#fff" } })
          .png()
          .toBuffer(),
        left: 30,
        top: 30,
      },
    ])
    .png()
    .toBuffer();
  for (let round = 0; round < 2; round++) {
    await Promise.all([
      engine.run("image-background-removal", { image }),
      engine.run("image-background-removal", { image }),
    ]);
    await Promise.all([engine.run("text-removal", { image }), engine.run("text-removal", { image })]);
    await Promise.all([
      engine.run("object-removal", { image, mask }),
      engine.run("object-removal", { image, mask }),
    ]);
    await engine.run("image-upscaling", { image });
    await Promise.all([
      engine.run("face-swapping", { source: image, target: image }).catch(() => undefined),
      engine.run("face-swapping", { source: image, target: image }).catch(() => undefined),
    ]);
  }
}

/**
 * `BENCH_ONLY=text,fill-time` runs only those sections (upscaling, text, captions, objects, fill-time,
 * extension, background, faces, pool), so a change to one feature is measured without the whole run on a shared machine.
 */
const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());
const wanted = (section: string) => !only || only.includes(section);

async function main(): Promise<void> {
  const started = performance.now();
  console.log(
    `# Engine benchmark\n\n${cpus()[0]?.model ?? "CPU"}, ${availableParallelism()} cores, Node ${process.version}, load average at start ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}\n`,
  );
  const engine = createEngine({ workers: 2, jobTimeoutMs: 600_000 });
  try {
    const report = await engine.availability();
    for (const [feature, entry] of Object.entries(report)) {
      console.log(`- ${feature}: ${entry.available ? "available" : `unavailable (${entry.reason})`}`);
    }
    console.log();
    if (["upscaling", "text", "fill-time", "extension", "background", "faces"].some(wanted)) {
      await warmUp(engine);
    }
    if (wanted("upscaling")) await benchUpscaling(engine);
    if (wanted("text")) await benchTextRemoval(engine);
    if (wanted("captions")) await benchCaptionSet();
    if (wanted("objects")) await benchObjectRemoval();
    if (wanted("fill-time")) await benchFillTime(engine);
    if (wanted("extension")) await benchExtension(engine);
    if (wanted("background")) await benchBackgroundRemoval(engine);
    if (wanted("faces")) await benchFaceSwap(engine);
  } finally {
    await engine.close();
  }
  if (wanted("pool")) await benchPool();
  console.log(
    "## Seconds per megapixel (warm, 2 workers; first call of a feature in a worker loads its model)\n",
  );
  table(["feature", "input", "s / MP", "per"], speed);
  console.log(`The whole run took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

await main();
