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
import type { ComponentType } from "react";
import { useLocation } from "react-router";
import { NotFoundPage } from "../../../app/not-found-page";
import { BackgroundRemovalPage } from "./background-removal-page";
import { FaceSwappingPage } from "./face-swapping-page";
import { GenerativeFillPage } from "./generative-fill-page";
import { IdentityInpaintingPage } from "./identity-inpainting-page";
import { ImageExtensionPage } from "./image-extension-page";
import { ImageGenerationPage } from "./image-generation-page";
import { ObjectRemovalPage } from "./object-removal-page";
import { PegasusGenerationPage } from "./pegasus-generation-page";
import { PegasusTrainingPage } from "./pegasus-training-page";
import { ReimaginePage } from "./reimagine-page";
import { SpeechToTextPage } from "./speech-to-text-page";
import { TextRemovalPage } from "./text-removal-page";
import { UpscalingPage } from "./upscaling-page";

/**
 * The route module of every playground route (the router maps all of FEATURES here): one screen per
 * feature, chosen by route.
 */
const SCREENS: Record<string, ComponentType> = {
  [backgroundRemovalFeature.playgroundRoute]: BackgroundRemovalPage,
  [upscalingFeature.playgroundRoute]: UpscalingPage,
  [textRemovalFeature.playgroundRoute]: TextRemovalPage,
  [imageExtensionFeature.playgroundRoute]: ImageExtensionPage,
  [imageGenerationFeature.playgroundRoute]: ImageGenerationPage,
  [pegasusGenerationFeature.playgroundRoute]: PegasusGenerationPage,
  [pegasusTrainingFeature.playgroundRoute]: PegasusTrainingPage,
  [objectRemovalFeature.playgroundRoute]: ObjectRemovalPage,
  [generativeFillFeature.playgroundRoute]: GenerativeFillPage,
  [faceSwappingFeature.playgroundRoute]: FaceSwappingPage,
  [reimagineFeature.playgroundRoute]: ReimaginePage,
  [identityInpaintingFeature.playgroundRoute]: IdentityInpaintingPage,
  [transcriptionFeature.playgroundRoute]: SpeechToTextPage,
};

export function PlaygroundPage() {
  const { pathname } = useLocation();
  const route = pathname.replace(/\/+$/, "");
  const Screen = SCREENS[route];
  // Keyed by route so moving between two screens never carries one's inputs or history into the other.
  return Screen ? <Screen key={route} /> : <NotFoundPage />;
}
