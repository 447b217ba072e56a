import { useReducedMotion } from "@mantine/hooks";
import { LOADING_PARTICLE_COUNT } from "@prism/contract";
import type { CSSProperties } from "react";
import classes from "./particle-field.module.css";

/** Brand and accent shades of the theme; every particle takes one. */
const COLORS = [
  "var(--mantine-color-prism-4)",
  "var(--mantine-color-prism-6)",
  "var(--mantine-color-blue-4)",
  "var(--mantine-color-cyan-4)",
  "var(--mantine-color-grape-4)",
] as const;

/** A small deterministic generator: the field looks the same on every render and in every test. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Particle {
  style: CSSProperties;
}

function makeParticles(count: number): Particle[] {
  const random = seeded(20_240_501);
  return Array.from({ length: count }, (_, index) => {
    const angle = random() * 360;
    const duration = 2.4 + random() * 3.6;
    return {
      style: {
        "--angle": `${angle.toFixed(1)}deg`,
        "--radius": `${(14 + random() * 66).toFixed(1)}px`,
        "--size": `${(2 + random() * 3.5).toFixed(1)}px`,
        "--duration": `${duration.toFixed(2)}s`,
        // A negative delay starts each particle part-way round its orbit, at its own angle.
        "--delay": `${(-(angle / 360) * duration).toFixed(2)}s`,
        "--twinkle": `${(0.8 + random() * 1.6).toFixed(2)}s`,
        "--direction": index % 3 === 0 ? "reverse" : "normal",
        "--color": COLORS[index % COLORS.length],
      } as CSSProperties,
    };
  });
}

const PARTICLES = makeParticles(LOADING_PARTICLE_COUNT);

/**
 * The loading overlay's particle effect (100 particles, as the spec sets). Pure CSS: transforms and
 * opacity only, so the browser animates them off the main thread; still for reduced motion.
 */
export function ParticleField() {
  const reducedMotion = useReducedMotion();
  return (
    <div className={classes.field} data-particle-field data-reduced-motion={reducedMotion || undefined}>
      {PARTICLES.map((particle, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the particles are a fixed list that never reorders.
        <span key={index} className={classes.particle} style={particle.style} data-particle aria-hidden />
      ))}
    </div>
  );
}
