/**
 * Issue 34's display-caption set, measured for one or more versions of the text removal in this process
 * (so the old and the new one are timed at the same moment): per case the words found, the PSNR in the
 * caption's pixels and outside them (grown by OUTSIDE_MARGIN), and the CPU time of the removal.
 */
import type { Feature } from "../src/features/feature";
import type { RasterImage } from "../src/lib/image";
import { decodeImage } from "../src/lib/image";
import { fillMembrane } from "../src/lib/poisson";
import { type CaptionedCase, captionCase, grownText, loadCaptionCases, wordsFound } from "../test/captions";
import { psnr } from "../test/quality";

/**
 * "Nothing that is not text is touched" is measured outside the caption's pixels grown by this much (and
 * outside the text the photo has of its own).
 */
export const OUTSIDE_MARGIN = 4;
/** What issue 34 asks of the text pixels and of the rest of the image. */
export const TEXT_PSNR_GOAL = 18;
export const OUTSIDE_PSNR_GOAL = 40;

export interface TextRemovalVersion {
  name: string;
  findLetters: (image: RasterImage) => Promise<Uint8Array>;
  feature: Feature<"text-removal">;
}

export interface CaseScore {
  found: boolean[];
  textPsnr: number;
  outsidePsnr: number;
  cpuSeconds: number;
  mask: Uint8Array;
  result: Uint8Array;
}

export interface CaseResult {
  input: CaptionedCase;
  inputPsnr: number;
  scores: CaseScore[];
  /**
   * The engine's fill (the membrane) given the caption's true pixels as its mask (known from the truth): what the fill
   * can reach when the letters are found exactly, the ceiling of any better letter mask.
   */
  trueMaskPsnr?: number;
}

async function cpuTimed<T>(work: () => Promise<T>): Promise<{ value: T; cpuSeconds: number }> {
  const start = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(start);
  return { value, cpuSeconds: (used.user + used.system) / 1e6 };
}

export async function scoreCase(input: CaptionedCase, version: TextRemovalVersion): Promise<CaseScore> {
  const raster = await decodeImage(input.png);
  const mask = await version.findLetters(raster);
  const run = await cpuTimed(() => version.feature.run({ image: input.png }));
  if (run.value.kind !== "image") throw new Error("expected an image");
  const result = (await decodeImage(run.value.png)).data;
  const near = grownText(input.text, input.width, input.height, OUTSIDE_MARGIN);
  return {
    found: wordsFound(input.words, mask),
    textPsnr: psnr(result, input.clean, (p) => input.text[p] === 1),
    outsidePsnr: psnr(result, input.clean, (p) => near[p] === 0 && input.photoText[p] === 0),
    cpuSeconds: run.cpuSeconds,
    mask,
    result,
  };
}

/** Every case of the set (or those `only` names), each version run on it one after the other. */
export async function evaluateCaptionSet(
  versions: TextRemovalVersion[],
  only?: (id: string) => boolean,
  onCase?: (result: CaseResult) => void,
  withTrueMask = false,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const caption of await loadCaptionCases()) {
    if (only && !only(caption.id)) continue;
    const input = await captionCase(caption);
    const scores: CaseScore[] = [];
    for (const version of versions) scores.push(await scoreCase(input, version));
    const result: CaseResult = {
      input,
      inputPsnr: psnr(input.texted, input.clean, (p) => input.text[p] === 1),
      scores,
    };
    if (withTrueMask) {
      const mask = Uint8Array.from(input.text, (value) => value * 255);
      const rgb = fillMembrane(input.texted, input.width, input.height, mask);
      result.trueMaskPsnr = psnr(rgb, input.clean, (p) => input.text[p] === 1);
    }
    onCase?.(result);
    results.push(result);
  }
  return results;
}
