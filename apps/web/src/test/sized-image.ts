/**
 * jsdom loads no pictures: a stand-in for `Image` (stub it with `vi.stubGlobal("Image", SizedImage)`)
 * that "loads" at once with the size its URL ends with (`…/451x300`).
 */
export class SizedImage {
  naturalWidth = 0;
  naturalHeight = 0;
  onload: (() => void) | null = null;
  set src(url: string) {
    const [width, height] = (/(\d+)x(\d+)$/.exec(url) ?? []).slice(1).map(Number);
    this.naturalWidth = width ?? 0;
    this.naturalHeight = height ?? 0;
    queueMicrotask(() => this.onload?.());
  }
}
