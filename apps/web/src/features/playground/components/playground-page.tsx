import { FEATURES } from "@prism/contract";
import { useLocation } from "react-router";
import { ComingSoon } from "../../../components/coming-soon";

/** One placeholder module for every playground route until each screen is built. */
export function PlaygroundPage() {
  const { pathname } = useLocation();
  const feature = FEATURES.find((candidate) => candidate.playgroundRoute === pathname);
  return <ComingSoon title={feature?.name ?? "Playground"} description={feature?.description} />;
}
