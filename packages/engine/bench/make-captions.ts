/**
 * Writes the display-caption set of issue 34 into fixtures/captions/: for each case one RGBA layer (the
 * caption as drawn, outline included), one map of which word owns each of its pixels, and an entry in
 * cases.json saying where the layer goes on which fixture. The bench, the gallery and the engine's tests
 * composite the layers onto the fixtures at run time, so the truth is known and no font is needed then.
 *
 * Run from the repository root with `npm run captions -w @prism/engine` on a machine with Debian's font
 * packages fonts-dejavu-core, fonts-liberation, fonts-noto-core, fonts-open-sans and fonts-lato. The output
 * is deterministic for a given sharp (its bundled Pango and FreeType) and the same fonts.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import sharp from "sharp";
import { CAPTION_SET_DIR, type CaptionCase } from "../test/captions";
import { fixture } from "./common";

const FONTS_DIR = "/usr/share/fonts/truetype/";

/** Bold display faces from Debian's font packages: family as Pango names it, and its file. */
const FONTS = [
  { family: "DejaVu Sans Bold", file: "dejavu/DejaVuSans-Bold.ttf" },
  { family: "Liberation Sans Bold", file: "liberation/LiberationSans-Bold.ttf" },
  { family: "Noto Sans Bold", file: "noto/NotoSans-Bold.ttf" },
  { family: "Open Sans ExtraBold", file: "open-sans/OpenSans-ExtraBold.ttf" },
  { family: "Lato Black", file: "lato/Lato-Black.ttf" },
  { family: "Liberation Serif Bold", file: "liberation/LiberationSerif-Bold.ttf" },
  { family: "DejaVu Serif Bold", file: "dejavu/DejaVuSerif-Bold.ttf" },
] as const;

/** Plain fills in white, black and colour, and outlined ones (fill, then outline colour). */
const STYLES: { fill: string; outline?: string }[] = [
  { fill: "#ffffff" },
  { fill: "#000000" },
  { fill: "#ffd400" },
  { fill: "#ffffff", outline: "#000000" },
  { fill: "#e8202a" },
  { fill: "#000000", outline: "#ffffff" },
  { fill: "#00c8ff" },
  { fill: "#ffd400", outline: "#000000" },
  { fill: "#ff7a00" },
  { fill: "#e8202a", outline: "#ffffff" },
];

/** Height of the capitals in pixels: the issue's range, 20-80 px. */
const CAP_HEIGHTS = [20, 24, 30, 36, 44, 52, 64, 80];

const TEXTS = [
  "BIG SALE",
  "SUMMER SALE",
  "OPEN TODAY",
  "HOT DEALS",
  "GAME DAY",
  "NEW IN",
  "Last chance",
  "FREE SHIPPING",
  "Fresh daily",
  "LIMITED OFFER",
  "GRAND OPENING",
  "Best price ever",
  "WIN BIG",
  "Garage sale",
  "SHOP NOW",
  "TOP 10 TIPS",
];

/** Busy photos: the garage scene most of all (shelves, boxes, a motorcycle), then the fixture photos. */
const PHOTOS = [
  { name: "motorcycle.png", width: 741 },
  { name: "rocket.jpg", width: 640 },
  { name: "motorcycle.png", width: 741 },
  { name: "coffee.png", width: 600 },
  { name: "motorcycle.png", width: 741 },
  { name: "astronaut.png", width: 512 },
  { name: "motorcycle.png", width: 741 },
  { name: "chelsea.png", width: 451 },
];

const CASES = 64;

/** A small seeded generator (mulberry32), so the set is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const escapeMarkup = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** Renders Pango markup with one font at `emPixels`, as RGBA cropped to the ink. */
async function render(markup: string, font: (typeof FONTS)[number], emPixels: number) {
  const { data, info } = await sharp({
    text: {
      text: markup,
      font: `${font.family} ${emPixels}px`,
      fontfile: FONTS_DIR + font.file,
      dpi: 72,
      rgba: true,
    },
  })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

async function capHeightRatio(font: (typeof FONTS)[number]): Promise<number> {
  const { height } = await render("H", font, 200);
  return height / 200;
}

/** Alpha grown by `radius` (the largest alpha within a disc), padded by `radius` on every side. */
function grownAlpha(alpha: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const outWidth = width + 2 * radius;
  const outHeight = height + 2 * radius;
  const out = new Uint8Array(outWidth * outHeight);
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      let most = 0;
      for (let dy = -radius; dy <= radius; dy++) {
        const sy = y - radius + dy;
        if (sy < 0 || sy >= height) continue;
        for (let dx = -radius; dx <= radius; dx++) {
          if (dx * dx + dy * dy > radius * radius + radius) continue;
          const sx = x - radius + dx;
          if (sx < 0 || sx >= width) continue;
          most = Math.max(most, alpha[sy * width + sx]!);
        }
      }
      out[y * outWidth + x] = most;
    }
  }
  return out;
}

function padded(alpha: Uint8Array, width: number, height: number, pad: number): Uint8Array {
  const outWidth = width + 2 * pad;
  const out = new Uint8Array(outWidth * (height + 2 * pad));
  for (let y = 0; y < height; y++)
    out.set(alpha.subarray(y * width, (y + 1) * width), (y + pad) * outWidth + pad);
  return out;
}

function hex(colour: string): [number, number, number] {
  return [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16)) as [number, number, number];
}

async function main(): Promise<void> {
  await rm(CAPTION_SET_DIR, { recursive: true, force: true });
  await mkdir(CAPTION_SET_DIR, { recursive: true });
  const next = random(34);
  const ratios = await Promise.all(FONTS.map(capHeightRatio));
  const cases: CaptionCase[] = [];
  for (let k = 0; k < CASES; k++) {
    const fontIndex = k % FONTS.length;
    const font = FONTS[fontIndex]!;
    const style = STYLES[Math.floor(k / 2) % STYLES.length]!;
    const photo = PHOTOS[k % PHOTOS.length]!;
    const clean = await fixture(photo.name, photo.width);
    // The first text (in a shuffled order) that fits the photo with a margin; when none does at this
    // size, the next smaller size.
    const start = Math.floor(next() * TEXTS.length);
    let chosen:
      | {
          text: string;
          line: Awaited<ReturnType<typeof render>>;
          capHeight: number;
          emPixels: number;
          outlineWidth: number;
        }
      | undefined;
    for (
      let size = (k * 3 + Math.floor(k / PHOTOS.length)) % CAP_HEIGHTS.length;
      size >= 0 && !chosen;
      size--
    ) {
      const capHeight = CAP_HEIGHTS[size]!;
      const emPixels = Math.round(capHeight / ratios[fontIndex]!);
      const outlineWidth = style.outline ? Math.max(2, Math.round(capHeight * 0.08)) : 0;
      for (let t = 0; t < TEXTS.length && !chosen; t++) {
        const text = TEXTS[(start + t) % TEXTS.length]!;
        const line = await render(
          `<span foreground="${style.fill}">${escapeMarkup(text)}</span>`,
          font,
          emPixels,
        );
        if (line.width + 2 * outlineWidth <= clean.width - 24) {
          chosen = { text, line, capHeight, emPixels, outlineWidth };
        }
      }
    }
    if (!chosen) throw new Error(`no text fits case ${k}`);
    const { text, line, capHeight, emPixels, outlineWidth } = chosen;
    const words = text.split(" ");
    // Each word alone, the others drawn transparent, so the layout (and each word's place) is the line's.
    const wordAlphas: Uint8Array[] = [];
    for (let w = 0; w < words.length; w++) {
      const markup = words
        .map((word, i) => (i === w ? escapeMarkup(word) : `<span fgalpha="1">${escapeMarkup(word)}</span>`))
        .join(" ");
      const alone = await render(`<span foreground="${style.fill}">${markup}</span>`, font, emPixels);
      if (alone.width !== line.width || alone.height !== line.height) throw new Error("word layout differs");
      const alpha = new Uint8Array(alone.width * alone.height);
      for (let i = 0; i < alpha.length; i++) alpha[i] = alone.data[i * 4 + 3]!;
      wordAlphas.push(alpha);
    }
    const pad = outlineWidth;
    const width = line.width + 2 * pad;
    const height = line.height + 2 * pad;
    const fillAlpha = new Uint8Array(line.width * line.height);
    for (let i = 0; i < fillAlpha.length; i++) fillAlpha[i] = line.data[i * 4 + 3]!;
    const inner = padded(fillAlpha, line.width, line.height, pad);
    const outer = pad ? grownAlpha(fillAlpha, line.width, line.height, pad) : inner;
    // The fill over its outline: "over" compositing of two premultiplied layers of known colours.
    const fill = hex(style.fill);
    const edge = hex(style.outline ?? style.fill);
    const layer = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      const top = inner[i]! / 255;
      const under = outer[i]! / 255;
      const alpha = top + under * (1 - top);
      if (alpha === 0) continue;
      for (let c = 0; c < 3; c++) {
        layer[i * 4 + c] = Math.round((fill[c]! * top + edge[c]! * under * (1 - top)) / alpha);
      }
      layer[i * 4 + 3] = Math.round(alpha * 255);
    }
    // Which word each solid pixel (alpha of half or more, outline included) belongs to: 1, 2, ...
    const owners = new Uint8Array(width * height);
    wordAlphas.forEach((alpha, w) => {
      const grown = pad ? grownAlpha(alpha, line.width, line.height, pad) : alpha;
      for (let i = 0; i < grown.length; i++) if (grown[i]! >= 128) owners[i] = w + 1;
    });
    const left = 12 + Math.floor(next() * (clean.width - width - 24));
    const top = 12 + Math.floor(next() * (clean.height - height - 24));
    const id = `c${String(k + 1).padStart(2, "0")}`;
    await writeFile(
      `${CAPTION_SET_DIR}${id}.png`,
      await sharp(layer, { raw: { width, height, channels: 4 } })
        .png({ compressionLevel: 9, palette: false })
        .toBuffer(),
    );
    await writeFile(
      `${CAPTION_SET_DIR}${id}-words.png`,
      await sharp(owners, { raw: { width, height, channels: 1 } })
        .png({ compressionLevel: 9 })
        .toBuffer(),
    );
    cases.push({
      id,
      photo: photo.name,
      photoWidth: photo.width,
      left,
      top,
      text,
      font: font.family,
      capHeight,
      fill: style.fill,
      ...(style.outline ? { outline: style.outline, outlineWidth } : {}),
    });
    console.log(
      `${id} ${photo.name} "${text}" ${font.family} ${capHeight} px ${style.fill}${style.outline ? ` outlined ${style.outline}` : ""}`,
    );
  }
  await writeFile(`${CAPTION_SET_DIR}cases.json`, `${JSON.stringify(cases, null, 2)}\n`);
}

await main();
