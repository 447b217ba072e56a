import {
  backgroundRemovalFeature,
  faceSwappingFeature,
  generativeFillFeature,
  identityInpaintingFeature,
  imageExtensionFeature,
  imageGenerationFeature,
  objectRemovalFeature,
  pegasusGenerationFeature,
  pegasusTrainingFeature,
  reimagineFeature,
  textRemovalFeature,
  transcriptionFeature,
  upscalingFeature,
} from "@prism/contract";
import { type ComponentType, lazy, Suspense } from "react";
import { useLocation } from "react-router";
import { PageLoader } from "../../../components/full-page-loader";
import { NotFoundPage } from "../../../components/not-found-page";

/**
 * Each screen is its own chunk, fetched when its route is first opened: the mask editor, the upload
 * dropzone, the lightbox and the before/after slider reach only the screens that use them (issue 16).
 */
function lazyScreen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): ComponentType {
  return lazy(async () => ({ default: pick(await load()) }));
}

/**
 * The route module of every playground route (the router maps all of FEATURES here): one screen per
 * feature, chosen by route.
 */
const SCREENS: Record<string, ComponentType> = {
  [backgroundRemovalFeature.playgroundRoute]: lazyScreen(
    () => import("./background-removal-page"),
    (m) => m.BackgroundRemovalPage,
  ),
  [upscalingFeature.playgroundRoute]: lazyScreen(
    () => import("./upscaling-page"),
    (m) => m.UpscalingPage,
  ),
  [textRemovalFeature.playgroundRoute]: lazyScreen(
    () => import("./text-removal-page"),
    (m) => m.TextRemovalPage,
  ),
  [imageExtensionFeature.playgroundRoute]: lazyScreen(
    () => import("./image-extension-page"),
    (m) => m.ImageExtensionPage,
  ),
  [imageGenerationFeature.playgroundRoute]: lazyScreen(
    () => import("./image-generation-page"),
    (m) => m.ImageGenerationPage,
  ),
  [pegasusGenerationFeature.playgroundRoute]: lazyScreen(
    () => import("./pegasus-generation-page"),
    (m) => m.PegasusGenerationPage,
  ),
  [pegasusTrainingFeature.playgroundRoute]: lazyScreen(
    () => import("./pegasus-training-page"),
    (m) => m.PegasusTrainingPage,
  ),
  [objectRemovalFeature.playgroundRoute]: lazyScreen(
    () => import("./object-removal-page"),
    (m) => m.ObjectRemovalPage,
  ),
  [generativeFillFeature.playgroundRoute]: lazyScreen(
    () => import("./generative-fill-page"),
    (m) => m.GenerativeFillPage,
  ),
  [faceSwappingFeature.playgroundRoute]: lazyScreen(
    () => import("./face-swapping-page"),
    (m) => m.FaceSwappingPage,
  ),
  [reimagineFeature.playgroundRoute]: lazyScreen(
    () => import("./reimagine-page"),
    (m) => m.ReimaginePage,
  ),
  [identityInpaintingFeature.playgroundRoute]: lazyScreen(
    () => import("./identity-inpainting-page"),
    (m) => m.IdentityInpaintingPage,
  ),
  [transcriptionFeature.playgroundRoute]: lazyScreen(
    () => import("./speech-to-text-page"),
    (m) => m.SpeechToTextPage,
  ),
};

export function PlaygroundPage() {
  const { pathname } = useLocation();
  const route = pathname.replace(/\/+$/, "");
  const Screen = SCREENS[route];
  // Keyed by route so moving between two screens never carries one's inputs or history into the other.
  if (!Screen) return <NotFoundPage />;
  return (
    <Suspense fallback={<PageLoader />}>
      <Screen key={route} />
    </Suspense>
  );
}
