import { ACCESSIBILITY_VIEWPORTS, describeAccessibilityAt } from "./accessibility";

describeAccessibilityAt(ACCESSIBILITY_VIEWPORTS.desktop);
