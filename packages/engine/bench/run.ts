/**
 * Quality and speed of the builtin engine on the shared fixtures and on images this script makes.
 * Run from the repository root with `npm run bench -w packages/engine`; the figures go into
 * docs/benchmarks.md by hand. Every feature runs through the real engine (worker pool).
 */
import { readFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { createEngine, type Engine, type EngineOutput } from "../src/index";
import { inpaintTelea } from "../src/lib/opencv";

const FIXTURES = fileURLToPath(new URL("../../../../shared/fixtures/images/", import.meta.url));
const IMAGES = ["astronaut.png", "coffee.png", "chelsea.png"];

interface Rgb {
  data: Uint8Array;
  width: number;
  height: number;
}

async function rgbOf(input: Buffer | Uint8Array | string): Promise<Rgb> {
  const { data, info } = await sharp(input).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

function pngOf(image: Rgb): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .png()
    .toBuffer();
}

function imageOf(output: EngineOutput): Buffer {
  if (output.kind !== "image") throw new Error("expected an image");
  return output.png;
}

function psnr(a: Uint8Array, b: Uint8Array, region?: (pixel: number) => boolean): number {
  let squared = 0;
  let count = 0;
  for (let p = 0; p < a.length / 3; p++) {
    if (region && !region(p)) continue;
    for (let c = 0; c < 3; c++) {
      squared += (a[p * 3 + c]! - b[p * 3 + c]!) ** 2;
      count++;
    }
  }
  return squared === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255) / (squared / count));
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

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const start = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - start) / 1000 };
}

function table(header: string[], rows: (string | number)[][]): void {
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  console.log();
}

const speed: (string | number)[][] = [];

async function benchUpscaling(engine: Engine): Promise<void> {
  console.log("## Upscaling (2x): PSNR / SSIM against the original after a 2x downscale\n");
  const rows: (string | number)[][] = [];
  for (const name of IMAGES) {
    const original = await rgbOf(await sharp(`${FIXTURES}${name}`).resize({ width: 256 }).png().toBuffer());
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

async function benchTextRemoval(engine: Engine): Promise<void> {
  console.log("## Text removal: PSNR inside the text area against the clean original\n");
  const rows: (string | number)[][] = [];
  for (const name of IMAGES) {
    const clean = await rgbOf(await sharp(`${FIXTURES}${name}`).resize({ width: 480 }).png().toBuffer());
    const { width, height } = clean;
    const svg = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">
      <text x="20" y="60" font-size="40" font-family="sans-serif" font-weight="bold" fill="white">SALE 50% OFF</text>
      <text x="30" y="${height - 30}" font-size="26" font-family="sans-serif" fill="yellow">Prism benchmark text</text>
    </svg>`;
    const textedPng = await sharp(await pngOf(clean))
      .composite([{ input: Buffer.from(svg) }])
      .png()
      .toBuffer();
    const texted = await rgbOf(textedPng);
    // The text area: every pixel the drawing changed, grown by 3 px.
    const drawn = new Uint8Array(width * height);
    for (let p = 0; p < drawn.length; p++) {
      for (let c = 0; c < 3; c++) if (texted.data[p * 3 + c] !== clean.data[p * 3 + c]) drawn[p] = 1;
    }
    const area = new Uint8Array(drawn.length);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (!drawn[y * width + x]) continue;
        for (let dy = -3; dy <= 3; dy++) {
          for (let dx = -3; dx <= 3; dx++) {
            const nx = x + dx;
            const ny = y + dy;
            if (nx >= 0 && ny >= 0 && nx < width && ny < height) area[ny * width + nx] = 1;
          }
        }
      }
    }
    const inArea = (p: number) => area[p] === 1;
    const quality = await timed(() => engine.run("text-removal", { image: textedPng }));
    const fast = await timed(() => engine.run("text-removal", { image: textedPng, fast_mode: true }));
    // Telea on the exact (known) text boxes: a generous baseline that needs no detector.
    const boxes = new Uint8Array(width * height);
    const box = (x0: number, y0: number, x1: number, y1: number) => {
      for (let y = Math.max(0, y0); y < Math.min(height, y1); y++)
        boxes.fill(255, y * width + x0, y * width + x1);
    };
    box(14, 18, Math.min(width, 330), 72);
    box(24, height - 58, Math.min(width, 320), height - 22);
    const telea = await inpaintTelea(texted.data, width, height, boxes);
    rows.push([
      name,
      fmt(psnr(texted.data, clean.data, inArea)),
      fmt(psnr((await rgbOf(imageOf(quality.value))).data, clean.data, inArea)),
      fmt(psnr((await rgbOf(imageOf(fast.value))).data, clean.data, inArea)),
      fmt(psnr(telea, clean.data, inArea)),
    ]);
    const mp = (width * height) / 1e6;
    speed.push(["text-removal", name, fmt(quality.value ? quality.seconds / mp : 0, 1), "MP"]);
    speed.push(["text-removal (fast_mode)", name, fmt(fast.seconds / mp, 1), "MP"]);
  }
  table(["image (480 px wide)", "texted input", "engine", "engine fast_mode", "Telea on known boxes"], rows);
}

async function benchObjectRemoval(engine: Engine): Promise<void> {
  console.log("## Object removal: PSNR inside square masks against the original\n");
  const sizes = [8, 24, 48, 96];
  const rows: (string | number)[][] = [];
  for (const size of sizes) {
    const ours: number[] = [];
    const teleas: number[] = [];
    let seconds = 0;
    let megapixels = 0;
    for (const name of IMAGES) {
      const image = await rgbOf(await sharp(`${FIXTURES}${name}`).resize({ width: 360 }).png().toBuffer());
      const png = await pngOf(image);
      for (const [fx, fy] of [
        [0.3, 0.3],
        [0.6, 0.55],
        [0.45, 0.75],
      ] as const) {
        const left = Math.round(fx * image.width - size / 2);
        const top = Math.round(fy * image.height - size / 2);
        const mask = new Uint8Array(image.width * image.height);
        for (let y = top; y < top + size; y++)
          mask.fill(255, y * image.width + left, y * image.width + left + size);
        const maskPng = await sharp(mask, { raw: { width: image.width, height: image.height, channels: 1 } })
          .png()
          .toBuffer();
        const run = await timed(() => engine.run("object-removal", { image: png, mask: maskPng }));
        seconds += run.seconds;
        megapixels += (image.width * image.height) / 1e6;
        const inMask = (p: number) => mask[p] === 255;
        ours.push(psnr((await rgbOf(imageOf(run.value))).data, image.data, inMask));
        teleas.push(
          psnr(await inpaintTelea(image.data, image.width, image.height, mask), image.data, inMask),
        );
      }
    }
    rows.push([`${size}x${size}`, fmt(mean(ours)), fmt(mean(teleas))]);
    speed.push(["object-removal", `${size}px masks`, fmt(seconds / megapixels, 1), "MP"]);
  }
  table(["mask (on 360 px wide images, 9 masks each)", "engine", "Telea"], rows);
}

async function benchBackgroundRemoval(engine: Engine): Promise<void> {
  console.log("## Background removal: IoU against the known alpha of a composite\n");
  const rows: (string | number)[][] = [];
  // A blurred patch of coffee.png's wooden table: a background with no salient object of its own.
  const background = await sharp(`${FIXTURES}coffee.png`)
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
    const crop = await sharp(`${FIXTURES}${name}`).removeAlpha().extract(crops[name]).png().toBuffer();
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

async function benchExtension(engine: Engine): Promise<void> {
  const image = await sharp(`${FIXTURES}chelsea.png`).resize({ width: 240 }).png().toBuffer();
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

async function benchFaceSwap(engine: Engine): Promise<void> {
  const portrait = await readFile(`${FIXTURES}astronaut.png`);
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
  const image = await sharp(`${FIXTURES}coffee.png`).resize({ width: 300 }).png().toBuffer();
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
  const upscaleInput = await sharp(`${FIXTURES}astronaut.png`).resize(192).png().toBuffer();
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
  const image = await sharp(`${FIXTURES}astronaut.png`).resize(96).removeAlpha().png().toBuffer();
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

async function main(): Promise<void> {
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
    await warmUp(engine);
    await benchUpscaling(engine);
    await benchTextRemoval(engine);
    await benchObjectRemoval(engine);
    await benchBackgroundRemoval(engine);
    await benchExtension(engine);
    await benchFaceSwap(engine);
  } finally {
    await engine.close();
  }
  await benchPool();
  console.log(
    "## Seconds per megapixel (warm, 2 workers; first call of a feature in a worker loads its model)\n",
  );
  table(["feature", "input", "s / MP", "per"], speed);
}

await main();
