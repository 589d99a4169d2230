// One colour per variant in every view and run (the README promised it; the history and the cell view each took
// the next colour of their own scale, so "virtual" was blue in one and orange in the other). Virtual threads and
// the platform variant keep the first two; any other variant name is hashed into the rest of the palette.

/** Observable's ten categorical colours (Plot's "observable10"). */
const PALETTE = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7", "#a463f2", "#97bbf5", "#9c6b4e", "#9498a0"];

const FIXED: Record<string, number> = { virtual: 0, platform: 1 };

/** A variant's colour: the same for the same name everywhere. */
export function variantColour(name: string): string {
  const fixed = FIXED[name];
  if (fixed !== undefined) return PALETTE[fixed];
  let hash = 0;
  for (const ch of name) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) >>> 0;
  return PALETTE[2 + (hash % (PALETTE.length - 2))];
}

/** A categorical colour scale for Plot over these variants, each in its own colour. */
export function variantScale(names: string[]): { type: "categorical"; domain: string[]; range: string[] } {
  return { type: "categorical", domain: names, range: names.map(variantColour) };
}
