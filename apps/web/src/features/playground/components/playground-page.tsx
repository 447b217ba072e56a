import {
  backgroundRemovalFeature,
  FEATURES,
  imageExtensionFeature,
  textRemovalFeature,
  upscalingFeature,
} from "@prism/contract";
import type { ComponentType } from "react";
import { useLocation } from "react-router";
import { ComingSoon } from "../../../components/coming-soon";
import { BackgroundRemovalPage } from "./background-removal-page";
import { ImageExtensionPage } from "./image-extension-page";
import { TextRemovalPage } from "./text-removal-page";
import { UpscalingPage } from "./upscaling-page";

/**
 * The route module of every playground route (the router maps all of FEATURES here): the built
 * screens by route, a coming-soon page for the rest. Add a screen by adding its route here.
 */
const SCREENS: Record<string, ComponentType> = {
  [backgroundRemovalFeature.playgroundRoute]: BackgroundRemovalPage,
  [upscalingFeature.playgroundRoute]: UpscalingPage,
  [textRemovalFeature.playgroundRoute]: TextRemovalPage,
  [imageExtensionFeature.playgroundRoute]: ImageExtensionPage,
};

export function PlaygroundPage() {
  const { pathname } = useLocation();
  const route = pathname.replace(/\/+$/, "");
  const Screen = SCREENS[route];
  // Keyed by route so moving between two screens never carries one's inputs or history into the other.
  if (Screen) return <Screen key={route} />;
  const feature = FEATURES.find((candidate) => candidate.playgroundRoute === route);
  return <ComingSoon title={feature?.name ?? "Playground"} description={feature?.description} />;
}
