/**
 * The prompts behind the generation screens' Random Prompt button (about 50, one is also
 * filled in on load). Each is a complete, self-contained scene so a first click gives a useful image;
 * a test holds the list to RANDOM_PROMPT_COUNT distinct prompts within PROMPT_MAX_LENGTH.
 */
export const RANDOM_PROMPTS = [
  "A lighthouse on a rocky cliff at sunset, waves crashing below, warm golden light, oil painting",
  "A cozy reading nook by a rain-streaked window, a cat asleep on a knitted blanket, soft lamplight",
  "An astronaut tending a vegetable garden inside a glass dome on Mars, cinematic lighting",
  "A bustling night market in Taipei, steam rising from food stalls, neon signs reflected in puddles",
  "A red fox curled up in fresh snow under a birch tree, morning mist, wildlife photography",
  "A futuristic city of white towers and hanging gardens above the clouds, wide angle",
  "A vintage bicycle leaning against a blue door in a sunny Mediterranean alley, bougainvillea",
  "A portrait of an elderly fisherman with a weathered face and a wool cap, dramatic side light",
  "A steaming bowl of ramen with a soft-boiled egg and scallions, overhead food photography",
  "A misty pine forest at dawn with sunbeams through the trees, a deer on the path",
  "A tiny dragon sleeping on a stack of old books in a wizard's study, candlelight, detailed",
  "A surfer riding a huge turquoise wave, spray in the air, shot from the water at eye level",
  "A watercolor of a Parisian café terrace in spring, people chatting, cherry blossoms",
  "A retro diner at midnight on an empty desert highway, pink and teal neon, film grain",
  "A hot air balloon festival over Cappadocia at sunrise, dozens of colorful balloons",
  "A snow-capped mountain reflected in a perfectly still alpine lake, crisp autumn colors",
  "A steampunk airship docked at a brass tower, gears and copper pipes, dramatic sky",
  "A golden retriever puppy playing with autumn leaves in a park, shallow depth of field",
  "An underwater coral reef teeming with tropical fish, sun rays from the surface",
  "A minimalist Scandinavian living room with a large window onto a snowy forest",
  "A samurai standing in a bamboo forest during a light rain, ink wash painting style",
  "A glowing jellyfish drifting through the deep ocean, bioluminescent, dark blue background",
  "A medieval castle on a hill surrounded by vineyards, late afternoon light, aerial view",
  "A robot barista pouring latte art in a sunlit coffee shop, friendly expression",
  "A field of lavender in Provence stretching to the horizon, a lone stone farmhouse",
  "A vintage train crossing a stone viaduct through green highlands, puffs of steam",
  "A close-up of a hummingbird feeding from a red hibiscus flower, frozen wings, macro",
  "A cyberpunk street vendor selling noodles under holographic advertisements, rainy night",
  "A treehouse village connected by rope bridges in a giant redwood forest, fairy lights",
  "An old library with spiral staircases and towering bookshelves, dust in the light beams",
  "A polar bear and her cub walking across sea ice under the northern lights",
  "A still life of lemons, a ceramic jug and linen on a wooden table, Dutch master style",
  "A tropical beach hut on stilts over crystal clear water, palm trees, midday sun",
  "A child flying a kite on a windy hill, dramatic clouds, children's book illustration",
  "A sleek electric sports car on a coastal road at dusk, motion blur, studio quality",
  "A Japanese garden with a red wooden bridge over a koi pond, maple trees in autumn",
  "A desert caravan of camels crossing tall sand dunes at sunset, long shadows",
  "A greenhouse full of exotic orchids and ferns, humid air, soft diffused light",
  "A chess game between an owl and a raccoon in a moonlit forest clearing, whimsical",
  "A waterfall plunging into a jungle pool, mossy rocks, lush ferns, long exposure",
  "A lone astronaut floating above Earth with the sunrise on the horizon, photorealistic",
  "A gingerbread house covered in snow and candy, warm light in the windows, festive",
  "A jazz trio playing in a smoky basement club, saxophone in the spotlight, 1950s style",
  "An ancient Greek temple on a cliff above the sea, marble columns, clear blue sky",
  "A colorful hot sauce market stall in Mexico City, stacked bottles, vibrant papel picado",
  "A wolf howling on a rocky ridge under a full moon, cold blue tones, digital painting",
  "A paper boat sailing down a rainy city gutter, reflections, macro photography",
  "A cozy cabin in the mountains during a snowstorm, smoke from the chimney, warm windows",
  "A field of sunflowers under a stormy purple sky, a rainbow in the distance",
  "A marble sculpture of a dancer mid-leap in a white gallery, soft museum lighting",
] as const satisfies readonly string[];

/**
 * A random prompt from the list. Given the current prompt, it picks a different one, so pressing
 * Random Prompt always changes the text.
 */
export function randomPrompt(current?: string, random: () => number = Math.random): string {
  const candidates = RANDOM_PROMPTS.filter((prompt) => prompt !== current);
  const index = Math.min(candidates.length - 1, Math.floor(random() * candidates.length));
  return candidates[index] ?? RANDOM_PROMPTS[0];
}
